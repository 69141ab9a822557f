package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What {@code run} writes, and refuses to write: inputs are never outputs, checks come first, failures leave nothing. */
class OutputFilesCommandTest
{
    @TempDir
    Path dir;

    private Path capture(final String name)
    {
        final Path capture = dir.resolve(name);
        final Captured make = Captured.run("run", "--generate", "packets=300,seed=3", "--no-progress", "--executor", "serial",
            "--out", capture.toString());
        assertEquals(0, make.status(), make.err());
        return capture;
    }

    @Test
    void shouldRefuseEveryOutputThatIsTheInputCaptureByPathLinkOrHardLink() throws IOException
    {
        final Path input = capture("in.pcap");
        final byte[] before = Files.readAllBytes(input);
        final Path symbolic = Files.createSymbolicLink(dir.resolve("link.pcap"), input);
        final Path hard = Files.createLink(dir.resolve("hard.pcap"), input);
        final String samePathOtherSpelling = dir.resolve(".").resolve("in.pcap").toString();
        for (final String option : List.of("--out", "--records", "--state", "--report", "--fault-log"))
        {
            for (final String given : List.of(input.toString(), symbolic.toString(), hard.toString()))
            {
                final Captured run = Captured.run("run", "--pcap", given, option, samePathOtherSpelling, "--no-progress");
                assertEquals(2, run.status(), option + " over " + given + ": " + run.err());
                assertTrue(run.err().contains("is the file the command reads") && run.err().contains("fix:"), run.err());
            }
        }
        assertArrayEquals(before, Files.readAllBytes(input), "the input is untouched");
    }

    @Test
    void shouldNameTheOutputAndSayWhatToDoWhenACaptureMixesLinkTypes()
    {
        // two interfaces, Ethernet and Linux cooked v2: a pcap file holds one link type
        final Path mixed = Path.of("..", "engine", "src", "test", "resources", "traces", "tiny-ether-sll2.pcapng");
        final Path out = dir.resolve("out.pcap");

        final Captured run = Captured.run("run", "lb", "--pcap", mixed.toString(), "--out", out.toString(), "--no-progress");

        assertEquals(1, run.status(), run.err());
        assertTrue(run.err().contains("cannot write --out " + out + ": frame ") && run.err().contains("and a pcap file has one")
            && run.err().contains("fix: write each interface's packets to a file of their own"), run.err());
        assertFalse(run.err().contains(".partial-") || run.err().contains("make room"), "the real name and the right fix: " + run.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void shouldWriteTheCapturesLinkTypeBackWhenNothingIsForwarded() throws IOException
    {
        // BSD loopback (LOOP, 108) IPv6 traffic that the firewall lets none of through
        final Path loop = Path.of("..", "engine", "src", "test", "resources", "traces", "http_ipv6-loop.pcap");
        final Path out = dir.resolve("empty.pcap");

        final Captured run = Captured.run("run", "fw-portscan-monitor", "--pcap", loop.toString(), "--out", out.toString(), "--no-progress");

        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("wrote 0 packets to " + out), run.out());
        final ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(24, header.limit(), "a header and no frame");
        assertEquals(108, header.getInt(20), "the capture's link type, not Ethernet's");
    }

    @Test
    void shouldRefuseTwoOutputsNamingOneFile()
    {
        final Path same = dir.resolve("same.txt");
        final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress",
            "--report", same.toString(), "--state", same.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("name the same file") && run.err().contains("fix:"), run.err());
        assertFalse(Files.exists(same));
    }

    @Test
    void shouldCheckEveryOutputBeforeAnyWorkIsDone()
    {
        final Path records = dir.resolve("records.txt");
        final Path report = dir.resolve("missing").resolve("report.json");
        final Captured run = Captured.run("run", "--generate", "packets=2000", "--no-progress",
            "--records", records.toString(), "--report", report.toString());
        assertEquals(2, run.status(), run.out());
        assertTrue(run.err().contains("--report " + report + ": the directory " + dir.resolve("missing") + " does not exist"),
            run.err());
        assertEquals("", run.out(), "no run happened");
        assertFalse(Files.exists(records), "no record was written before the report's directory was found missing");
    }

