package io.transnfv.vnf.instance;

import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;


/**
 * Single-version committed state, one open-addressing map per table: the serial oracle's
 * and the VNF harness's store. Owned by one thread.
 */
public final class MapStateStore implements StateStore, StateMaintenance
{
    private final TableCatalog catalog;
    private final Long2LongHashMap[] tables;

    /** @param catalog the tables; its size must not change afterwards. */
    public MapStateStore(final TableCatalog catalog)
    {
        this.catalog = catalog;
        this.tables = new Long2LongHashMap[catalog.size()];
        for (int i = 0; i < tables.length; i++)
        {
            tables[i] = new Long2LongHashMap(1024, catalog.spec(i).initialValue());
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
        tables[table].put(key, value);
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
