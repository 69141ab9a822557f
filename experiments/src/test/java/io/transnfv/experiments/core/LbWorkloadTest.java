package io.transnfv.experiments.core;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark's load-balancer batch is what it says, and the engine gives the oracle's result on it. */
class LbWorkloadTest
{
    @ParameterizedTest(name = "new={0} threads={1} strategy={2}")
    @CsvSource({"0.05, 1, adaptive", "0.05, 2, dfs/op/lazy", "0.40, 2, bfs/op/eager", "0.40, 2, adaptive", "0.40, 1, dfs/group/lazy"})
    void shouldEqualTheSerialOracleOverSeveralBatches(final double newRatio, final int threads, final String strategy)
    {
        final TableCatalog catalog = LbWorkload.catalog();
        final MapStateStore oracle = new MapStateStore(catalog);
        final MultiVersionStateTable state = new MultiVersionStateTable(catalog);
        final SerialApplier applier = new SerialApplier();
        try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategy))
        {
            for (int batch = 0; batch < 5; batch++)
            {
                final TransactionLog expected = LbWorkload.batch(10_000, 2_000, 64, newRatio, batch);
                final TransactionLog actual = LbWorkload.batch(10_000, 2_000, 64, newRatio, batch);
                assertShape(expected, newRatio);
                final Integer[] order = new Integer[expected.transactionCount()];
                for (int t = 0; t < order.length; t++)
                {
                    order[t] = t;
                }
                Arrays.sort(order, (a, b) -> expected.timestampNs(a) != expected.timestampNs(b)
                    ? Long.compare(expected.timestampNs(a), expected.timestampNs(b)) : Long.compare(expected.sequence(a), expected.sequence(b)));
                for (final int t : order)
                {
                    applier.apply(expected, t, oracle);
                }
                executor.execute(actual, state);
                for (int o = 0; o < expected.operationCount(); o++)
                {
                    assertEquals(expected.after(o), actual.after(o), "batch " + batch + ", operation " + o + " after");
                }
            }
        }
        for (int t = 0; t < catalog.size(); t++)
        {
            assertEquals(dump(oracle, t), dump(state, t), "table " + t);
        }
        assertTrue(oracle.size(LbWorkload.SERVERS) > 0, "servers were chosen");
    }

    private static void assertShape(final TransactionLog log, final double newRatio)
    {
        int chooses = 0;
        for (int o = 0; o < log.operationCount(); o++)
        {
            chooses += log.type(o) == OperationType.CHOOSE.ordinal() ? 1 : 0;
        }
        final double share = (double)chooses / log.transactionCount();
        assertTrue(Math.abs(share - newRatio) < 0.05, "share of new connections " + share + " for " + newRatio);
        assertTrue(log.operationCount() >= 10_000 && log.operationCount() < 10_004);
    }

    /** Both stores visit keys in ascending order. */
    private static String dump(final StateMaintenance store, final int table)
    {
        final StringBuilder sb = new StringBuilder();
        store.forEach(table, (key, value) -> sb.append(key).append('=').append(value).append('\n'));
        return sb.toString();
    }
}
