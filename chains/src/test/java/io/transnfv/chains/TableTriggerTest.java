package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.instance.VnfInstance;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table trigger ({@code tables: {t: {trigger: {above: n, alert: a}}}}) raises its alert on the
 * packet whose write takes a key above the threshold: the monitor's per-host packet counts only
 * grow, so every host past the threshold at the end raised it exactly once, and every executor
 * raises it on the same packets as the oracle.
 */
class TableTriggerTest
{
    private static final long ABOVE = 40;
    private static final String CHAIN = """
        name: triggered
        vnfs:
          - name: monitor
            type: flow-monitor
            tables: { host-packets: { trigger: { above: %d, alert: busy-host } } }
        settings:
          executor_threads: 2
          traffic:
            generate: { packets: 60000, flows: 3000, hosts: 400, host_skew: 0.9, seed: 11 }
        """.formatted(ABOVE);

    @Test
    void shouldRaiseTheAlertOncePerHostThatCrossesTheThresholdOnEveryExecutor() throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(CHAIN, "triggered.yaml");
        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
        {
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
                spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
            assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
                + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord());
        }
        final List<Function<ChainSpec, ChainExecutor>> executors = List.of(SerialChainExecutor::new,
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, "adaptive"), "tpg adaptive"));
        for (final Function<ChainSpec, ChainExecutor> executor : executors)
        {
            try (ChainExecutor run = executor.apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                final RunStats stats = run.run(source, null);
                final VnfInstance monitor = run.runtime().instance(0);
                final int table = run.runtime().catalog().find("monitor", "host-packets");
                final StateReader state = run.committedState().orElseThrow();
                final long[] busy = {0};
                state.forEach(table, (host, packets) -> busy[0] += packets > ABOVE ? 1 : 0);
                assertTrue(busy[0] > 10, run.describe() + ": the traffic must push hosts past the threshold: " + busy[0]);
                assertEquals(busy[0], stats.alerts(0, monitor.alertTypes().indexOf("busy-host")), run.describe());
            }
        }
    }
}
