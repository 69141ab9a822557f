package io.transnfv.vnf.instance;

import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.ActivityClock;


/**
 * Single-version committed state, one open-addressing map per table: the serial oracle's
 * and the VNF harness's store. Every change goes through {@link #put} (the oracle's transactions,
 * housekeeping, restores), which logs the key for checkpoints once {@link #trackChanges} is on.
 * Owned by one thread.
 */
public final class MapStateStore implements StateStore, ChangeTrackingState
{
    private final TableCatalog catalog;
    private final Long2LongHashMap[] tables;
    /** Per table, its expiry index if it declares an activity clock, else null. */
    private final ExpiryQueue[] expiry;
    /** Per table, the keys changed since the last checkpoint; null until {@link #trackChanges}. */
    private ChangedKeyLog[] changes;

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
        if (changes != null && old != value)
        {
            changes[table].changed(key);
        }
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

    @Override
    public boolean trackChanges()
    {
        if (changes != null)
        {
            return true;
        }
        changes = new ChangedKeyLog[tables.length];
        for (int t = 0; t < tables.length; t++)
        {
            changes[t] = new ChangedKeyLog(ChangedKeyLog.MIN_LIMIT);
            changes[t].reset(tables[t].size());
        }
        return false;
    }

    @Override
    public int changedKeyCount(final int table)
    {
        return changes == null || changes[table].overflowed() ? -1 : changes[table].size();
    }

    @Override
    public void copyChangedKeys(final int table, final long[] out)
    {
        changes[table].copyTo(out, 0);
    }

    @Override
    public void forgetChanges(final int table)
    {
        if (changes != null)
        {
            changes[table].reset(tables[table].size());
        }
    }

    @Override
    public void forEachEntry(final int table, final EntryVisitor visitor)
    {
        tables[table].forEach(visitor::visit);
    }

    @Override
    public long changeLogSlots()
    {
        long slots = 0;
        if (changes != null)
        {
            for (final ChangedKeyLog log : changes)
            {
                slots += log.capacity();
            }
        }
        return slots;
    }

    /** @return the number of entries of {@code table}. */
    @Override
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
