package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    void shouldPoolTheChunksOfForkedJvmsIntoOneReport(@TempDir final Path dir) throws Exception
    {
        final Path csv = dir.resolve("forked.csv");
        final Map<String, String> opts = new HashMap<>(Map.of(
            "threads", "2", "batchOps", "200", "jitWarmupBatches", "1", "warmupBatches", "1", "chunks", "2",
            "chunkBatches", "1", "phases", "monitor,aborts", "phaseBatches", "2", "phaseCycles", "1", "forks", "2"));
        opts.put("workloads", "monitor,phases");
        opts.put("csv", csv.toString());
        final List<String> progress = new ArrayList<>();
        final String report = SchedulingBenchmark.run(SchedulingBenchmark.Settings.parse(opts), progress::add);

        assertTrue(progress.contains("fork 1/2: monitor done") && progress.contains("fork 2/2: monitor done"), progress.toString());
        final MeasuredSamples pooled = MeasuredSamples.read(csv);
        assertEquals(4, pooled.steady().get("monitor").ops().length, "2 chunks from each of 2 JVMs");
        assertEquals(List.of("monitor", "monitor", "aborts", "aborts", "monitor", "monitor", "aborts", "aborts"),
            List.of(pooled.phaseOfChunk()));
        final long adaptiveBatches = pooled.decisions().get("monitor adaptive").values().stream().mapToLong(Long::longValue).sum();
        assertEquals(2 * (1 + 2 * 1), adaptiveBatches, "warm-up and chunks of both JVMs");
        assertTrue(report.contains("forks=2") && report.contains("Chunks of 2 JVMs pooled"), report);
        assertTrue(Files.exists(dir.resolve("forked-fork1.csv")) && Files.exists(dir.resolve("forked-fork2-decisions.csv")));
    }

    @Test
    void shouldWriteItsSamplesUnderTheIgnoredResultsFolderByDefault()
    {
        assertEquals(Path.of("results", "scheduling", "scheduling-t1.csv"),
            SchedulingBenchmark.Settings.parse(Map.of("threads", "1")).csv());
    }

    @Test
    void shouldReadBackWhatItWroteAndPoolRunsInOrder(@TempDir final Path dir) throws Exception
    {
        final MeasuredSamples a = new MeasuredSamples(2, 100);
        a.steady().put("lb5", new InterleavedMeasurement.Samples(List.of("x", "y"), new long[][] {{1, 2}, {3, 4}}, new long[] {10, 20}));
        a.phases(new InterleavedMeasurement.Samples(List.of("x", "y"), new long[][] {{5}, {6}}, new long[] {30}), new String[] {"lb20"});
        a.decisions().put("lb5 adaptive", new LinkedHashMap<>(Map.of("bfs/op/lazy", 7L)));
        final Path csv = dir.resolve("results").resolve("scheduling").resolve("a.csv");
        a.write(csv);
        final MeasuredSamples back = MeasuredSamples.read(csv);
        assertEquals(List.of("x", "y"), back.steady().get("lb5").names());
        assertEquals(4, back.steady().get("lb5").ns()[1][1]);
        assertEquals(20, back.steady().get("lb5").ops()[1]);
        assertEquals(6, back.phases().ns()[1][0]);
        assertEquals(Map.of("bfs/op/lazy", 7L), back.decisions().get("lb5 adaptive"));

        final MeasuredSamples pooled = MeasuredSamples.pool(List.of(a, back));
        assertEquals(2, pooled.forks());
        final long[] x = pooled.steady().get("lb5").ns()[0];
        assertEquals(List.of(1L, 2L, 1L, 2L), Arrays.stream(x).boxed().toList());
        assertEquals(List.of("lb20", "lb20"), List.of(pooled.phaseOfChunk()));
        assertEquals(14L, pooled.decisions().get("lb5 adaptive").get("bfs/op/lazy"));
        pooled.write(csv);
        assertTrue(Files.readAllLines(csv).get(4).endsWith(",2"), "the second run's chunks are marked fork 2");

        final MeasuredSamples other = new MeasuredSamples(2, 100);
        other.steady().put("lb5", new InterleavedMeasurement.Samples(List.of("x", "z"), new long[][] {{1}, {3}}, new long[] {10}));
        assertThrows(IllegalArgumentException.class, () -> MeasuredSamples.pool(List.of(a, other)));
        Files.writeString(csv, "not,a,sample,file\n");
        assertThrows(IOException.class, () -> MeasuredSamples.read(csv));
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
        final IllegalArgumentException noForks = assertThrows(IllegalArgumentException.class,
            () -> SchedulingBenchmark.Settings.parse(Map.of("forks", "0")));
        assertTrue(noForks.getMessage().contains("forks must be >= 1"), noForks.getMessage());
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
