package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Files that exist but this user may not read, and directories it may not write: {@code run}
 * and {@code verify} name the file in one sentence with a {@code fix:} line (a chain file in
 * the chain validator's form), and exit 2 for what they are given (a chain, a capture, an
 * output claimed before the run, the fault log among them, though it is written only once
 * the run has found faults).
 *
 * <p>A file or directory without permissions stops every user but root, and the tests may run
 * as root: then they use what the kernel refuses even to root, a write-only kernel setting
 * under {@code /proc/sys} and the {@code /sys} directory, in which nobody creates files.
 */
class PermissionDeniedTest
{
    private static final Path WRITE_ONLY_SETTING = Path.of("/proc/sys/vm/drop_caches");
    private static final Path NO_NEW_FILES = Path.of("/sys");

    @TempDir
    Path dir;

    @Test
    void shouldNameAChainFileItCannotReadAndExitTwo() throws IOException
    {
        final Path chain = unreadableFile("secret.yaml");
        for (final String command : List.of("run", "verify"))
        {
            final Captured result = Captured.run(command, chain.toString(), "--generate", "packets=10");
            assertEquals(2, result.status(), command + ": " + result.err());
            // the chain validator's form: a count, then file:line:col and the fix
            assertEquals(List.of(command + ": 1 error in chain " + chain + ":",
                chain + ":1:1: cannot read the chain file: permission denied",
                "    fix: make it readable (chmod +r " + chain + ") or copy it somewhere readable"), result.err().lines().toList());
        }
    }

    @Test
    void shouldNameACaptureItCannotReadAndExitTwo() throws IOException
    {
        final Path capture = unreadableFile("secret.pcap");
        final Path chain = dir.resolve("replay.yaml");
        Files.writeString(chain, "name: replay\nvnfs:\n  - name: lb\n    type: load-balancer\nsettings:\n  traffic:\n    pcap: "
            + capture + "\n", StandardCharsets.UTF_8);
        for (final String command : List.of("run", "verify"))
        {
            final Captured given = Captured.run(command, "lb", "--pcap", capture.toString());
            assertEquals(2, given.status(), command + ": " + given.err());
            assertOneSentenceAndAFix(given.err(), command + ": --pcap " + capture + ": permission denied, this user cannot read it.");

            final Captured fromChain = Captured.run(command, chain.toString());
            assertEquals(2, fromChain.status(), command + ": " + fromChain.err());
            assertOneSentenceAndAFix(fromChain.err(),
                command + ": the chain's traffic pcap " + capture + ": permission denied, this user cannot read it.");
        }
    }

    @Test
    void shouldNameAnOutputWhoseDirectoryItCannotWriteAndExitTwoBeforeAnyWork() throws IOException
    {
        final Path directory = unwritableDirectory();
        for (final String option : List.of("--out", "--records", "--state", "--report"))
        {
            final Path target = directory.resolve("transnfv-output");
            final Captured run = Captured.run("run", "lb", "--generate", "packets=10", "--no-progress", option, target.toString());
            assertEquals(2, run.status(), option + ": " + run.err());
            assertOneSentenceAndAFix(run.err(),
                "run: " + option + " " + target + ": cannot create a file in " + directory + " (permission denied).");
            assertTrue(run.out().isEmpty(), "refused before the run: " + run.out());
            assertFalse(Files.exists(target));
        }
    }

    @Test
    void shouldNameAFaultLogItCannotWriteBeforeAnyWork() throws IOException
    {
        final Path faultLog = unwritableDirectory().resolve("faults.log");
        final Path chain = dir.resolve("throw.yaml");
        Files.writeString(chain, "name: throw\nvnfs:\n  - name: thrower\n    type: test-throw\n    params: { every: 7 }\n",
            StandardCharsets.UTF_8);
        final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=100", "--no-progress",
            "--fault-log", faultLog.toString());
        assertEquals(2, run.status(), run.err());
        assertOneSentenceAndAFix(run.err(),
            "run: --fault-log " + faultLog + ": cannot create a file in " + faultLog.getParent() + " (permission denied).");
        assertTrue(run.out().isEmpty(), "refused before the run: " + run.out());
        assertFalse(Files.exists(faultLog));
    }

    /** What the command printed on stderr: exactly {@code sentence}, then one {@code fix:} line, no stack trace. */
    private static void assertOneSentenceAndAFix(final String err, final String sentence)
    {
        final List<String> lines = err.lines().toList();
        assertEquals(2, lines.size(), err);
        assertEquals(sentence, lines.get(0));
        assertTrue(lines.get(1).startsWith("    fix: "), err);
    }

    /** @return a regular file that exists and that this process cannot read. */
    private Path unreadableFile(final String name) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, "name: secret\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(file))
        {
            return file;
        }
        assumeTrue(Files.isRegularFile(WRITE_ONLY_SETTING) && !Files.isReadable(WRITE_ONLY_SETTING),
            "this user reads files without permissions (root) and there is no write-only " + WRITE_ONLY_SETTING
                + " (not Linux?) to stand for an unreadable file");
        return WRITE_ONLY_SETTING;
    }

    /** @return an existing directory in which this process cannot create a file. */
    private Path unwritableDirectory() throws IOException
    {
        final Path directory = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (!canCreateFileIn(directory))
        {
            return directory;
        }
        assumeTrue(Files.isDirectory(NO_NEW_FILES) && !canCreateFileIn(NO_NEW_FILES),
            "this user writes in directories without permissions (root) and " + NO_NEW_FILES
                + " (not Linux?) does not refuse new files either");
        return NO_NEW_FILES;
    }

    private static boolean canCreateFileIn(final Path directory)
    {
        try
        {
            Files.delete(Files.createTempFile(directory, ".probe", ""));
            return true;
        }
        catch (final IOException e)
        {
            return false;
        }
    }
}