    @Test
    void shouldNameAnOutputThatIsADirectoryWithAFix() throws IOException
    {
        final Path directory = Files.createDirectory(dir.resolve("d"));
        final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress", "--records", directory.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("--records " + directory + ": is a directory") && run.err().contains("fix: name a file"),
            run.err());
    }

    @Test
    void shouldLeaveNoOutputBehindWhenOneOutputCannotBeWritten() throws IOException
    {
        final Path directory = Files.createDirectory(dir.resolve("d"));
        final Path out = dir.resolve("out.pcap");
        final Path records = dir.resolve("records.txt");
        final Captured run = Captured.run("run", "--generate", "packets=500", "--no-progress",
            "--out", out.toString(), "--records", records.toString(), "--state", directory.toString());
        assertEquals(2, run.status(), run.err());
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(List.of(directory), files.toList(), "neither the outputs nor their temporary files remain");
        }
    }

    @Test
    void shouldKeepAnEarlierOutputWhenTheRunFails() throws IOException
    {
        final Path records = Files.writeString(dir.resolve("records.txt"), "earlier run\n");
        final Path directory = Files.createDirectory(dir.resolve("d"));
        assertEquals(2, Captured.run("run", "--generate", "packets=50", "--no-progress", "--records", records.toString(),
            "--report", directory.toString()).status());
        assertEquals("earlier run\n", Files.readString(records), "a failed run keeps the earlier file");
        assertEquals(0, Captured.run("run", "--generate", "packets=50", "--no-progress", "--records", records.toString())
            .status());
        assertEquals(50, Files.readAllLines(records).size());
    }

    @Test
    void shouldNameAMissingDirectoryOrDeviceCaptureInWordsWithAFix()
    {
        final Captured missing = Captured.run("run", "--pcap", dir.resolve("nosuch.pcap").toString(), "--no-progress");
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("nosuch.pcap: no such file") && missing.err().contains("fix:"), missing.err());
        assertFalse(missing.err().contains("Exception"), missing.err());
        final Captured device = Captured.run("run", "--pcap", "/dev/null", "--no-progress");
        assertEquals(2, device.status());
        assertTrue(device.err().contains("--pcap /dev/null: is a device") && device.err().contains("fix:"), device.err());
        final Captured directory = Captured.run("run", "--pcap", dir.toString(), "--no-progress");
        assertEquals(2, directory.status());
        assertTrue(directory.err().contains("is a directory, not a pcap") && directory.err().contains("fix:"), directory.err());
    }

    @Test
    void shouldFailWithOneLineNamingTheOutputWhenItsDiskIsFullAndLeaveNoOtherOutputBehind() throws IOException
    {
        final Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "needs Linux's /dev/full, on which every write fails with ENOSPC");
        final List<String> options = List.of("--out", "--records", "--state", "--report");
        for (final String executor : List.of("tpg", "serial"))
        {
            for (final String option : options)
            {
                // another output, a regular file, beside the one that fails: it must not be left behind either
                final String other = option.equals("--records") ? "--out" : "--records";
                final Path otherFile = dir.resolve(executor + other.substring(2));
                final Captured run = Captured.run("run", "--generate", "packets=5000,seed=3", "--no-progress", "--executor", executor,
                    option, full.toString(), other, otherFile.toString());
                final String where = option + " with " + executor + ": ";
                assertEquals(1, run.status(), where + run.err());
                assertEquals("run: cannot write " + option + " /dev/full: no space left on device; fix: make room on its file system"
                    + " or choose another path, then run again", run.err().strip(), where + "one line, naming the file and the reason");
                assertOnlyFilesLeft(List.of());
            }
        }
    }

    @Test
    void shouldNameTheOutputWhenACheckpointCannotCommitItBecauseItsDiskIsFull() throws IOException
    {
        final Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "needs Linux's /dev/full, on which every write fails with ENOSPC");
        final Path checkpoints = dir.resolve("ckpt");
        final Captured run = Captured.run("run", "--generate", "packets=5000,seed=3", "--no-progress", "--batch", "64",
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "1", "--out", full.toString());
        assertEquals(1, run.status(), run.err());
        assertTrue(run.err().strip().startsWith("run: cannot write --out /dev/full: no space left on device; fix:")
            && !run.err().strip().contains("\n"), run.err());
        assertOnlyFilesLeft(List.of(checkpoints));
    }

    @Test
    void shouldNameEveryOutputInADirectoryThatTakesNoNewFileBeforeAnyWork()
    {
        // /proc takes no new file, even from root (who may write a directory without write permission)
        for (final String option : List.of("--out", "--records", "--state", "--report", "--fault-log"))
        {
            final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress", option, "/proc/transnfv-output");
            assertEquals(2, run.status(), option + ": " + run.err());
            assertTrue(run.err().contains(option + " /proc/transnfv-output: cannot create a file in /proc (")
                && run.err().contains("fix:"), option + ": " + run.err());
            assertEquals("", run.out(), "no run happened");
        }
    }

    @Test
    void shouldNameAnOutputInADirectoryWithoutWritePermissionBeforeAnyWork() throws IOException
    {
        final Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try
        {
            assumeFalse(Files.isWritable(readOnly), "this user (root) may write a directory without write permission;"
                + " shouldNameEveryOutputInADirectoryThatTakesNoNewFileBeforeAnyWork shows the refusal under /proc");
            final Path records = readOnly.resolve("records.txt");
            final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress", "--records", records.toString());
            assertEquals(2, run.status(), run.err());
            assertTrue(run.err().contains("--records " + records + ": cannot create a file in " + readOnly + " (permission denied)")
                && run.err().contains("fix:"), run.err());
            try (Stream<Path> files = Files.list(readOnly))
            {
                assertEquals(0, files.count());
            }
        }
        finally
        {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private void assertOnlyFilesLeft(final List<Path> expected) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(expected, files.toList(), "no output, and no temporary file, is left of a failed run");
        }
    }

    @Test
    void shouldSayWhyAnOutputCannotBeCreatedRatherThanPrintItsPath()
    {
        final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress", "--out", "/proc/x.pcap");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("cannot create a file in /proc") && run.err().contains("fix:"), run.err());
    }
}
