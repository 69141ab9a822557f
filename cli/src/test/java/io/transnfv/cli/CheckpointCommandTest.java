package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --checkpoint-dir}, {@code --resume} and {@code settings.checkpoint} as a user drives them. */
class CheckpointCommandTest
{
    @TempDir
    Path dir;

    private static long checkpointFiles(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter(f -> f.getFileName().toString().startsWith("ckpt-")).count();
        }
    }

    @Test
    void shouldTakeCheckpointsTheChainFileAsksFor() throws IOException
    {
        final Path chain = dir.resolve("lb.yaml");
        final Path checkpoints = dir.resolve("from-yaml");
        Files.writeString(chain, Files.readString(Path.of("..", "chains", "lb.yaml"))
            + "\n  checkpoint: { dir: " + checkpoints + ", every: 2, full_every: 1000 }\n");

        final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=3000,seed=3", "--batch", "100", "--executor", "serial",
            "--no-progress");

        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("checkpoints: 15 taken (1 full) in " + checkpoints), run.out());
        assertEquals(15, checkpointFiles(checkpoints));
    }

    @Test
    void shouldResumeACompletedRunToTheSameOutputs() throws IOException
    {
        final Path checkpoints = dir.resolve("ckpt");
        final String[] common = {"run", "--generate", "packets=5000,seed=4", "--batch", "128", "--no-progress", "--executor", "serial"};
        assertEquals(0, Captured.run(concat(common, "--records", dir.resolve("a.txt").toString(), "--out", dir.resolve("a.pcap").toString(),
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "3")).status());
        Files.copy(dir.resolve("a.txt"), dir.resolve("first.txt"));
        Files.copy(dir.resolve("a.pcap"), dir.resolve("first.pcap"));
        // the outputs hold a tail that the newest checkpoint did not commit: resume cuts it back and writes it again
        final Captured resumed = Captured.run(concat(common, "--records", dir.resolve("a.txt").toString(), "--out",
            dir.resolve("a.pcap").toString(), "--resume", checkpoints.toString(), "--checkpoint-every", "3"));

        assertEquals(0, resumed.status(), resumed.err());
        assertTrue(resumed.out().contains("resumed from checkpoint 13 at packet 4992"), resumed.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("first.txt")), Files.readAllBytes(dir.resolve("a.txt")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("first.pcap")), Files.readAllBytes(dir.resolve("a.pcap")));
    }

    @Test
    void shouldResumeWithTheTablesThatWereFullAtTheCheckpointStillClosed() throws IOException
    {
        // the load balancer's connections fill at the first capacity check (packet 1,024) and stay
        // full: the last checkpoint, near the end, is past the last check, so the resumed run
        // refuses new flows only if the checkpoint brought the closed table back
        final Path chain = dir.resolve("bounded.yaml");
        Files.writeString(chain, """
            name: bounded
            vnfs:
              - name: lb
                type: load-balancer
                params: { servers: 8, candidates: 2 }
                tables: { connections: { capacity: 100 } }
            """);
        final Path checkpoints = dir.resolve("ckpt");
        final String[] common = {"run", chain.toString(), "--generate", "packets=5000,new_conn_ratio=0.6,seed=9", "--batch", "128",
            "--no-progress", "--executor", "serial"};
        final Captured first = Captured.run(concat(common, "--records", dir.resolve("a.txt").toString(), "--checkpoint-dir",
            checkpoints.toString(), "--checkpoint-every", "3"));
        assertEquals(0, first.status(), first.err());
        assertTrue(first.out().contains("lb:state-full"), first.out());
        Files.copy(dir.resolve("a.txt"), dir.resolve("first.txt"));

        final Captured resumed = Captured.run(concat(common, "--records", dir.resolve("a.txt").toString(), "--resume", checkpoints.toString(),
            "--checkpoint-every", "3"));

        assertEquals(0, resumed.status(), resumed.err());
        assertTrue(resumed.out().contains("resumed from checkpoint"), resumed.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("first.txt")), Files.readAllBytes(dir.resolve("a.txt")));
    }

    @Test
    void shouldResumeTheVnfsOwnCountersFromTheCheckpoint() throws IOException
    {
        // the whole run's report against the resumed run's: the VNFs' counters (nat.outbound, lb.new-connections, ...)
        // count from the start in both, not from the resume
        final Path checkpoints = dir.resolve("ckpt");
        final String[] common = {"run", "--generate", "packets=6000,seed=5", "--batch", "128", "--no-progress", "--executor", "serial"};
        assertEquals(0, Captured.run(concat(common, "--report", dir.resolve("whole.json").toString(), "--checkpoint-dir",
            checkpoints.toString(), "--checkpoint-every", "5")).status());
        final Captured resumed = Captured.run(concat(common, "--report", dir.resolve("resumed.json").toString(), "--resume",
            checkpoints.toString(), "--checkpoint-every", "5"));
        assertEquals(0, resumed.status(), resumed.err());
        assertTrue(resumed.out().contains("resumed from checkpoint"), resumed.out());

        final ObjectMapper json = new ObjectMapper();
        final JsonNode whole = json.readTree(dir.resolve("whole.json").toFile()).path("vnfs");
        final JsonNode after = json.readTree(dir.resolve("resumed.json").toFile()).path("vnfs");
        assertTrue(whole.size() > 0 && whole.toString().contains("outbound"), whole.toString());
        assertEquals(whole, after);
    }

    @Test
    void shouldCarryTheCheckersTallyAcrossAResumeSoTheResumedReportEqualsTheUninterruptedOne() throws IOException
    {
        // a VNF whose checker fails at every check: checks every second of packet time (at packets
        // 1,000 and 2,000) and at the end; the last checkpoint is past both, so the resumed run
        // runs only the final check itself and must report the two before its cut too
        final Path chain = dir.resolve("leak.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\nsettings:\n  checkers: { every: 1s }\n");
        final ObjectMapper json = new ObjectMapper();
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Path checkpoints = dir.resolve(executor + "-ckpt");
            final String[] common = {"run", chain.toString(), "--generate", "packets=3000,rate_pps=1000,seed=3", "--batch", "128",
                "--no-progress", "--executor", executor};
            final Path whole = dir.resolve(executor + "-whole.json");
            final Path resumedReport = dir.resolve(executor + "-resumed.json");
            final Captured first = Captured.run(concat(common, "--report", whole.toString(), "--checkpoint-dir", checkpoints.toString(),
                "--checkpoint-every", "5"));
            assertEquals(0, first.status(), first.err());
            final Captured resumed = Captured.run(concat(common, "--report", resumedReport.toString(), "--resume",
                checkpoints.toString(), "--checkpoint-every", "5"));
            assertEquals(0, resumed.status(), resumed.err());
            final Matcher at = Pattern.compile("resumed from checkpoint \\d+ at packet (\\d+)").matcher(resumed.out());
            assertTrue(at.find(), resumed.out());
            assertTrue(Long.parseLong(at.group(1)) > 2_000, executor + ": the cut is past both checks during the run: " + resumed.out());

            final JsonNode expected = json.readTree(whole.toFile()).path("checkers");
            final JsonNode actual = json.readTree(resumedReport.toFile()).path("checkers");
            assertEquals(3, expected.path("checks").asLong(), expected.toString());
            assertEquals(3, expected.path("violations").get(0).path("count").asLong(), expected.toString());
            assertEquals(expected, actual, executor + ": the resumed run reports every check of the run");
            assertTrue(resumed.out().contains("3 violation(s); first at the check before packet #"), resumed.out());
        }
    }

    @Test
    void shouldRefuseToStartAFreshRunInAUsedCheckpointDirectory() throws IOException
    {
        final Path checkpoints = dir.resolve("ckpt");
        assertEquals(0, Captured.run("run", "--generate", "packets=2000", "--batch", "100", "--no-progress",
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "5").status());

        final Captured again = Captured.run("run", "--generate", "packets=2000", "--no-progress", "--checkpoint-dir", checkpoints.toString());

        assertEquals(1, again.status());
        assertTrue(again.err().contains("already holds checkpoints of a run") && again.err().contains("fix: --resume " + checkpoints),
            again.err());
    }

    @Test
    void shouldRefuseToResumeFromAnotherRunsCheckpointsAndLeaveThemAsTheyWere() throws IOException
    {
        final Path checkpoints = dir.resolve("ckpt");
        assertEquals(0, Captured.run("run", "--generate", "packets=2000,seed=3", "--batch", "100", "--no-progress",
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "5").status());
        final Map<Path, byte[]> before = contents(checkpoints);

        final Captured other = Captured.run("run", "--generate", "packets=2000,seed=4", "--batch", "100", "--no-progress",
            "--resume", checkpoints.toString());

        assertEquals(2, other.status(), other.err());
        assertTrue(other.err().contains("were written for another chain or traffic, and none for this one")
            && other.err().contains("fix: resume with the chain file and traffic options of the run that wrote them"), other.err());
        assertFalse(other.err().contains("Usage:"), "a sentence and a fix, not the command's usage: " + other.err());
        final Map<Path, byte[]> after = contents(checkpoints);
        assertEquals(before.keySet(), after.keySet(), "no checkpoint added or removed");
        before.forEach((file, bytes) -> assertArrayEquals(bytes, after.get(file), file + " untouched"));
    }

    @Test
    void shouldRefuseACheckpointDirectoryThatIsAFileAsBadInput() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("afile"), "x");

        final Captured run = Captured.run("run", "--generate", "packets=100", "--no-progress", "--checkpoint-dir", file.toString());

        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("--checkpoint-dir " + file + ": is a file") && run.err().contains("fix: name a new or empty directory"),
            run.err());
    }

    private static Map<Path, byte[]> contents(final Path directory) throws IOException
    {
        final Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(directory))
        {
            for (final Path f : list.toList())
            {
                files.put(f.getFileName(), Files.readAllBytes(f));
            }
        }
        return files;
    }

    @Test
    void shouldRejectAnIntervalThatIsNeitherBatchesNorADuration()
    {
        final Captured run = Captured.run("run", "--generate", "packets=100", "--no-progress", "--checkpoint-dir",
            dir.resolve("c").toString(), "--checkpoint-every", "sometimes");

        assertEquals(2, run.status());
        assertTrue(run.err().contains("--checkpoint-every: checkpoint interval 'sometimes' is neither") && run.err().contains("fix: e.g. 100"),
            run.err());
    }

    @Test
    void shouldRefuseCheckpointsOfAPacedReplay()
    {
        final Captured run = Captured.run("run", "--generate", "packets=100", "--no-progress", "--rate", "100k", "--checkpoint-dir",
            dir.resolve("c").toString());

        assertEquals(2, run.status());
        assertTrue(run.err().contains("--rate cannot be used with checkpoints") && run.err().contains("fix: drop --rate"), run.err());
    }

    private static String[] concat(final String[] head, final String... tail)
    {
        return Stream.concat(Stream.of(head), Stream.of(tail)).toArray(String[]::new);
    }
}
