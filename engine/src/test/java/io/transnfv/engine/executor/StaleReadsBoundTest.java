package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.instance.MapStateStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code { stale-reads: b }} table checked against its bound, not against the strict oracle:
 * on seeded random batches, every schedule and thread count, each committed STALE_READ must
 * return a value the key held when one of the last {@code max(b, 1)} batches started (committed,
 * so never a value written inside its own batch, and never older than the bound allows), and a
 * STALE_CHOOSE must pick one of its candidates. With batches of one transaction that reads the
 * table before it adds to it, the batch start is the transaction's own point in the serial order,
 * so the results equal the strict oracle's (one transaction applied at a time). The check has a
 * negative control: the strict oracle's own results, which read values written earlier in the
 * same batch, break the bound.
 */
class StaleReadsBoundTest
{
    private static final int STALE_READ = OperationType.STALE_READ.ordinal();
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();
    private static final int ADD = OperationType.ADD.ordinal();
    private static final String[] STRATEGIES = {"bfs/op/eager", "dfs/group/lazy", "random/op/lazy", "adaptive"};
    private static final int[] THREADS = {1, 2, 4};
    /** The stale-reads table's keys: {@code RandomWorkload} reads and adds to keys 0..3. */
    private static final int KEYS = 4;

    /** Each batch start's committed values of the stale-reads table, oldest first. */
    private static final class History
    {
        private final List<long[]> starts = new ArrayList<>();

        void batchStarts(final StateStore state, final int table)
        {
            final long[] values = new long[KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                values[k] = state.get(table, k);
            }
            starts.add(values);
        }

        /** @return true if {@code value} is what {@code key} held when one of the last max(bound, 1) batches started. */
        boolean withinBound(final long key, final long value, final int bound)
        {
            for (int lag = 0; lag < Math.max(bound, 1) && lag < starts.size(); lag++)
            {
                if (starts.get(starts.size() - 1 - lag)[(int)key] == value)
                {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * @return the first committed stale read (or choice) of {@code log} outside the bound, described, or
     *         null if every one is within it.
     */
    private static String firstOutsideBound(final TransactionLog log, final History history, final int bound)
    {
        for (int t = 0; t < log.transactionCount(); t++)
        {
            if (log.abortReason(t) != 0)
            {
                continue;
            }
            final int first = log.firstOperation(t);
            for (int o = first; o < first + log.operationCount(t); o++)
            {
                if (log.type(o) == STALE_READ && !history.withinBound(log.key(o), log.before(o), bound))
                {
                    return "txn " + t + " op " + (o - first) + " read " + log.before(o) + " of key " + log.key(o)
                        + ", which it held at none of the last " + Math.max(bound, 1) + " batch start(s)";
                }
                if (log.type(o) == STALE_CHOOSE && log.chosen(o) >= 0 && log.chosen(o) >= log.extraCount(o))
                {
                    return "txn " + t + " op " + (o - first) + " chose " + log.chosen(o) + " of " + log.extraCount(o)
                        + " candidates";
                }
            }
        }
        return null;
    }

    /**
     * Runs {@code workload} batch by batch through {@code executor}; returns the first read outside
     * any of {@code bounds}, or null.
     */
    private static String runWithinBound(final BatchExecutor executor, final RandomWorkload workload, final int... bounds)
    {
        final MultiVersionStateTable state = new MultiVersionStateTable(workload.catalog);
        workload.prefill(state);
        final History history = new History();
        final TransactionLog log = new TransactionLog();
        for (int batch = 0; batch < workload.batches; batch++)
        {
            history.batchStarts(state, workload.stale);
            workload.fill(log, batch);
            executor.execute(log, state);
            for (final int bound : bounds)
            {
                final String outside = firstOutsideBound(log, history, bound);
                if (outside != null)
                {
                    return workload.describe() + " batch " + batch + ", bound " + bound + ": " + outside;
                }
            }
        }
        return null;
    }

    @Test
    void shouldReadOnlyValuesCommittedWithinTheBoundOnEveryScheduleAndThreadCount()
    {
        for (final int threads : THREADS)
        {
            for (final String strategy : STRATEGIES)
            {
                try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategy))
                {
                    for (long seed = 0; seed < 25; seed++)
                    {
                        final RandomWorkload workload = new RandomWorkload(6_000_000L + seed, 3_000, 0, false, true);
                        // bound 1 (and 0): exactly the batch start; bound 2 also admits the batch before
                        final String outside = runWithinBound(executor, workload, 0, 1, 2);
                        assertNull(outside, () -> threads + " threads, " + strategy + ": " + outside);
                    }
                }
            }
        }
    }

    @Test
    void shouldFindTheStrictOraclesReadsOfItsOwnBatchOutsideTheBound()
    {
        // negative control: applied one transaction at a time, a stale read sees the adds made
        // earlier in its batch, which were not committed when the batch started
        int outside = 0;
        for (long seed = 0; seed < 25; seed++)
        {
            final RandomWorkload workload = new RandomWorkload(6_000_000L + seed, 3_000, 0, false, true);
            final MapStateStore state = new MapStateStore(workload.catalog);
            workload.prefill(state);
            final History history = new History();
            final TransactionLog log = new TransactionLog();
            final SerialApplier strict = new SerialApplier();
            for (int batch = 0; batch < workload.batches; batch++)
            {
                history.batchStarts(state, workload.stale);
                workload.fill(log, batch);
                for (final int t : SerialOracleCheck.serialOrder(log))
                {
                    strict.apply(log, t, state);
                }
                strict.endBatch();
                outside += firstOutsideBound(log, history, 1) == null ? 0 : 1;
            }
        }
        assertTrue(outside > 0, "reads of the current value must break the bound of some batch");
    }

    @Test
    void shouldEqualTheStrictOracleWhenEveryBatchIsOneTransactionThatReadsBeforeItAdds()
    {
        int compared = 0;
        for (final int threads : new int[] {1, 2})
        {
            for (final String strategy : STRATEGIES)
            {
                try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategy))
                {
                    for (long seed = 0; seed < 40; seed++)
                    {
                        compared += compareWithStrictOracle(executor, new RandomWorkload(7_000_000L + seed, 1, 0, false, true),
                            threads + " threads, " + strategy);
                    }
                }
            }
        }
        assertTrue(compared > 100, "enough single-transaction batches with stale reads were compared: " + compared);
    }

