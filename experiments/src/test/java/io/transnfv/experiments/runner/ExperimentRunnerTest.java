package io.transnfv.experiments.runner;

import io.transnfv.experiments.report.ResultWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentRunnerTest
{
    static
    {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void shouldWriteTheCsvThePlotsAndTheSummaryInQuickModeOnATinyWorkload(@TempDir final Path out) throws Exception
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.LB_NEW_CONN, true, 2, 1, 2_000, out);
        final ExperimentRunner runner = new ExperimentRunner(settings);
        final ExperimentResult result = runner.run();

        final Path dir = result.directory();
        assertTrue(dir.startsWith(out.resolve("lb-new-conn")));
        final List<String> csv = Files.readAllLines(dir.resolve(ResultWriter.CSV));
        assertEquals(Measurement.CSV_HEADER, csv.get(0));
        final int expectedRows = Experiment.SERVER_POOLS.length * Experiment.NEW_CONN_RATIOS.length
            * ExecutorKind.values().length;
        assertEquals(expectedRows, csv.size() - 1);
        final List<String> columns = List.of(Measurement.CSV_HEADER.split(","));
        for (final String row : csv.subList(1, csv.size()))
        {
            final String[] cells = row.split(",", -1);
            assertEquals(columns.size(), cells.length, row);
            assertTrue(Double.parseDouble(cells[columns.indexOf("load_before")]) >= 0, "load average recorded: " + row);
            assertTrue(Double.parseDouble(cells[columns.indexOf("load_after")]) >= 0, "load average recorded: " + row);
            assertTrue(Set.of("true", "false").contains(cells[columns.indexOf("busy")]), row);
            if (cells[columns.indexOf("executor")].equals("transnfv"))
            {
                assertTrue(Double.parseDouble(cells[columns.indexOf("execute_ns_per_packet")]) > 0,
                    "the engine's own time breakdown is recorded: " + row);
                assertTrue(Double.parseDouble(cells[columns.indexOf("build_ns_per_packet")]) > 0,
                    "the engine's own time breakdown is recorded: " + row);
            }
        }
        for (final int servers : Experiment.SERVER_POOLS)
        {
            for (final String plot : List.of("throughput", "latency-p99", "breakdown", "shares"))
            {
                final Path png = dir.resolve(plot + "-servers-" + servers + ".png");
                assertTrue(Files.size(png) > 1_000, png + " is a real image");
            }
        }
        final String summary = Files.readString(dir.resolve(ResultWriter.SUMMARY));
        assertTrue(summary.contains("ours/chc-style"));
        assertTrue(summary.contains("cores: "));
        assertEquals(runner.plannedPackets(), runner.packetsDone());
    }

    @Test
    void shouldRejectAnUnknownExperimentNamingTheKnownOnes()
    {
        final IllegalArgumentException e = assertThrows(
            IllegalArgumentException.class, () -> Experiment.ofLabel("lb-new-connections"));
        assertTrue(e.getMessage().contains("lb-new-conn"));
    }

    @Test
    void shouldTakeTheMedianOfTheMiddleTwoForAnEvenCount()
    {
        assertEquals(2.5, ExperimentRunner.median(new double[] {4, 1, 2, 3}));
        assertEquals(3, ExperimentRunner.median(new double[] {5, 3, 1}));
    }
}
