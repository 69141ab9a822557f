package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.AdmissionGate;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a {@link RandomWorkload} through an executor and through {@link SerialApplier} and
 * fails at the first transaction or state entry that differs: the COE check shared by the
 * contract test and the scheduling-space matrix.
 */
final class SerialOracleCheck
{
    private final BatchExecutor executor;
    private final String config;

    SerialOracleCheck(final BatchExecutor executor, final String config)
    {
        this.executor = executor;
        this.config = config;
    }

    void checkSeed(final long seed, final int maxTransactions)
    {
        checkWorkload(new RandomWorkload(seed, maxTransactions));
    }

    void checkWorkload(final RandomWorkload workload)
    {
        checkWorkload(workload, false);
    }

    /**
     * @param closeAdditive whether the workload's additive table is closed to new entries for all
     *                      its batches, as a capacity check that found it full leaves it: adds to
     *                      keys absent at that check abort; some keys start small, so that adds
     *                      take them back to 0 and then add to them again.
     * @return keys the oracle's adds removed from the closed table (some with adds after them in
     *         the same batch, which the engine judges by the batch start).
     */
    int checkWorkload(final RandomWorkload workload, final boolean closeAdditive)
    {
        final MapStateStore oracle = new MapStateStore(workload.catalog);
        final MultiVersionStateTable state = new MultiVersionStateTable(workload.catalog);
        workload.prefill(oracle);
        workload.prefill(state);
        final SerialApplier applier = new SerialApplier();
        final long[] initial = new long[workload.catalog.size()];
        for (int t = 0; t < initial.length; t++)
        {
            initial[t] = workload.catalog.spec(t).initialValue();
        }
        final AdmissionGate oracleGate = new AdmissionGate(initial);
        final AdmissionGate gate = new AdmissionGate(initial);
        if (closeAdditive && workload.additive >= 0)
        {
            for (final StateStore store : new StateStore[] {oracle, state})
            {
                store.put(workload.additive, 2L, 3L);
                store.put(workload.additive, RandomWorkload.EXTRA_ADDITIVE_KEY, 1L);
            }
            oracleGate.checked();
            oracleGate.close(workload.additive, true);
            gate.checked();
            gate.close(workload.additive, true);
            applier.admission(oracleGate);
            ((StageExecutor)executor).admission(gate);
        }
        final TransactionLog expected = new TransactionLog();
        final TransactionLog actual = new TransactionLog();
        for (int batch = 0; batch < workload.batches; batch++)
        {
            workload.fill(expected, batch);
            workload.fill(actual, batch);
            if (workload.stale >= 0)
            {
                // stale reads see the batch start: the oracle applies the batch as one, as the serial schedule does
                applier.beginBatch();
            }
            for (final int t : serialOrder(expected))
            {
                applier.apply(expected, t, oracle);
            }
            applier.endBatch();
            try
            {
                executor.execute(actual, state);
            }
            catch (final RuntimeException e)
            {
                throw new AssertionError(where(workload, batch) + ": executor threw " + e, e);
            }
            compareResults(workload, batch, expected, actual);
            final String expectedState = dump(workload.catalog, oracle);
            final String actualState = dump(workload.catalog, state);
            if (!expectedState.equals(actualState))
            {
                fail(where(workload, batch) + ": final state differs: " + firstDifference(expectedState, actualState));
            }
        }
        if (closeAdditive && workload.additive >= 0)
        {
            ((StageExecutor)executor).admission(null);
            return oracleGate.removedSinceCheck(workload.additive);
        }
        return 0;
    }

    private void compareResults(final RandomWorkload workload, final int batch, final TransactionLog expected, final TransactionLog actual)
    {
        for (int t = 0; t < expected.transactionCount(); t++)
        {
            final int reason = expected.abortReason(t);
            if (reason != actual.abortReason(t))
            {
                fail(where(workload, batch) + " txn=" + t + ": abortReason expected " + reason + " but was " + actual.abortReason(t));
            }
            if (reason != 0)
            {
                continue;
            }
            final int first = expected.firstOperation(t);
            for (int o = first; o < first + expected.operationCount(t); o++)
            {
                if (expected.before(o) != actual.before(o) || expected.after(o) != actual.after(o) ||
                    expected.chosen(o) != actual.chosen(o))
                {
                    fail(where(workload, batch) + " txn=" + t + " op=" + (o - first) + " type=" + expected.type(o) +
                        ": expected (before, after, chosen) = (" + expected.before(o) + ", " + expected.after(o) + ", " +
                        expected.chosen(o) + ") but was (" + actual.before(o) + ", " + actual.after(o) + ", " +
                        actual.chosen(o) + ")");
                }
            }
        }
    }

    private String where(final RandomWorkload workload, final int batch)
    {
        return "[" + config + "] " + workload.describe() + " batch=" + batch;
    }

    /** @return transaction indices in ascending (timestamp, sequence, index) order. */
    static int[] serialOrder(final TransactionLog log)
    {
        final int n = log.transactionCount();
        final Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++)
        {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) ->
        {
            final int c = Long.compare(log.timestampNs(a), log.timestampNs(b));
            if (c != 0)
            {
                return c;
            }
            final int d = Long.compare(log.sequence(a), log.sequence(b));
            return d != 0 ? d : Integer.compare(a, b);
        });
        final int[] order = new int[n];
        for (int i = 0; i < n; i++)
        {
            order[i] = boxed[i];
        }
        return order;
    }

    static <S extends StateStore & StateMaintenance> String dump(final TableCatalog catalog, final S store)
    {
        final StringBuilder sb = new StringBuilder();
        for (int t = 0; t < catalog.size(); t++)
        {
            final int table = t;
            store.forEach(t, (key, value) -> sb.append(table).append(' ').append(key).append(' ').append(value).append('\n'));
        }
        return sb.toString();
    }

    private static String firstDifference(final String expected, final String actual)
    {
        final String[] e = expected.split("\n");
        final String[] a = actual.split("\n");
        for (int i = 0; i < Math.max(e.length, a.length); i++)
        {
            final String x = i < e.length ? e[i] : "<none>";
            final String y = i < a.length ? a[i] : "<none>";
            if (!x.equals(y))
            {
                return "line " + i + ": expected '" + x + "' but was '" + y + "' (" + e.length + " vs " + a.length + " entries)";
            }
        }
        return "none";
    }
}
