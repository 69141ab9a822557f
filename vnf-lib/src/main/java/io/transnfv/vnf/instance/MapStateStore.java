package io.transnfv.vnf.instance;

import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.ActivityClock;
import io.transnfv.vnf.api.StateMaintenance;


/**
 * Single-version committed state, one open-addressing map per table: the serial oracle's
 * and the VNF harness's store. Owned by one thread.
 */
public final class MapStateStore implements StateStore, StateMaintenance
{
    private final TableCatalog catalog;
    private final Long2LongHashMap[] tables;
    /** Per table, its expiry index if it declares an activity clock, else null. */
    private final ExpiryQueue[] expiry;

    /** @param catalog the tables; its size must not change afterwards. */
    public MapStateStore(final TableCatalog catalog)
    {
        this.catalog = catalog;
        this.tables = new Long2LongHashMap[catalog.size()];
        this.expiry = new ExpiryQueue[catalog.size()];
        for (int i = 0; i < tables.length; i++)
        {
            // the map grows past 5/8 full: room for the expected entries at once
            final long expected = catalog.expectedEntries(i);
            final int capacity = expected == 0 ? 1024 : Integer.highestOneBit((int)Math.min(1 << 29, (long)Math.ceil(expected / 0.6))) << 1;
            tables[i] = new Long2LongHashMap(capacity, catalog.spec(i).initialValue());
            final ActivityClock clock = catalog.spec(i).activity();
            expiry[i] = clock == null ? null : new ExpiryQueue(clock);
        }
    }

    @Override
    public long get(final int table, final long key)
    {
        return tables[table].get(key);
    }

    @Override
    public void put(final int table, final long key, final long value)
    {
        final Long2LongHashMap map = tables[table];
        final long old = map.put(key, value);
        final ExpiryQueue queue = expiry[table];
        if (queue != null && old == map.missingValue() && value != old)
        {
            queue.inserted(key);
        }
    }

    @Override
    public void forEachDue(final int table, final long cutoff, final EntryVisitor visitor)
    {
        final ExpiryQueue queue = expiry[table];
        if (queue == null)
        {
            forEach(table, visitor);
            return;
        }
        queue.visitDue(cutoff, table, this, tables[table].missingValue(), visitor);
    }

    /** @return {@code table}'s expiry index, or null if it declares no activity clock. */
    public ExpiryQueue expiry(final int table)
    {
        return expiry[table];
    }

    @Override
    public void forEach(final int table, final EntryVisitor visitor)
    {
        final Long2LongHashMap map = tables[table];
        final long[] keys = map.keys();
        SortedKeyVisit.visit(keys, keys.length, table, this, map.missingValue(), visitor);
    }

    /** @return the number of entries of {@code table}. */
    public int size(final int table)
    {
        return tables[table].size();
    }

    /** @return the catalogue this store holds the tables of. */
    public TableCatalog catalog()
    {
        return catalog;
    }

    /** @return the final-state dump of every table (see {@link StateDump}). */
    public String dump()
    {
        return StateDump.toString(catalog, this);
    }
}
