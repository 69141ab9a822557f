package io.transnfv.engine.state;

import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MultiVersionStateTableTest
{
    private static final int KEY = 7;

    private final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
    private final OperationStateMachine machine = new OperationStateMachine();

    private static MultiVersionStateTable table(final long initialValue)
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("t", TableScope.CROSS_FLOW, KeyKind.INDEX, initialValue, ""));
        return new MultiVersionStateTable(catalog);
    }

    /**
     * Three transactions write key 7 (entries 0, 1, 2 in serial order, each the previous one's
     * successor), a fourth reads it (entry 3): a versioned key.
     */
    private TransactionLog threeWritesAndARead()
    {
        final TransactionLog log = new TransactionLog();
        for (int t = 0; t < 3; t++)
        {
            log.begin(t, t, null);
            log.write(0, KEY, 100 + t);
            log.end();
        }
        log.begin(3, 3, null);
        log.read(0, KEY);
        log.end();
        return log;
    }

    private MultiVersionStateTable opened(final MultiVersionStateTable state, final TransactionLog log)
    {
        state.beginBatch(graph, log);
        graph.buildAndSeal(log, machine, state);
        return state;
    }

    private MultiVersionStateTable withThreeVersions(final long committed)
    {
        final MultiVersionStateTable state = table(0);
        state.put(0, KEY, committed);
        return opened(state, threeWritesAndARead());
    }

    @Test
    void shouldLetAReadSeeTheLatestVersionBeforeIt()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        assertEquals(5, state.read(0), "before every version: the committed value");
        state.write(0, 10);
        state.write(1, 20);
        assertEquals(10, state.read(1));
        assertEquals(20, state.read(2));
        assertEquals(5, state.committed(graph.entryLocation(0)), "a versioned key's committed value is untouched until the collapse");
    }

    @Test
    void shouldLookThroughRemovedAndSkippedVersions()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        state.write(0, 10);
        state.write(1, 20);
        state.write(2, 30);
        state.undo(1);
        assertEquals(10, state.read(2));
        assertEquals(30, state.read(3));
        state.skip(2);
        assertEquals(10, state.read(3), "an entry that created no version (an unchosen candidate) is looked through");
    }

    @Test
    void shouldRefuseToReadAVersionNotYetWrittenThisBatch()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        assertThrows(IllegalStateException.class, () -> state.read(1));
        state.write(0, 10);
        state.write(1, 20);
        state.write(2, 30);
        state.collapseShard(0);
        state.endBatch();
        opened(state, threeWritesAndARead());
        assertThrows(IllegalStateException.class, () -> state.read(1), "a version of the previous batch is not this batch's");
    }

    @Test
    void shouldCollapseEachKeyToItsLastLiveVersion()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        state.write(0, 10);
        state.write(1, 20);
        state.undo(2);
        state.collapseShard(0);
        state.endBatch();
        assertEquals(20, state.get(0, KEY));
        assertEquals(1, state.keysCollapsed());
    }

    @Test
    void shouldDeleteAKeyLeftAtTheInitialValue()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        state.write(0, 0);
        state.undo(1);
        state.undo(2);
        state.collapseShard(0);
        state.endBatch();
        assertEquals(0, state.size(0));
    }

    @Test
    void shouldWriteAKeyOfOneTransactionInPlaceAndUndoIt()
    {
        final MultiVersionStateTable state = table(0);
        state.put(0, KEY, 5);
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(0, KEY, 6);
        log.write(0, KEY, 7);
        log.end();
        opened(state, log);
        assertTrue(graph.isInPlace(0));
        state.write(0, 6);
        assertEquals(6, state.committed(graph.entryLocation(0)), "in place: the committed value itself");
        assertEquals(6, state.read(1));
        state.write(1, 7);
        state.undo(1);
        state.undo(0);
        assertEquals(5, state.committed(graph.entryLocation(0)), "undone in reverse statement order: the value before the transaction");
        state.collapseShard(0);
        state.endBatch();
        assertEquals(5, state.get(0, KEY));
    }

    @Test
    void shouldLeaveCommittedStateAsBeforeWhenABatchIsAbandoned()
    {
        final MultiVersionStateTable state = table(0);
        state.put(0, KEY, 5);
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(0, KEY, 6);
        log.write(0, 99, 1);
        log.end();
        opened(state, log);
        state.write(0, 6);
        state.write(1, 1);
        state.abandonBatch();
        assertEquals(5, state.get(0, KEY));
        assertEquals(1, state.size(0), "the key inserted for the batch is gone again");
        assertEquals(5, state.get(0, KEY));
    }

    @Test
    void shouldRefuseToMoveSlotsMidBatchAndBindEveryKeyOnceTheFullShardsHaveGrown()
    {
        final MultiVersionStateTable state = table(0);
        state.put(0, -1, 42);
        final TransactionLog log = new TransactionLog();
        for (int t = 0; t < 5_000; t++)
        {
            log.begin(t, t, null);
            log.write(0, t % 2_500, t);
            log.end();
        }
        state.beginBatch(graph, log);
        assertThrows(MultiVersionStateTable.ShardFull.class, () -> graph.buildAndSeal(log, machine, state),
            "2,500 new keys do not fit shards of 16 slots without a rehash");
        state.abandonBatch();
        assertEquals(1, state.size(0), "the keys inserted before the shard filled up are gone again");
        assertEquals(42, state.get(0, -1));

        state.growFullShards(log.operationCount());
        int attempts = 1;
        while (true)
        {
            try
            {
                opened(state, log);
                break;
            }
            catch (final MultiVersionStateTable.ShardFull full)
            {
                state.abandonBatch();
                state.growFullShards(log.operationCount());
                attempts++;
                assertTrue(attempts < 10, "the shards grow to fit the batch in a few attempts");
            }
        }
        for (int o = 0; o < log.operationCount(); o++)
        {
            state.write(o, 1_000 + o);
        }
        state.collapseShard(0);
        state.endBatch();
        assertEquals(2_501, state.size(0));
        for (int k = 0; k < 2_500; k++)
        {
            assertEquals(1_000 + 2_500 + k, state.get(0, k), "key " + k);
        }
        assertEquals(42, state.get(0, -1));
    }

    @Test
    void shouldRejectCommittedWritesWhileABatchIsOpen()
    {
        final MultiVersionStateTable state = withThreeVersions(5);
        assertThrows(IllegalStateException.class, () -> state.put(0, 1, 1));
    }

    @Test
    void shouldVisitCommittedEntriesInAscendingKeyOrderAndAllowPutsMeanwhile()
    {
        final MultiVersionStateTable state = table(-1);
        state.put(0, 30, 3);
        state.put(0, -5, 1);
        state.put(0, Long.MIN_VALUE, 4);
        state.put(0, 10, 2);
        final List<Long> keys = new ArrayList<>();
        state.forEach(0, (key, value) ->
        {
            keys.add(key);
            state.put(0, key, -1);
        });
        assertEquals(List.of(Long.MIN_VALUE, -5L, 10L, 30L), keys);
        assertEquals(0, state.size(0));
    }

    @Test
    void shouldFindAKeyABatchInsertedWhenItsActivityTimeIsDue()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("t", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "").expiringBy(value -> value, 1));
        final MultiVersionStateTable state = new MultiVersionStateTable(catalog);
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(0, KEY, 50);
        log.end();
        opened(state, log);
        state.write(0, 50);
        state.collapseShard(0);
        state.endBatch();

        final List<Long> early = new ArrayList<>();
        state.forEachDue(0, 49, (key, value) -> early.add(key));
        final List<Long> due = new ArrayList<>();
        state.forEachDue(0, 50, (key, value) ->
        {
            due.add(key);
            state.put(0, key, 0L);
        });

        assertEquals(List.of(), early);
        assertEquals(List.of((long)KEY), due, "the key the batch inserted joined the index");
        assertEquals(0, state.size(0));
    }

    @Test
    void shouldExpireTheSameKeysInTheSameOrderAsTheOracleStore()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("t", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "").expiringBy(value -> value >>> 4, 1));
        for (long seed = 0; seed < 20; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final MultiVersionStateTable engine = new MultiVersionStateTable(catalog);
            final MapStateStore oracle = new MapStateStore(catalog);
            long now = 1;
            for (int round = 0; round < 30; round++)
            {
                for (int w = random.nextInt(400); w > 0; w--)
                {
                    now += random.nextInt(2);
                    final long key = random.nextLong(1_000) * 0x9E3779B97F4A7C15L;
                    final long value = random.nextInt(6) == 0 ? 0L : now << 4 | random.nextInt(16);
                    engine.put(0, key, value);
                    oracle.put(0, key, value);
                }
                final long cutoff = now - random.nextInt(50);
                final List<Long> fromEngine = new ArrayList<>();
                engine.forEachDue(0, cutoff, (key, value) ->
                {
                    fromEngine.add(key);
                    engine.put(0, key, (key & 1) == 0 ? 0L : value);
                });
                final List<Long> fromOracle = new ArrayList<>();
                oracle.forEachDue(0, cutoff, (key, value) ->
                {
                    fromOracle.add(key);
                    oracle.put(0, key, (key & 1) == 0 ? 0L : value);
                });
                assertEquals(fromOracle, fromEngine, "seed " + seed + " round " + round);
                assertEquals(oracle.size(0), engine.size(0));
            }
        }
    }
}
