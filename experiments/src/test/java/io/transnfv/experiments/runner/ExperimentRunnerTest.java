package io.transnfv.experiments.runner;

import io.transnfv.experiments.report.ResultWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

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
    void shouldKeepTheRowOfEveryFinishedPointWhenAnExperimentStopsInsideATrafficGroup(@TempDir final Path out)
        throws Exception
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.LB_NEW_CONN, true, 2, 1, 2_000, out);
        final int stopAfter = ExecutorKind.values().length - 2;
        final List<Measurement> finished = new ArrayList<>();
        final AtomicReference<ExperimentRunner> running = new AtomicReference<>();
        final ExperimentRunner runner = new ExperimentRunner(settings, row ->
        {
            finished.add(row);
            if (finished.size() == stopAfter)
            {
                // what the command does on a signal, then the stop itself
                running.get().reportInterrupted("Stopped by the test");
                throw new IOException("interrupted after " + stopAfter + " points");
            }
        });
        running.set(runner);
        assertTrue(stopAfter < runner.points().stream().filter(p -> p.trafficKey().equals(runner.points().get(0).trafficKey()))
            .count(), "the stop comes before the first traffic group is done");
        assertThrows(IOException.class, runner::run);

        final List<String> csv = Files.readAllLines(runner.directory().resolve(ResultWriter.CSV));
        assertEquals(Measurement.CSV_HEADER, csv.get(0));
        assertEquals(finished.stream().map(Measurement::toCsv).toList(), csv.subList(1, csv.size()),
            "every finished point's row, and only those");
        final String summary = Files.readString(runner.directory().resolve(ResultWriter.SUMMARY));
        assertTrue(summary.contains("**Interrupted.** Stopped by the test after " + stopAfter + " of "
            + runner.points().size() + " points"), summary);
        for (final Measurement row : finished)
        {
            assertTrue(summary.contains(String.format(Locale.ROOT, "%,.0f", row.ppsMedian())), "the summary holds " + row);
        }
        assertEquals(-1, runner.reportInterrupted("again"), "one report per experiment");
    }

    @Test
    void shouldRunTheServerLoadsSerializableAndStaleReadOnTheSameTrafficAndCountWhatTheStaleLoadsCost(@TempDir final Path out)
        throws Exception
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.STALE_READS, true, 1, 1, 3_000, out);
        final ExperimentRunner runner = new ExperimentRunner(settings);
        assertEquals(runner.points().size() / 2, runner.points().stream().map(Point::trafficKey).distinct().count(),
            "each serializable point shares its traffic and oracle with its stale-reads point, so their runs interleave");
        final ExperimentResult result = runner.run();
        assertEquals(8, result.measurements().size());
        long staleDivergences = 0;
        for (final Measurement m : result.measurements())
        {
            assertEquals(ExecutorKind.TRANSNFV, m.point().executor());
            assertTrue(m.ppsMedian() > 0, m.toCsv());
            if (m.point().chain().equals("lb"))
            {
                assertEquals(0, m.recordDivergences(), "serializable loads equal the oracle: " + m.toCsv());
                assertEquals(0, m.stateDivergences(), m.toCsv());
            }
            else
            {
                assertEquals(Experiment.LB_STALE, m.point().chain());
                staleDivergences += m.recordDivergences();
            }
        }
        assertTrue(staleDivergences > 0, "choices by the batch start's loads differ from the oracle's somewhere");
        final Point stale = runner.points().stream().filter(p -> p.chain().equals(Experiment.LB_STALE)).findFirst().orElseThrow();
        assertEquals(java.util.Map.of("active", 1), Experiment.chainOf(stale, settings).vnfs().get(0).staleReads());
        final Point serializable = runner.points().stream().filter(p -> p.chain().equals("lb")).findFirst().orElseThrow();
        assertTrue(Experiment.chainOf(serializable, settings).vnfs().get(0).staleReads().isEmpty());
        final String summary = Files.readString(result.directory().resolve(ResultWriter.SUMMARY));
        assertTrue(summary.contains("## Stale reads against serializable"), summary);
        assertTrue(Files.size(result.directory().resolve("divergence-servers-64.png")) > 1_000);
    }

    @Test
    void shouldGiveEachTenantsThroughputAndLatencyWithTheNoisyOneSteppingUpAndItsLimitDroppingItsExcess(@TempDir final Path out)
        throws Exception
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.TENANTS, true, 1, 1, 12_000, out);
        final ExperimentRunner runner = new ExperimentRunner(settings);
        assertEquals(Experiment.TENANT_VARIANTS.size() * ExecutorKind.values().length, runner.points().size());
        final ExperimentResult result = runner.run();
        for (final Measurement m : result.measurements())
        {
            assertEquals(Experiment.TENANT_NAMES, m.tenants().stream().map(Measurement.TenantFigures::name).toList(), m.toCsv());
            final double steady = m.tenants().get(0).pps();
            final double third = m.tenants().get(2).pps();
            assertTrue(steady > 0 && m.tenants().get(2).p99Us() > 0, m.toString());
            assertEquals(steady, m.tenants().get(1).pps(), steady * 0.01, "the two steady tenants send alike: " + m);
            // the mix's shares in packets: 1:1:1 calm; 1:1:10 noisy, its limiter passing all it sends; limited to 2x its
            // steady neighbours' rate plus its burst (12,000 packets: 1,000 of each steady tenant's)
            final double expected = switch (m.point().chain())
            {
                case "tenants-calm" -> 1.0;
                case "tenants-noisy" -> Experiment.NOISY_FACTOR;
                default -> Experiment.NOISY_LIMIT_FACTOR + Experiment.NOISY_BURST / (12_000.0 / (2 + Experiment.NOISY_FACTOR));
            };
            assertEquals(expected, third / steady, expected * 0.1, m.point().chain() + " " + m.point().executor() + ": " + m.tenants());
            if (m.point().executor() == ExecutorKind.TRANSNFV)
            {
                assertEquals(0, m.recordDivergences() + m.stateDivergences(), "the engine equals the oracle on a chain of tenants: " + m.toCsv());
            }
        }
        final Point noisy = runner.points().stream().filter(p -> p.chain().equals("tenants-noisy")).findFirst().orElseThrow();
        assertEquals(List.of(10, 20, 30), Experiment.trafficOf(noisy, 100).streams().stream().map(g -> g.vlan()).toList());
        final List<String> csv = Files.readAllLines(result.directory().resolve(ResultWriter.TENANTS_CSV));
        assertEquals(1 + 3 * result.measurements().size(), csv.size(), csv::toString);
        final String summary = Files.readString(result.directory().resolve(ResultWriter.SUMMARY));
        assertTrue(summary.contains("## Tenants") && summary.contains("| noisy-limited | transnfv |"), summary);
        assertTrue(Files.size(result.directory().resolve("steady-p99.png")) > 1_000);
        assertTrue(Files.size(result.directory().resolve("steady-throughput.png")) > 1_000);
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
            final double p99 = Double.parseDouble(cells[columns.indexOf("p99_us")]);
            assertTrue(Double.parseDouble(cells[columns.indexOf("p99_min_us")]) <= p99
                && p99 <= Double.parseDouble(cells[columns.indexOf("p99_max_us")]), "the p99 band holds its median: " + row);
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
    void shouldMeasureCapacityThenLatencyAtEachOfferedLoadForEveryExecutor(@TempDir final Path out) throws Exception
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.LATENCY, true, 2, 1, 2_000, out)
            .withOfferedLoadPercents(25, 90);
        final ExperimentRunner runner = new ExperimentRunner(settings);
        final ExperimentResult result = runner.run();

        final Path dir = result.directory();
        assertTrue(dir.startsWith(out.resolve("latency")));
        final List<String> csv = Files.readAllLines(dir.resolve(ResultWriter.CSV));
        assertEquals(Measurement.CSV_HEADER, csv.get(0));
        final int executors = ExecutorKind.values().length;
        assertEquals(executors * (1 + 2), csv.size() - 1, "a capacity row and two offered loads per executor");
        final List<String> columns = List.of(Measurement.CSV_HEADER.split(","));
        double capacityPps = Double.NaN;
        final Set<String> pacedPoints = new HashSet<>();
        for (final String row : csv.subList(1, csv.size()))
        {
            final String[] cells = row.split(",", -1);
            assertEquals(columns.size(), cells.length, row);
            final String executor = cells[columns.indexOf("executor")];
            final double achieved = Double.parseDouble(cells[columns.indexOf("achieved_pps")]);
            final double dropRate = Double.parseDouble(cells[columns.indexOf("drop_rate")]);
            assertTrue(achieved > 0, row);
            assertTrue(dropRate >= 0 && dropRate <= 1, "drop rate is a share: " + row);
            assertTrue(Double.parseDouble(cells[columns.indexOf("p50_us")]) > 0, row);
            assertTrue(Double.parseDouble(cells[columns.indexOf("p99_us")]) >= Double.parseDouble(cells[columns.indexOf("p50_us")]), row);
            assertTrue(Double.parseDouble(cells[columns.indexOf("load_before")]) >= 0, row);
            assertTrue(Set.of("true", "false").contains(cells[columns.indexOf("busy")]), row);
            final String offeredLoad = cells[columns.indexOf("offered_load")];
            if (offeredLoad.isEmpty())
            {
                assertEquals(0, dropRate, "an unpaced run drops nothing: " + row);
                assertEquals("", cells[columns.indexOf("offered_pps")], row);
                if (executor.equals("transnfv"))
                {
                    capacityPps = achieved;
                }
                continue;
            }
            final double offeredPps = Double.parseDouble(cells[columns.indexOf("offered_pps")]);
            assertEquals(capacityPps * Double.parseDouble(offeredLoad), offeredPps, offeredPps * 1e-3,
                "offered load is a share of the engine's capacity: " + row);
            assertTrue(achieved <= offeredPps * 1.02, "an executor cannot take packets faster than they arrive: " + row);
            pacedPoints.add(executor + "@" + offeredLoad);
        }
        assertTrue(capacityPps > 0, "the engine's capacity row comes first");
        assertEquals(executors * 2, pacedPoints.size(), "every executor at every offered load: " + pacedPoints);
        for (final String plot : List.of("latency-p50", "latency-p99", "latency-p999", "drop-rate"))
        {
            final Path png = dir.resolve(plot + ".png");
            assertTrue(Files.size(png) > 1_000, png + " is a real image");
        }
        final String summary = Files.readString(dir.resolve(ResultWriter.SUMMARY));
        assertTrue(summary.contains("## Latency under load"), summary);
        assertTrue(summary.contains("transnfv: "), "the reading names each executor: " + summary);
        assertEquals(runner.plannedPackets(), runner.packetsDone());
    }

    @Test
    void shouldGiveTheEngineAndOnlyTheEngineItsLatencyTarget(@TempDir final Path out)
    {
        final ExperimentSettings settings = ExperimentSettings.of(Experiment.LB_NEW_CONN, true, 2, 1, 2_000, out);
        final Point point = new ExperimentRunner(settings).points().get(0);
        assertEquals(0, Experiment.chainOf(point, settings).settings().latencyTargetNs());
        assertEquals(200_000, Experiment.chainOf(point, settings.withEngineLatencyTarget(200_000)).settings().latencyTargetNs());
        assertThrows(IllegalArgumentException.class, () -> settings.withEngineLatencyTarget(-1));
    }

    @Test
    void shouldRejectAnUnknownExperimentNamingTheKnownOnes()
    {
        final IllegalArgumentException e = assertThrows(
            IllegalArgumentException.class, () -> Experiment.ofLabel("lb-new-connections"));
        assertTrue(e.getMessage().contains("lb-new-conn"));
        assertTrue(e.getMessage().contains("latency"));
    }

    @Test
    void shouldTakeTheMedianOfTheMiddleTwoForAnEvenCount()
    {
        assertEquals(2.5, ExperimentRunner.median(new double[] {4, 1, 2, 3}));
        assertEquals(3, ExperimentRunner.median(new double[] {5, 3, 1}));
    }
}
