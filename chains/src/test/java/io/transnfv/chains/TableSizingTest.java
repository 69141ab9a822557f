package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.SchedulerReport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables sized in the chain ({@code tables: {t: {expected_entries: n}}}) take their room at the
 * start: a run that stays within it allocates nothing to grow them, and its outputs are those of
 * the oracle, sized or not.
 */
class TableSizingTest
{
    private static final String CHAIN = """
        name: sized
        vnfs:
          - name: lb
            type: load-balancer
            params: { servers: 64, candidates: 3 }
        %s
        settings:
          executor_threads: 2
          traffic:
            generate: { packets: 30000, flows: 4000, new_conn_ratio: 0.2, seed: 8 }
        """;

    private static final String SIZES = """
            tables:
              connections: { expected_entries: 20000 }
              connection-bytes: { expected_entries: 20000 }
              active: { expected_entries: 64 }
              bytes: { expected_entries: 64 }
        """;

    @Test
    void shouldNotGrowSizedTablesAndMatchTheOracle() throws IOException
    {
        final double sized = stateGrowth(String.format(CHAIN, SIZES));
        final double growing = stateGrowth(String.format(CHAIN, ""));
        assertEquals(0.0, sized, "sized tables took their room before the run");
        assertTrue(growing > 0, "unsized tables grow as flows arrive: " + growing);
    }

    private static double stateGrowth(final String yaml) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(yaml, "sized.yaml");
        final List<BatchedChainExecutor> engines = new ArrayList<>();
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec ->
            {
                final BatchedChainExecutor engine = new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg");
                engines.add(engine);
                return engine;
            });
        assertTrue(result.equivalent(), String.valueOf(result));
        final SchedulerReport summary = engines.get(0).executorSummary().orElseThrow();
        return summary.stateGrowthBytesPerPacket();
    }
}
