package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The work of a batch follows the batch, never the committed key space: counted, not timed. */
class BatchCostTest
{
    private static long[] costOfTwoBatches(final int committedKeys)
    {
        final RandomWorkload workload = new RandomWorkload(42, 2_000, 1024);
        final MultiVersionStateTable state = new MultiVersionStateTable(workload.catalog);
        for (int i = 0; i < committedKeys; i++)
        {
            state.put(0, 1_000_000_000L + i, i + 10);
        }
        final TransactionLog log = new TransactionLog();
        // a static strategy: the adaptive one may run a batch in serial order, without a graph to count
        try (TpgBatchExecutor executor = TpgBatchExecutor.create(2, "dfs/op/lazy"))
        {
            workload.fill(log, 0);
            executor.execute(log, state);
            final long collapsed0 = state.keysCollapsed();
            workload.fill(log, 1);
            executor.execute(log, state);
            final TaskPrecedenceGraph graph = executor.graph();
            return new long[] {graph.keyCount(), graph.entryCount(), state.keysCollapsed() - collapsed0};
        }
    }

    @Test
    void shouldDoTheSameWorkWithAHundredOrAMillionCommittedKeys()
    {
        final long[] small = costOfTwoBatches(100);
        final long[] large = costOfTwoBatches(1_000_000);
        assertEquals(small[0], large[0], "keys touched per batch");
        assertEquals(small[1], large[1], "entries per batch");
        assertEquals(small[2], large[2], "keys collapsed per batch: the batch's keys, not the committed ones");
        assertEquals(small[0], small[2], "every touched key, once");
    }
}
