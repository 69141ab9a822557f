package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchedulingBenchmarkTest
{
    @Test
    void shouldMeasureEveryStrategyAndTheOracleOnEveryChunkAndReportBothTables(@TempDir final Path dir) throws Exception
    {
        final Path csv = dir.resolve("s.csv");
        final Map<String, String> opts = new HashMap<>(Map.of(
            "threads", "1", "batchOps", "200", "jitWarmupBatches", "1", "warmupBatches", "2", "chunks", "3",
            "chunkBatches", "2", "phases", "lb20,aborts", "phaseBatches", "4", "phaseCycles", "2"));
        opts.put("workloads", "lb5,aborts,phases");
        opts.put("csv", csv.toString());
        final SchedulingBenchmark.Settings settings = SchedulingBenchmark.Settings.parse(opts);
        final List<String> progress = new ArrayList<>();
        final String report = SchedulingBenchmark.run(settings, progress::add);

        final List<String> lines = Files.readAllLines(csv);
        final int contestants = TpgBatchExecutor.strategyNames().size() + 1;
        final int phaseChunks = 2 * 2 * 2;
        assertEquals(1 + 2 * contestants * 3 + (contestants - 1) * phaseChunks, lines.size());
        assertTrue(lines.stream().skip(1).allMatch(l -> Long.parseLong(l.split(",")[6]) > 0), "every sample took time");
        assertTrue(lines.stream().anyMatch(l -> l.contains(",phases,adaptive-feedback,7,aborts,")), "phase of the last chunk");
        assertTrue(report.contains("| lb5 |") && report.contains("| aborts |"), report);
        assertTrue(report.contains("Phase-changing workload: lb20 → aborts"), report);
        assertTrue(report.contains("* phases adaptive-feedback: {"), report);
        assertTrue(progress.contains("lb5 done") && progress.contains("aborts done"), progress.toString());
    }

    @Test
    void shouldRejectSettingsThatCannotBeMeasuredSayingWhy()
    {
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> SchedulingBenchmark.Settings.parse(Map.of("workloads", "lb5,zipf")));
        assertTrue(unknown.getMessage().contains("unknown workload 'zipf'"), unknown.getMessage());
        final IllegalArgumentException ragged = assertThrows(IllegalArgumentException.class,
            () -> SchedulingBenchmark.Settings.parse(Map.of("phaseBatches", "30", "chunkBatches", "20")));
        assertTrue(ragged.getMessage().contains("multiple of chunkBatches"), ragged.getMessage());
        final IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
            () -> SchedulingBenchmark.Settings.parse(Map.of("chunks", "many")));
        assertTrue(notANumber.getMessage().contains("chunks must be an integer"), notANumber.getMessage());
    }

    @Test
    void shouldPairEachChunkAcrossContestants()
    {
        final InterleavedMeasurement.Samples s = new InterleavedMeasurement.Samples(
            List.of("a", "b"), new long[][] {{100, 200, 300}, {50, 400, 300}}, new long[] {10, 10, 10});
        assertEquals(20.0, s.medianNsPerOp(0));
        assertEquals(30.0, s.medianNsPerOp(1));
        final double[] ratios = s.pairedRatios(1, 0);
        assertEquals(0.5, ratios[0]);
        assertEquals(2.0, ratios[1]);
        assertEquals(1.0, ratios[2]);
        assertEquals(25.0, s.totalNsPerOp(1));
        assertEquals(1.5, InterleavedMeasurement.Samples.quantile(new double[] {2, 1}, 0.5));
    }
}
