package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.graph.TouchedKeyTable;
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
        try (TpgBatchExecutor executor = new TpgBatchExecutor(2))
        {
            workload.fill(log, 0);
            executor.execute(log, state);
            final TouchedKeyTable keys = executor.graph().touchedKeys();
            final long cleared0 = keys.slotsCleared();
            final long collapsed0 = state.keysCollapsed();
            final long reset0 = state.slotsReset();
            workload.fill(log, 1);
            executor.execute(log, state);
            return new long[] {
                keys.slotsCleared() - cleared0, state.keysCollapsed() - collapsed0, state.slotsReset() - reset0, keys.capacity(),
            };
        }
    }

    @Test
    void shouldWalkTheSameSlotsWithAHundredOrAMillionCommittedKeys()
    {
        final long[] small = costOfTwoBatches(100);
        final long[] large = costOfTwoBatches(1_000_000);
        assertEquals(small[0], large[0], "touched-key slots cleared per batch");
        assertEquals(small[1], large[1], "keys collapsed per batch");
        assertEquals(small[2], large[2], "version slots reset per batch");
        assertEquals(small[3], large[3], "touched-key table capacity");
    }
}
