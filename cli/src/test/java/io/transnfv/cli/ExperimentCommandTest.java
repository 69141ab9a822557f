package io.transnfv.cli;

import io.transnfv.experiments.runner.Experiment;
import io.transnfv.experiments.runner.Measurement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.transnfv.cli.TransnfvProcess.signal;
import static io.transnfv.cli.TransnfvProcess.start;
import static io.transnfv.cli.TransnfvProcess.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code experiment}'s options, refused with a fix before anything runs instead of falling back to
 * defaults; and an experiment stopped half-way, which keeps what it measured.
 */
class ExperimentCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRefuseNegativeAndUnboundedOptionsBeforeRunning()
    {
        for (final List<String> bad : List.of(List.of("--packets", "-1"), List.of("--repetitions", "-2"),
            List.of("--threads", "-3"), List.of("--threads", "5000")))
        {
            final Captured run = Captured.run("experiment", "lb-new-conn", bad.get(0), bad.get(1), "--no-progress",
                "--out", dir.toString());
            assertEquals(2, run.status(), bad + ": " + run.out());
            assertTrue(run.err().contains(bad.get(0)) && run.err().contains("fix:"), bad + ": " + run.err());
        }
        assertEquals(List.of(), List.of(dir.toFile().list()), "nothing ran, nothing was written");
    }

    @Test
    void shouldRefuseALatencyTargetThatIsNotADuration()
    {
        final Captured run = Captured.run("experiment", "lb-new-conn", "--latency-target", "soon", "--no-progress", "--out",
            dir.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("--latency-target soon: not a positive duration.") && run.err().contains("fix:"), run.err());
    }

    @Test
    void shouldSuggestTheClosestExperimentName()
    {
        final Captured run = Captured.run("experiment", "treads", "--no-progress", "--out", dir.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("did you mean 'threads'?") && run.err().contains("fix:"), run.err());
    }

    @Test
    void shouldRefuseAResultsDirectoryThatIsAFile() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("results"), "x");
        final Captured run = Captured.run("experiment", "batch", "--quick", "--no-progress", "--out", file.toString());
        assertEquals(2, run.status());
        assertTrue(run.err().contains("is a file; the results go into a directory") && run.err().contains("fix:"), run.err());
    }

    @Test
    void shouldNameTheServerPoolsTheExperimentUses()
    {
        final String help = Captured.run("experiment", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("7,200 / 72,000 / 64 servers"), help);
        assertFalse(help.contains("65,535"), help);
        assertEquals(72_000, Experiment.SERVER_POOLS[1], "the help names the pools the experiment runs");
    }

    @Test
    @Timeout(300)
    void shouldKeepEveryFinishedPointAndSummariseThemWhenInterrupted() throws Exception
    {
        final Path results = dir.resolve("results");
        // long enough that the interrupt comes well before the end: 60 points of 50,000 packets
        final Process process = start(dir, List.of("experiment", "lb-new-conn", "--quick", "--packets", "50000",
            "--repetitions", "1", "--threads", "2", "--no-progress", "--out", results.toString()));
        final Path csv = awaitDataCsv(process, results);
        while (rows(csv).isEmpty())
        {
            assertTrue(process.isAlive(), () -> "the experiment ended before a point finished: " + text(dir.resolve("stderr")));
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        final int rowsBeforeSignal = rows(csv).size();
        signal(process, "INT");
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the experiment did not stop on SIGINT");
        final String err = text(dir.resolve("stderr"));
        assertEquals(130, process.exitValue(), err);

        final List<String> rows = rows(csv);
        final Matcher summarised = Pattern.compile("\\*\\*Interrupted\\.\\*\\* Stopped by a signal after (\\d+) of (\\d+) points")
            .matcher(Files.readString(csv.resolveSibling("summary.md")));
        assertTrue(summarised.find(), "the summary says the experiment was interrupted: " + err);
        final int points = Integer.parseInt(summarised.group(1));
        assertTrue(points >= rowsBeforeSignal && points <= rows.size(),
            "the summary holds the points data.csv had: " + points + " of " + rows.size() + " rows");
        assertTrue(points < Integer.parseInt(summarised.group(2)), "stopped before the end");
        final int columns = Measurement.CSV_HEADER.split(",").length;
        for (final String row : rows)
        {
            assertEquals(columns, row.split(",", -1).length, "a whole row: " + row);
        }
        assertTrue(err.contains("experiment: stopped after " + points + " of "), err);
    }

    /** Waits for the experiment's {@code data.csv}, which it creates before the first point runs. */
    private static Path awaitDataCsv(final Process process, final Path results) throws Exception
    {
        while (true)
        {
            if (Files.isDirectory(results))
            {
                try (Stream<Path> files = Files.walk(results))
                {
                    final Path csv = files.filter(f -> f.getFileName().toString().equals("data.csv")).findFirst().orElse(null);
                    if (csv != null)
                    {
                        return csv;
                    }
                }
            }
            assertTrue(process.isAlive(), "the experiment ended before it started");
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    /** @return {@code csv}'s complete rows after the header. */
    private static List<String> rows(final Path csv)
    {
        final String text = text(csv);
        final List<String> lines = text.lines().toList();
        final List<String> complete = text.endsWith("\n") ? lines : lines.subList(0, Math.max(0, lines.size() - 1));
        return complete.isEmpty() ? List.of() : complete.subList(1, complete.size());
    }
}
