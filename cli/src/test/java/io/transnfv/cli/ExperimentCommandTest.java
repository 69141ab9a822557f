package io.transnfv.cli;

import io.transnfv.experiments.runner.Experiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code experiment}'s options, refused with a fix before anything runs instead of falling back to defaults. */
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
}
