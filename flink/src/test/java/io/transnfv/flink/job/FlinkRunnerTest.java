package io.transnfv.flink.job;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.operator.ResumeMarks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlinkRunnerTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGiveEachSubtaskTheOraclesOutputsOverItsOwnPackets() throws IOException
    {
        final ChainSource chain = Chains.bundled("lb", 20_000, 7);
        final long beforeMicros = ResumeMarks.nowMicros();
        final FlinkRunResult result = FlinkRunner.run(chain, EngineFactory.tpg(), dir, FlinkSettings.of(2));
        final long afterMicros = ResumeMarks.nowMicros();

        assertEquals(Partitioning.Routing.HOST_PAIR, result.partitioning().routing());
        assertEquals(20_000, result.packets(0) + result.packets(1));
        assertTrue(result.packets(0) > 5_000 && result.packets(1) > 5_000, "both subtasks get a share of the flows");
        final List<FlinkEquivalence.Check> checks = FlinkEquivalence.check(chain.load(), result);
        assertEquals(2, checks.size(), "per-subtask load tables: no union check");
        for (final FlinkEquivalence.Check check : checks)
        {
            assertTrue(check.equivalent(), check.toString());
        }
        assertEquals(20_000, result.stats().packetsFinished());
        final long timed = result.stats().latencyNs().getTotalCount();
        assertTrue(timed > 0 && timed <= 20_000, "latencies of both subtasks' packets, sampled as standalone: " + timed);
        assertTrue(result.stats().latencyNs().getValueAtPercentile(50) > 0, "a packet takes time");

        // the processing time lies inside the run, after the cluster's start: the whole-run rate's start-up is left out
        final FlinkRunResult.Processing processing = result.processing();
        assertNotNull(processing, "the job read and emitted packets");
        assertEquals(20_000, processing.packets());
        assertTrue(processing.micros() > 0 && processing.micros() < result.wallNs() / 1_000 && processing.micros() < afterMicros - beforeMicros,
            "processing " + processing.micros() + " us within the run's " + result.wallNs() / 1_000 + " us");
        assertTrue(result.facts().stream().anyMatch(f -> f.startsWith("flink rate           whole run ") && f.contains("; processing ")),
            () -> String.join("\n", result.facts()));

        // Flink's checkpoint figures: the final checkpoint at the end of the input completes at least
        final FlinkCheckpoints checkpoints = result.checkpoints();
        assertTrue(checkpoints.completed() >= 1 && checkpoints.measured(), checkpoints.toString());
        assertTrue(checkpoints.p50DurationMs() >= 0 && checkpoints.p50DurationMs() <= checkpoints.maxDurationMs(), checkpoints.toString());
        assertTrue(checkpoints.latestStateBytes() > 0 && checkpoints.latestStateBytes() <= checkpoints.maxStateBytes(),
            "the engines' snapshots take bytes: " + checkpoints);
        assertEquals(checkpoints.completed(), result.report().checkpoints().completed());
        assertEquals(checkpoints.maxStateBytes(), result.report().checkpoints().maxStateBytes());
        assertEquals(20_000, result.report().processing().packets());

        // the checker's negative control: the same outputs judged against other traffic differ
        final ChainSource other = Chains.bundled("lb", 20_000, 8);
        for (final FlinkEquivalence.Check check : FlinkEquivalence.check(other.load(), result))
        {
            assertFalse(check.equivalent(), check.what() + " judged against another seed's traffic");
        }
    }
}
