package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.transnfv.cli.TransnfvProcess.signal;
import static io.transnfv.cli.TransnfvProcess.start;
import static io.transnfv.cli.TransnfvProcess.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transnfv run --runtime flink --savepoint-dir D} as a subprocess, stopped by SIGTERM: the
 * job stops with a savepoint into D at the next read batch, the command prints the summary and
 * writes the report of the run up to the stop, says where and how to resume and exits with 143, and {@code --from-savepoint D} (here at another parallelism) ends
 * the run with the records, forwarded frames and final state of an uninterrupted standalone run.
 */
class FlinkSignalStopTest
{
    /**
     * Enough that the stop lands far inside the traffic: the signal follows the first committed
     * checkpoint by a few read batches, and the resumed job at parallelism 1 then runs the rest,
     * which is most of this test's time.
     */
    private static final long PACKETS = 200_000;
    private static final int READ_BATCH = 500;

    @TempDir
    Path dir;

    @Test
    @Timeout(1200)
    void shouldStopWithASavepointOnSigtermFromWhichAResumeEndsAsTheUninterruptedRun() throws Exception
    {
        final Path chain = TrojanByHostChain.write(dir, PACKETS);
        final Path savepoints = dir.resolve("stopped");
        final Process stopped = start(dir, List.of("run", chain.toString(), "--runtime", "flink", "--parallelism", "2",
            "--flink-batch", Integer.toString(READ_BATCH), "--flink-checkpoint-every", "50ms", "--no-progress",
            "--savepoint-dir", savepoints.toString(), "--report", dir.resolve("stopped.json").toString()), "stopped");
        // once a checkpoint has committed outputs the job is well under way, far from the end of its traffic
        final Path committed = savepoints.resolve("outputs").resolve("committed");
        while (stopped.isAlive() && !hasFiles(committed))
        {
            stopped.waitFor(20, TimeUnit.MILLISECONDS);
        }
        assertTrue(stopped.isAlive(), () -> "the run ended before the signal: " + text(dir.resolve("stopped.out"))
            + text(dir.resolve("stopped.err")));
        signal(stopped, "TERM");
        assertTrue(stopped.waitFor(300, TimeUnit.SECONDS), "the run did not stop after SIGTERM");
        final String out = text(dir.resolve("stopped.out"));
        final String err = text(dir.resolve("stopped.err"));
        assertEquals(143, stopped.exitValue(), out + err);
        assertTrue(err.contains("SIGTERM: stopping the Flink job with a savepoint into " + savepoints), err);
        assertTrue(out.contains("stopped              stopped by SIGTERM before the end of the traffic"), out);
        assertTrue(out.contains("resume with: --from-savepoint " + savepoints), out);

        final Properties stop = new Properties();
        try (Reader in = Files.newBufferedReader(savepoints.resolve("stop.properties")))
        {
            stop.load(in);
        }
        final long at = Long.parseLong(stop.getProperty("packets"));
        assertTrue(at > 0 && at < PACKETS, "the stop lands inside the traffic: " + at);
        assertEquals(0, at % READ_BATCH, "the stop lands between two read batches: " + at);
        assertTrue(out.contains(String.format("stopped with a savepoint after %,d packets at parallelism 2", at)), out);
        // the summary and the report are those of the run up to the stop
        assertTrue(out.contains(String.format("packets in           %,d", at)), out);
        assertTrue(out.contains("flink subtasks       at the stop, 0: "), out);
        final JsonNode report = new ObjectMapper().readTree(dir.resolve("stopped.json").toFile());
        assertEquals("terminate", report.path("stopped").path("cause").asText(), report::toPrettyString);
        assertTrue(report.path("stopped").path("message").asText().contains("stopped with a savepoint after"), report::toPrettyString);
        assertEquals(at, report.path("packets").path("in").asLong(), report::toPrettyString);

        final Process resumed = start(dir, List.of("run", chain.toString(), "--runtime", "flink", "--parallelism", "1",
            "--flink-batch", Integer.toString(READ_BATCH), "--no-progress", "--from-savepoint", savepoints.toString(),
            "--records", dir.resolve("resumed.txt").toString(), "--out", dir.resolve("resumed.pcap").toString(),
            "--state", dir.resolve("resumed-state.txt").toString()), "resumed");
        // generous: on a loaded machine a Flink job over a few hundred thousand packets can take minutes
        assertTrue(resumed.waitFor(600, TimeUnit.SECONDS), "the resumed run did not end");
        final String resumedOut = text(dir.resolve("resumed.out")) + text(dir.resolve("resumed.err"));
        assertEquals(0, resumed.exitValue(), resumedOut);
        assertTrue(resumedOut.contains(String.format("from a savepoint after %,d packets, parallelism 2 -> 1", at)), resumedOut);

        final Captured standalone = Captured.run("run", chain.toString(), "--no-progress", "--records",
            dir.resolve("standalone.txt").toString(), "--out", dir.resolve("standalone.pcap").toString(),
            "--state", dir.resolve("standalone-state.txt").toString());
        assertEquals(0, standalone.status(), standalone.out() + standalone.err());
        for (final String file : new String[] {".txt", ".pcap", "-state.txt"})
        {
            assertArrayEquals(Files.readAllBytes(dir.resolve("standalone" + file)), Files.readAllBytes(dir.resolve("resumed" + file)),
                file + " of the stopped and resumed run differs from the uninterrupted run's");
        }
    }

    @Test
    void shouldTakeASavepointDirectoryWithoutAStopAfterAndRunToTheEndWhenNoSignalComes() throws IOException
    {
        final Path savepoints = dir.resolve("unused");
        final Captured run = Captured.run("run", "lb", "--generate", "packets=3000", "--runtime", "flink", "--parallelism", "2",
            "--no-progress", "--savepoint-dir", savepoints.toString(), "--records", dir.resolve("records.txt").toString());
        assertEquals(0, run.status(), run.out() + run.err());
        assertTrue(run.out().contains("packets in           3,000"), run.out());
        assertEquals(3000, text(dir.resolve("records.txt")).lines().count());
        final Captured again = Captured.run("run", "lb", "--generate", "packets=3000", "--runtime", "flink", "--from-savepoint",
            savepoints.toString());
        assertEquals(Failures.BAD_INPUT, again.status(), again.out() + again.err());
        assertTrue(again.err().contains("has run to its end already: nothing is left to resume"), again.err());
        assertFalse(Files.exists(savepoints.resolve("stop.properties")));
    }

    private static boolean hasFiles(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return false;
        }
        final List<Path> parts = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory))
        {
            files.filter(f -> f.getFileName().toString().endsWith(".part")).forEach(parts::add);
        }
        return !parts.isEmpty();
    }
}
