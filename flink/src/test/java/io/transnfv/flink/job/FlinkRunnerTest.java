package io.transnfv.flink.job;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlinkRunnerTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGiveEachSubtaskTheOraclesOutputsOverItsOwnPackets() throws IOException
    {
        final ChainSource chain = Chains.bundled("lb", 20_000, 7);
        final FlinkRunResult result = FlinkRunner.run(chain, EngineFactory.tpg(), dir, FlinkSettings.of(2));

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

        // the checker's negative control: the same outputs judged against other traffic differ
        final ChainSource other = Chains.bundled("lb", 20_000, 8);
        for (final FlinkEquivalence.Check check : FlinkEquivalence.check(other.load(), result))
        {
            assertFalse(check.equivalent(), check.what() + " judged against another seed's traffic");
        }
    }
}
