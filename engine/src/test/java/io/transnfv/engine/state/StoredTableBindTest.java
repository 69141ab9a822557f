package io.transnfv.engine.state;

import io.transnfv.engine.state.store.KeyBatch;
import io.transnfv.engine.state.store.StateBackend;
import io.transnfv.engine.state.store.StateStoreException;
import io.transnfv.engine.state.store.TableStores;
import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the state table binds a stored table's keys from its store and writes them back, counted
 * on an in-memory store: every touched key (targets, parameters, CHOOSE candidates) is loaded
 * once per batch in one call, only the keys that changed go back in one call, the heap keeps no
 * stored key between batches, and heap tables never reach a store.
 */
class StoredTableBindTest
{
    private static final int STORED = 0;
    private static final int HEAP = 1;

    private TableCatalog catalog;
    private CountingStore store;
    private MultiVersionStateTable state;

    @BeforeEach
    void setUp()
    {
        catalog = new TableCatalog();
        catalog.add("v", new TableSpec("stored", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "in the store"));
        catalog.add("v", new TableSpec("heap", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "in the heap"));
        store = new CountingStore();
    }

    /** Opens the state table over the store as it is now (a warm store's keys count in its size). */
    private void open()
    {
        state = new MultiVersionStateTable(catalog, TableStores.of(new StateBackend[] {store, null}));
    }

    @Test
    void shouldLoadEveryTouchedKeyOnceInOneCallAndWriteBackOnlyTheChanged()
    {
        store.values.put(1, 10);
        store.values.put(2, 20);
        open();
        final TransactionLog log = new TransactionLog();
        for (int t = 0; t < 3; t++)
        {
            log.begin(t, t, null);
            log.write(STORED, 1, 11);
            log.readModify(STORED, 3, (current, ctx) -> current + 1, 0);
            log.param(STORED, 2);
            log.read(HEAP, 7);
            log.choose(STORED, ctx -> 0, (current, ctx) -> current, 0);
            log.candidate(4);
            log.candidate(2);
            log.end();
        }
        state.bindStores(log);
        assertEquals(1, store.loads, "one load per batch: one round trip for a remote store");
        assertEquals(List.of(1L, 3L, 2L, 4L), store.loadedKeys, "targets, parameters and candidates, each once; never heap keys");
        assertEquals(10, state.get(STORED, 1), "bound: read from the heap shards");
        state.put(STORED, 1, 11);
        state.put(STORED, 3, 1);
        state.put(STORED, 2, 0);
        state.releaseStores();
        assertEquals(1, store.stores);
        assertEquals(List.of(1L, 3L, 2L), store.storedKeys, "keys 4 (unchanged) is not written back");
        assertEquals(11, store.values.get(1));
        assertEquals(1, store.values.get(3));
        assertEquals(store.values.missingValue(), store.values.get(2), "the initial value deletes the key in the store");
        assertEquals(2, state.size(STORED), "a stored table's size is the store's");
        assertEquals(11, state.get(STORED, 1), "between batches: read from the store");
        assertFalse(state.storesBound());
    }

    @Test
    void shouldNeitherBindNorWriteBackAHeapOnlyBatch()
    {
        open();
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(HEAP, 5, 50);
        log.end();
        state.bindStores(log);
        state.put(HEAP, 5, 50);
        state.releaseStores();
        assertEquals(0, store.loadedKeys.size());
        assertEquals(0, store.storedKeys.size());
        assertEquals(50, state.get(HEAP, 5));
        assertEquals(0, store.gets, "heap tables never reach a store");
    }

    @Test
    void shouldForgetTheBoundKeysWhenTheStoreFailsToTakeTheWriteBack()
    {
        open();
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(STORED, 9, 90);
        log.end();
        state.bindStores(log);
        state.put(STORED, 9, 90);
        store.failStores = true;
        assertThrows(StateStoreException.class, state::releaseStores);
        assertFalse(state.storesBound(), "the run stops; the table no longer claims keys the store may not hold");
        store.failStores = false;
        assertEquals(0, state.get(STORED, 9), "reads go to the store, which never took the write");
    }

    /** A store in a map, counting its calls. */
    private static final class CountingStore implements StateBackend
    {
        final Long2LongHashMap values = new Long2LongHashMap(64, 0L);
        final List<Long> loadedKeys = new ArrayList<>();
        final List<Long> storedKeys = new ArrayList<>();
        int loads;
        int stores;
        int gets;
        boolean failStores;

        @Override
        public void load(final KeyBatch batch)
        {
            loads++;
            for (int i = 0; i < batch.tableCount(); i++)
            {
                for (int k = 0; k < batch.count(i); k++)
                {
                    loadedKeys.add(batch.keys(i)[k]);
                    batch.values(i)[k] = values.get(batch.keys(i)[k]);
                }
            }
        }

        @Override
        public void store(final KeyBatch batch)
        {
            if (failStores)
            {
                throw new StateStoreException("the test's store is down");
            }
            stores++;
            for (int i = 0; i < batch.tableCount(); i++)
            {
                for (int k = 0; k < batch.count(i); k++)
                {
                    storedKeys.add(batch.keys(i)[k]);
                    put(batch.table(i), batch.keys(i)[k], batch.values(i)[k]);
                }
            }
        }

        @Override
        public long get(final int table, final long key)
        {
            gets++;
            return values.get(key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            if (value == 0)
            {
                values.remove(key);
            }
            else
            {
                values.put(key, value);
            }
        }

        @Override
        public long size(final int table)
        {
            return values.size();
        }

        @Override
        public long[] keys(final int table)
        {
            return values.keys();
        }

        @Override
        public void clear(final int table)
        {
            values.clear();
        }

        @Override
        public String describe()
        {
            return "counting";
        }

        @Override
        public void close()
        {
        }
    }
}
