package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A batch that inserts more new keys than the state table's shards have room for cannot move
 * slots while the graph holds their locations: the executor abandons the build, grows the full
 * shards and builds again. The restarted batch must still equal the serial oracle, and the
 * executor must say it restarted (else the test proves nothing).
 */
class ShardGrowthRestartTest
{
    private static final int NEW_KEYS = 40_000;

    /** Adds the operand; aborts the transaction when a counter would pass 2,400 (so some abort). */
    private static final StateFunction COUNT = (current, ctx) ->
    {
        if (current >= 2_400)
        {
            ctx.abort(1);
        }
        return current + 1;
    };

    @Timeout(120)
    @ParameterizedTest(name = "threads={0} strategy={1}")
    @CsvSource({"1, dfs/op/lazy", "2, dfs/op/lazy", "2, bfs/group/eager", "2, random/op/eager", "4, dfs/group/lazy"})
    void shouldRestartABatchThatOutgrowsItsShardsAndStillEqualTheSerialOracle(final int threads, final String strategy)
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("flows", TableScope.CROSS_FLOW, KeyKind.INDEX, 0, ""));
        catalog.add("vnf", new TableSpec("counters", TableScope.CROSS_FLOW, KeyKind.INDEX, 0, ""));
        final TransactionLog expected = batch();
        final TransactionLog actual = batch();
        final MapStateStore oracle = new MapStateStore(catalog);
        final SerialApplier applier = new SerialApplier();
        for (int t = 0; t < expected.transactionCount(); t++)
        {
            applier.apply(expected, t, oracle);
        }

        final MultiVersionStateTable state = new MultiVersionStateTable(catalog);
        try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategy))
        {
            executor.execute(actual, state);
            assertTrue(executor.restarts() > 0, "40,000 new keys in an empty table must outgrow its first shards");
            assertEquals(0, executor.serialBatches(), "a static strategy runs the batch on the graph");
        }
        for (int t = 0; t < expected.transactionCount(); t++)
        {
            assertEquals(expected.abortReason(t), actual.abortReason(t), "abort reason of transaction " + t);
        }
        assertEquals(SerialOracleCheck.dump(catalog, oracle), SerialOracleCheck.dump(catalog, state),
            "committed state after the restarted batch");
        assertEquals(oracle.size(0), state.size(0));
        assertTrue(state.size(0) > 30_000, "most flows committed");
    }

    /** Each transaction inserts a new flow and bumps one of 16 shared counters (so the graph has edges). */
    private static TransactionLog batch()
    {
        final TransactionLog log = new TransactionLog();
        for (int t = 0; t < NEW_KEYS; t++)
        {
            log.begin(t, t, null);
            log.write(0, 1_000_003L * t, t);
            log.readModify(1, t % 16, COUNT, 1);
            log.end();
        }
        return log;
    }
}
