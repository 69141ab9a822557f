package io.transnfv.experiments.baselines;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.experiments.runner.ExecutorKind;
import io.transnfv.experiments.runner.OracleReference;
import io.transnfv.experiments.runner.TrafficCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BaselineExecutorsTest
{
    private static final int PACKETS = 20_000;
    private static final int KEY_CAPACITY = 1 << 16;

    private static ChainSpec lb(final int threads)
    {
        final ChainSpec chain = new ChainLoader().loadBundled("lb");
        return chain.withSettings(chain.settings().withExecutorThreads(threads).withPunctuation(256, 1_000_000L));
    }

    private static TrafficCapture traffic(final double newConnRatio)
    {
        return TrafficCapture.generate(GeneratorConfig.parse(
            "packets=" + PACKETS + ",flows=2000,new_conn_ratio=" + newConnRatio + ",tcp_ratio=1.0,max_size=128,seed=7"));
    }

    @ParameterizedTest
    @EnumSource(ExecutorKind.class)
    void shouldRunTheLoadBalancerOverEveryPacketWithoutError(final ExecutorKind kind) throws Exception
    {
        final TrafficCapture capture = traffic(0.2);
        try (ChainExecutor executor = kind.create(lb(2), 2, KEY_CAPACITY).executor();
             PacketSource source = capture.replay())
        {
            final RunStats stats = executor.run(source, null);
            assertEquals(PACKETS, stats.packetsFinished());
            assertEquals(PACKETS, stats.visits(0));
            assertTrue(executor.dumpState().contains("lb.active"), "the load table has entries");
        }
    }

    @Test
    void shouldMatchTheOracleExactlyWhenTheBaselineIsSerial() throws Exception
    {
        final TrafficCapture capture = traffic(0.4);
        final ChainSpec chain = lb(1);
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, capture::replay,
            spec -> ExecutorKind.SERIAL.create(spec, 1, KEY_CAPACITY).executor());
        assertTrue(result.equivalent(), () -> "diverged at " + result.divergingSequence() + ": " + result.stateDifference());
        try (ChainExecutor serial = ExecutorKind.SERIAL.create(chain, 1, KEY_CAPACITY).executor())
        {
            assertTrue(OracleReference.of(chain, capture).score(serial, capture).none());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"SERIAL", "CHC_STYLE", "NO_LOCK"})
    void shouldRefuseWhatTheOracleRefusesWhenATableIsFull(final ExecutorKind kind) throws Exception
    {
        // the connections fill at the first capacity checks: a baseline must check at the same packets
        final ChainSpec chain = new ChainLoader().parse("""
            name: bounded
            vnfs:
              - name: lb
                type: load-balancer
                params: { servers: 64, candidates: 3 }
                tables: { connections: { capacity: 300 } }
            settings:
              executor_threads: 1
              punctuation: { transactions: 256, interval: 1ms }
            """, "bounded.yaml");
        final TrafficCapture capture = traffic(0.4);
        try (ChainExecutor executor = kind.create(chain, 1, KEY_CAPACITY).executor())
        {
            final OracleReference.Divergences divergences = OracleReference.of(chain, capture).score(executor, capture);
            assertEquals(new OracleReference.Divergences(0, 0), divergences);
        }
        try (ChainExecutor executor = kind.create(chain, 1, KEY_CAPACITY).executor(); PacketSource source = capture.replay())
        {
            final RunStats stats = executor.run(source, null);
            assertTrue(stats.drops(0, executor.runtime().instance(0).stateFullReason()) > 0, "the table fills and refuses");
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"CHC_STYLE", "NO_LOCK", "PARTITIONED"})
    void shouldMatchTheOracleWhenOneWorkerRunsAParallelBaseline(final ExecutorKind kind) throws Exception
    {
        // one worker sees every packet in arrival order: with no concurrency each baseline is the oracle
        final TrafficCapture capture = traffic(0.4);
        final ChainSpec chain = lb(1);
        try (ChainExecutor executor = kind.create(chain, 1, KEY_CAPACITY).executor())
        {
            final OracleReference.Divergences divergences = OracleReference.of(chain, capture).score(executor, capture);
            assertEquals(new OracleReference.Divergences(0, 0), divergences);
        }
    }

    @Test
    void shouldKeepPerFlowStateAtTheOwningInstanceAndStampCrossFlowWritesWithTheWritersClock() throws Exception
    {
        final TrafficCapture capture = traffic(0.6);
        final ChainSpec chain = lb(2);
        try (ChcStyleChainExecutor executor = new ChcStyleChainExecutor(chain, 2, KEY_CAPACITY);
             PacketSource source = capture.replay())
        {
            executor.run(source, null);
            final int active = executor.runtime().catalog().find("lb", "active");
            long stamped = 0;
            for (int server = 0; server < 7200; server++)
            {
                if (executor.writerClock(active, server) > 0)
                {
                    stamped++;
                }
            }
            assertTrue(stamped > 0, "cross-flow writes carry their writer's logical clock");
            assertTrue(executor.lockAcquisitions() > 0, "new connections lock their candidates");
        }
    }

    /** The baselines order one VNF's accesses to its own tables only: a chain whose VNFs share a table is refused, not run wrong. */
    @Test
    void shouldRefuseAChainWhoseVnfsShareATable()
    {
        final ChainSpec chain = new ChainLoader().loadBundled("fw-scan-block");
        for (final java.util.function.Supplier<ChainExecutor> baseline : java.util.List.<java.util.function.Supplier<ChainExecutor>>of(
            () -> new PartitionedChainExecutor(chain, 2), () -> new ChcStyleChainExecutor(chain, 2, 1 << 12),
            () -> new NoLockChainExecutor(chain, 2, 1 << 12)))
        {
            final IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, baseline::get);
            assertTrue(refused.getMessage().contains("shares table 'blocked'") && refused.getMessage().contains("fix:"), refused.getMessage());
        }
    }
}
