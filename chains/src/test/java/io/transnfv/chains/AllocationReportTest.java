package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The run reports what its workers allocated per packet and how much of it was the state
 * tables growing; the rest is garbage, and the engine makes next to none: a few hundred bytes
 * per batch while the JIT warms up and the graph's arrays reach their size, nothing per
 * packet after (a counted bound, not a timing).
 */
class AllocationReportTest
{
    private static final int PACKETS = 400_000;
    /**
     * Garbage allowed per packet over the whole run, cold JVM included (measured 0.9 with one
     * worker, 1.9 with two: the graph's arrays growing, code not yet compiled). One object per
     * packet is at least 16 B, so the bound still catches any per-packet allocation.
     */
    private static final double MAX_GARBAGE_BYTES_PER_PACKET = 4.0;

    @ParameterizedTest(name = "threads={0}")
    @ValueSource(ints = {1, 2})
    void shouldReportStateGrowthAndAlmostNoGarbagePerPacket(final int threads) throws Exception
    {
        final ChainSpec bundled = new ChainLoader().loadBundled("lb");
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.generate(GeneratorConfig.parse("packets=" + PACKETS + ",flows=50000,seed=3")))
            .withExecutorThreads(threads));
        final SchedulerReport report;
        try (BatchedChainExecutor engine = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "adaptive");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            engine.run(source, null);
            report = engine.executorSummary().orElseThrow();
        }
        double allocated = 0;
        for (final SchedulerReport.ThreadReport thread : report.threads())
        {
            assertTrue(thread.allocatedBytesPerPacket() >= 0, "the JVM counts allocation per thread: " + thread);
            allocated += thread.allocatedBytesPerPacket();
        }
        final double growth = report.stateGrowthBytesPerPacket();
        assertTrue(growth > 0, "50,000 new flows grow the state tables: " + growth);
        assertTrue(growth <= allocated + 0.01, "growth " + growth + " is part of the threads' allocation " + allocated);
        assertTrue(allocated - growth < MAX_GARBAGE_BYTES_PER_PACKET,
            "garbage per packet: " + (allocated - growth) + " (allocated " + allocated + ", state growth " + growth + ")");
    }
}
