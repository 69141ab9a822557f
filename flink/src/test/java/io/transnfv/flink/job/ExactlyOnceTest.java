package io.transnfv.flink.job;

import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.operator.FailurePlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failures injected into the MiniCluster run (an exception in the k-th batch of subtask i, in a
 * snapshot, in a restore): after Flink's restarts the committed records, forwarded frames,
 * counters and final state of every subtask equal those of the run without failures.
 */
class ExactlyOnceTest
{
    private static final int PARALLELISM = 2;
    private static final int BATCH_PACKETS = 200;
    private static final long PACKETS = 24_000;
    private static final ChainSource CHAIN = Chains.bundled("lb", PACKETS, 11);

    @TempDir
    static Path dir;

    private static FlinkRunResult clean;
    private static byte[] cleanPcap;

    @BeforeAll
    static void runWithoutFailures() throws IOException
    {
        clean = run("clean", FailurePlan.NONE);
        cleanPcap = pcap(clean, "clean");
        assertEquals(0, clean.restarts());
    }

    @Test
    void shouldCommitTheFailureFreeOutputsAndStateAfterBatchFailuresAtSeededPoints() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(20261124L);
        final long batchesPerSubtask = PACKETS / BATCH_PACKETS;
        int points = 0;
        for (int run = 0; run < 5; run++)
        {
            final List<FailurePlan.Point> plan = new ArrayList<>();
            long at = 0;
            for (int p = 0; p < 4; p++)
            {
                // increasing points, so that each lands in the run after the previous restart's restore
                at = Math.min(batchesPerSubtask - 2, at + 1 + random.nextLong(batchesPerSubtask / 5));
                plan.add(new FailurePlan.Point(FailurePlan.Where.BATCH, random.nextInt(PARALLELISM), at));
            }
            points += plan.size();
            assertSameAsClean(run("batch-" + run, new FailurePlan(plan)), plan.size(), plan.toString());
        }
        assertTrue(points >= 20);
        // a task cancelled at a failure stops its engine: the engine's own final checkpoint must not be written anywhere
        try (var files = Files.list(Path.of("").toAbsolutePath()))
        {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("ckpt-")), "checkpoint files in the working directory");
        }
    }

    @Test
    void shouldCommitTheFailureFreeOutputsAfterFailuresInSnapshotsAndRestores() throws IOException
    {
        final List<FailurePlan.Point> plan = List.of(
            new FailurePlan.Point(FailurePlan.Where.BATCH, 0, 30),
            new FailurePlan.Point(FailurePlan.Where.RESTORE, 1, 0),
            new FailurePlan.Point(FailurePlan.Where.BATCH, 1, 70),
            new FailurePlan.Point(FailurePlan.Where.RESTORE, 0, 0));
        assertSameAsClean(run("restore", new FailurePlan(plan)), plan.size(), plan.toString());
        // a failed snapshot declines its checkpoint: what it staged must be committed by the next one, not lost
        final List<FailurePlan.Point> snapshots = List.of(new FailurePlan.Point(FailurePlan.Where.SNAPSHOT, 1, 20));
        final FlinkRunResult declined = run("snapshot", new FailurePlan(snapshots));
        assertTrue(declined.checkpointsFailed() >= 1, "the injected snapshot failure declined a checkpoint");
        assertSameAsClean(declined, declined.restarts(), snapshots.toString());
    }

    @Test
    void shouldGiveEachSubtaskTheOraclesOutputsInTheCleanRun() throws IOException
    {
        for (final FlinkEquivalence.Check check : FlinkEquivalence.check(CHAIN.load(), clean))
        {
            assertTrue(check.equivalent(), check.toString());
        }
    }

    @Test
    void shouldCommitTheFailureFreeOutputsWhenTheReaderAndTheEngineShareOneTask() throws IOException
    {
        // parallelism 1 chains the reader and the engine: a failure restarts both, from the same checkpoint
        final FlinkRunResult one = FlinkRunner.run(CHAIN, EngineFactory.tpg(), dir.resolve("one-clean"),
            new FlinkSettings(1, BATCH_PACKETS, 10, 1, FailurePlan.NONE));
        for (final FlinkEquivalence.Check check : FlinkEquivalence.check(CHAIN.load(), one))
        {
            assertTrue(check.equivalent(), check.toString());
        }
        final List<FailurePlan.Point> plan = List.of(
            new FailurePlan.Point(FailurePlan.Where.BATCH, 0, 17),
            new FailurePlan.Point(FailurePlan.Where.RESTORE, 0, 0),
            new FailurePlan.Point(FailurePlan.Where.BATCH, 0, 64),
            new FailurePlan.Point(FailurePlan.Where.BATCH, 0, 101));
        final FailurePlan failures = new FailurePlan(plan);
        final FlinkRunResult failed = FlinkRunner.run(CHAIN, EngineFactory.tpg(), dir.resolve("one-failed"),
            new FlinkSettings(1, BATCH_PACKETS, 10, plan.size() + 1, failures));

        assertEquals(plan.size(), failed.restarts(), "every injected failure fired once: " + plan);
        assertEquals(one.records(0), failed.records(0), "records (lost or duplicated) after " + plan);
        assertEquals(one.stateDump(0), failed.stateDump(0), "final state after " + plan);
        assertArrayEquals(one.counters(0), failed.counters(0), "counters after " + plan);
        assertArrayEquals(one.vnfCounters(0), failed.vnfCounters(0), "VNF counters after " + plan);
        assertTrue(Arrays.equals(pcap(one, "one-clean"), pcap(failed, "one-failed")), "forwarded frames after " + plan);
    }

    private static void assertSameAsClean(final FlinkRunResult failed, final int restarts, final String plan) throws IOException
    {
        assertEquals(restarts, failed.restarts(), "every injected failure fired once: " + plan);
        for (int i = 0; i < PARALLELISM; i++)
        {
            assertEquals(clean.records(i), failed.records(i), "records of subtask " + i + " (lost or duplicated) after " + plan);
            assertEquals(clean.stateDump(i), failed.stateDump(i), "final state of subtask " + i + " after " + plan);
            assertArrayEquals(clean.counters(i), failed.counters(i), "counters of subtask " + i + " after " + plan);
            assertArrayEquals(clean.vnfCounters(i), failed.vnfCounters(i), "VNF counters of subtask " + i + " after " + plan);
        }
        assertTrue(Arrays.equals(cleanPcap, pcap(failed, "pcap-" + System.nanoTime())), "forwarded frames after " + plan);
    }

    private static FlinkRunResult run(final String name, final FailurePlan failures) throws IOException
    {
        return FlinkRunner.run(CHAIN, EngineFactory.tpg(), dir.resolve(name),
            new FlinkSettings(PARALLELISM, BATCH_PACKETS, 10, failures.points().size() + 1, failures));
    }

    private static byte[] pcap(final FlinkRunResult result, final String name) throws IOException
    {
        final Path file = dir.resolve(name + ".pcap");
        result.writePcap(file);
        return Files.readAllBytes(file);
    }
}
