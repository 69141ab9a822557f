package io.transnfv.engine.checkpoint;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.state.store.ChronicleStateBackend;
import io.transnfv.engine.state.store.KeyBatch;
import io.transnfv.engine.state.store.StateBackend;
import io.transnfv.engine.state.store.TableStores;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.ChangeTrackingState;
import io.transnfv.vnf.instance.ChangedKeyLog;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints follow the keys changed, not the state: the tables log their changed keys, an
 * incremental checkpoint reads only those (counted by the checkpointer's entries-visited
 * counter, not timed), a table whose log overflows is written whole and replaces the table on
 * restore, and a full checkpoint streams a store's entries without taking its keys into the heap.
 */
class ChangeLogCheckpointTest
{
    private static final long CHAIN = 77;
    private static final int LIVE = 100_000;

    @TempDir
    Path dir;

    private static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("fw", new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0, "connections"));
        catalog.add("lb", new TableSpec("load", TableScope.CROSS_FLOW, KeyKind.FLOW, -1, "load"));
        return catalog;
    }

    private CheckpointSettings settings(final int fullEvery)
    {
        return new CheckpointSettings(dir.resolve("ckpt"), 1, 0, fullEvery);
    }

    private static ChangeTrackingState store(final String kind, final TableCatalog catalog)
    {
        return kind.equals("map") ? new MapStateStore(catalog) : new MultiVersionStateTable(catalog);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"map", "multi-version"})
    void shouldVisitOnlyTheTenChangedKeysOfAHundredThousandEntryTableInAnIncrementalCheckpoint(final String kind) throws IOException
    {
        final ChangeTrackingState state = store(kind, catalog());
        for (long k = 1; k <= LIVE; k++)
        {
            state.put(0, k * 7919, k);
        }
        final Checkpointer checkpointer = Checkpointer.start(settings(100), CHAIN, catalog());
        checkpointer.restore(state);
        checkpointer.take(state, 1, 1, new long[0]);
        assertEquals(LIVE, checkpointer.stateEntriesVisited(), "the full checkpoint reads every entry once");

        // one batch's worth: 6 values rewritten, 2 entries deleted, 2 inserted
        final long[] changed = {7919, 7919 * 2, 7919 * 3, 7919 * 50_000L, 7919 * 99_999L, 7919 * 100_000L, 7919 * 10, 7919 * 11, 5, 6};
        for (int i = 0; i < 6; i++)
        {
            state.put(0, changed[i], -state.get(0, changed[i]));
        }
        state.put(0, changed[6], 0);
        state.put(0, changed[7], 0);
        state.put(0, changed[8], 55);
        state.put(0, changed[9], 66);
        final long visitedBefore = checkpointer.stateEntriesVisited();
        final long writtenBefore = checkpointer.entriesWritten();

        checkpointer.take(state, 2, 2, new long[0]);

        assertEquals(10, checkpointer.stateEntriesVisited() - visitedBefore, "the increment reads the changed keys, not the table");
        assertEquals(10, checkpointer.entriesWritten() - writtenBefore);
        final Checkpoint increment = CheckpointFile.read(checkpointer.store().file(2, false), CHAIN);
        final long[] expected = changed.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, increment.tables().get(0).keys(), "the changed keys, ascending");
        assertFalse(increment.tables().get(0).whole());
        assertEquals(0, increment.tables().get(0).values()[Arrays.binarySearch(expected, 7919 * 10)], "a deleted key as the initial value");
        assertEquals(0, increment.tables().get(1).keys().length, "an untouched table writes nothing");

        final ChangeTrackingState restored = store(kind, catalog());
        Checkpointer.resume(settings(100), CHAIN, catalog(), e -> { throw new AssertionError(e); }).restore(restored);
        assertEquals(StateDump.toString(catalog(), state), StateDump.toString(catalog(), restored));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"map", "multi-version"})
    void shouldWriteATableWholeWhenItsChangeLogOverflowsAndRestoreItWithoutTheKeysDeletedMeanwhile(final String kind) throws IOException
    {
        final int live = 20_000;
        final ChangeTrackingState state = store(kind, catalog());
        for (long k = 0; k < live; k++)
        {
            state.put(0, k, k + 1);
            state.put(1, k, k);
        }
        final Checkpointer checkpointer = Checkpointer.start(settings(100), CHAIN, catalog());
        checkpointer.restore(state);
        checkpointer.take(state, 1, 1, new long[0]);
        // table 0: three quarters deleted, more than its log may hold (half its live entries); table 1: a few changes
        for (long k = 0; k < live * 3 / 4; k++)
        {
            state.put(0, k, 0);
        }
        state.put(0, live + 5, 9);
        state.put(1, 3, 333);
        state.put(1, 4, -1);
        assertEquals(-1, state.changedKeyCount(0), "the log gave up");
        assertEquals(2, state.changedKeyCount(1));
        final long wholeBefore = checkpointer.tablesWrittenWhole();

        checkpointer.take(state, 2, 2, new long[0]);

        assertEquals(1, checkpointer.tablesWrittenWhole() - wholeBefore, "only the overflowed table is written whole");
        final Checkpoint increment = CheckpointFile.read(checkpointer.store().file(2, false), CHAIN);
        assertTrue(increment.tables().get(0).whole());
        assertEquals(live / 4 + 1, increment.tables().get(0).keys().length);
        assertFalse(increment.tables().get(1).whole());
        assertEquals(2, increment.tables().get(1).keys().length);
        assertTrue(state.changedKeyCount(0) == 0 && state.changedKeyCount(1) == 0, "the logs start again after a checkpoint");

        // a further increment on top of the whole section
        state.put(0, live - 1, 4242);
        state.put(0, 1, 1);
        checkpointer.take(state, 3, 3, new long[0]);

        final ChangeTrackingState restored = store(kind, catalog());
        Checkpointer.resume(settings(100), CHAIN, catalog(), e -> { throw new AssertionError(e); }).restore(restored);
        assertEquals(StateDump.toString(catalog(), state), StateDump.toString(catalog(), restored));
        assertEquals(0, restored.get(0, 2), "deleted while the log had overflowed: not brought back by the full checkpoint's entry");
    }

    @Test
    void shouldBoundTheChangeLogToAShareOfTheLiveEntries()
    {
        final ChangedKeyLog log = new ChangedKeyLog(ChangedKeyLog.MIN_LIMIT);
        log.reset(1_000_000);
        assertEquals(1_000_000 / ChangedKeyLog.LIVE_SHARE_DIVISOR, log.limit());
        for (long k = 0; k <= log.limit(); k++)
        {
            log.changed(k);
        }
        assertTrue(log.overflowed());
        assertEquals(0, log.size());
        log.reset(10);
        assertEquals(ChangedKeyLog.MIN_LIMIT, log.limit(), "a small table's log may still hold its minimum");
        assertFalse(log.overflowed());
    }

    @Test
    void shouldCheckpointAChronicleTableWithoutACopyOfItsEntriesInTheHeapAndRestoreItExactly() throws IOException
    {
        final TableCatalog catalog = catalog();
        final Function<Path, KeysRefused> open = path -> new KeysRefused(
            new ChronicleStateBackend(catalog, new boolean[] {true, false}, new long[] {2 * LIVE, 0}, path));
        try (KeysRefused chronicle = open.apply(null); KeysRefused fresh = open.apply(null))
        {
            final MultiVersionStateTable state = new MultiVersionStateTable(catalog, TableStores.of(new StateBackend[] {chronicle, null}));
            for (long k = 1; k <= LIVE; k++)
            {
                state.put(0, k, k * 3);
            }
            state.put(1, 1, 1);
            final Checkpointer checkpointer = Checkpointer.start(settings(3), CHAIN, catalog);
            checkpointer.restore(state);

            checkpointer.take(state, 1, 1, new long[0]);

            assertEquals(LIVE + 1, checkpointer.stateEntriesVisited(), "the full checkpoint streamed the store's entries");
            for (int c = 2; c <= 4; c++)
            {
                // a few changes per checkpoint: deleted, rewritten, inserted; checkpoint 4 is full again (LIVE - 3 + 3 entries, and table 1)
                state.put(0, c, 0);
                state.put(0, c * 1000L, -7);
                state.put(0, LIVE + c, c);
                final long visited = checkpointer.stateEntriesVisited();
                checkpointer.take(state, c, c, new long[0]);
                assertEquals(c == 4 ? LIVE + 1 : 3, checkpointer.stateEntriesVisited() - visited, "checkpoint " + c);
            }
            assertEquals(0, chronicle.keysTaken, "no checkpoint took the store's keys into the heap");
            assertTrue(checkpointer.heapKeySlots() < 100, "the checkpointer holds a sort array of the changed keys only: "
                + checkpointer.heapKeySlots());
            final long logSlots = state.changeLogSlots();
            assertTrue(logSlots <= MultiVersionStateTable.SHARDS * 2L * 16 * 2, "the change logs hold the changed keys only: " + logSlots
                + " slots for " + LIVE + " entries");

            final MultiVersionStateTable restored = new MultiVersionStateTable(catalog, TableStores.of(new StateBackend[] {fresh, null}));
            Checkpointer.resume(settings(3), CHAIN, catalog, e -> { throw new AssertionError(e); }).restore(restored);
            assertEquals(StateDump.toString(catalog, state), StateDump.toString(catalog, restored));
        }
    }

    /** A store that counts the times its keys were taken into the heap ({@link #keys}), delegating to Chronicle. */
    private static final class KeysRefused implements StateBackend
    {
        private final ChronicleStateBackend chronicle;
        int keysTaken;

        KeysRefused(final ChronicleStateBackend chronicle)
        {
            this.chronicle = chronicle;
        }

        @Override
        public void load(final KeyBatch batch)
        {
            chronicle.load(batch);
        }

        @Override
        public void store(final KeyBatch batch)
        {
            chronicle.store(batch);
        }

        @Override
        public long get(final int table, final long key)
        {
            return chronicle.get(table, key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            chronicle.put(table, key, value);
        }

        @Override
        public long size(final int table)
        {
            return chronicle.size(table);
        }

        @Override
        public long[] keys(final int table)
        {
            keysTaken++;
            return chronicle.keys(table);
        }

        @Override
        public void forEachEntry(final int table, final StateReader.EntryVisitor visitor)
        {
            chronicle.forEachEntry(table, visitor);
        }

        @Override
        public void clear(final int table)
        {
            chronicle.clear(table);
        }

        @Override
        public String describe()
        {
            return chronicle.describe();
        }

        @Override
        public void close()
        {
            chronicle.close();
        }
    }
}