    /**
     * Applies each one-transaction batch strictly (no batch start: the current value) and in the
     * executor, and compares every result and the state, for transactions that do not read a key
     * of the stale-reads table after adding to it (the one case where the batch start, before the
     * transaction's own add, is not its point in the serial order).
     *
     * @return the batches with a stale read or choice compared.
     */
    private static int compareWithStrictOracle(final BatchExecutor executor, final RandomWorkload workload, final String config)
    {
        final MapStateStore oracle = new MapStateStore(workload.catalog);
        final MultiVersionStateTable state = new MultiVersionStateTable(workload.catalog);
        workload.prefill(oracle);
        workload.prefill(state);
        final SerialApplier strict = new SerialApplier();
        final TransactionLog expected = new TransactionLog();
        final TransactionLog actual = new TransactionLog();
        int compared = 0;
        for (int batch = 0; batch < workload.batches; batch++)
        {
            workload.fill(expected, batch);
            workload.fill(actual, batch);
            assertEquals(1, expected.transactionCount(), "a batch of one transaction");
            if (readsAfterItsOwnAdd(expected, workload.stale))
            {
                return compared;
            }
            strict.apply(expected, 0, oracle);
            strict.endBatch();
            executor.execute(actual, state);
            final String where = config + " " + workload.describe() + " batch " + batch;
            assertEquals(expected.abortReason(0), actual.abortReason(0), where);
            boolean stale = false;
            if (expected.abortReason(0) == 0)
            {
                for (int o = 0; o < expected.operationCount(0); o++)
                {
                    stale |= expected.type(o) == STALE_READ || expected.type(o) == STALE_CHOOSE;
                    final int op = o;
                    assertTrue(expected.before(o) == actual.before(o) && expected.after(o) == actual.after(o)
                        && expected.chosen(o) == actual.chosen(o), () -> where + " op " + op + " type " + expected.type(op)
                        + ": strict (" + expected.before(op) + ", " + expected.after(op) + ", " + expected.chosen(op)
                        + ") but engine (" + actual.before(op) + ", " + actual.after(op) + ", " + actual.chosen(op) + ")");
                }
            }
            assertEquals(SerialOracleCheck.dump(workload.catalog, oracle), SerialOracleCheck.dump(workload.catalog, state), where);
            compared += stale ? 1 : 0;
        }
        return compared;
    }

    /** @return true if the log's only transaction reads or chooses over the stale-reads table after adding to it. */
    private static boolean readsAfterItsOwnAdd(final TransactionLog log, final int staleTable)
    {
        boolean added = false;
        for (int o = 0; o < log.operationCount(0); o++)
        {
            final int type = log.type(o);
            if (added && (type == STALE_READ || type == STALE_CHOOSE))
            {
                return true;
            }
            added |= type == STALE_CHOOSE || type == ADD && log.table(o) == staleTable;
        }
        return false;
    }
}
