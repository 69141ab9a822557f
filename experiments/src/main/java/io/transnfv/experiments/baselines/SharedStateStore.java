package io.transnfv.experiments.baselines;

import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.instance.SortedKeyVisit;
import io.transnfv.vnf.instance.TableCatalog;

/**
 * State shared by every worker of a baseline: one {@link PreallocatedLongTable} per table
 * (all tables for No-Lock; only the cross-flow ones for CHC-style, whose per-flow state lives
 * at the instances). Any thread may call {@link #get} and {@link #put}; they are as safe as the
 * table's values are (see {@link PreallocatedLongTable}). {@link #forEach} only while no
 * worker runs.
 */
public final class SharedStateStore implements StateStore, StateMaintenance
{
    private final PreallocatedLongTable[] tables;

    /**
     * @param catalog          the chain's tables.
     * @param keyCapacity      slots per table, a power of two: the most keys a table may hold.
     * @param crossFlowOnly    whether to hold only the cross-flow tables.
     */
    public SharedStateStore(final TableCatalog catalog, final int keyCapacity, final boolean crossFlowOnly)
    {
        tables = new PreallocatedLongTable[catalog.size()];
        for (int t = 0; t < tables.length; t++)
        {
            if (!crossFlowOnly || catalog.spec(t).scope() == TableScope.CROSS_FLOW)
            {
                tables[t] = new PreallocatedLongTable(keyCapacity, catalog.spec(t).initialValue());
            }
        }
    }

    /** @return whether this store holds {@code table}. */
    public boolean holds(final int table)
    {
        return tables[table] != null;
    }

    /** @return the table with id {@code table}, or null if this store does not hold it. */
    public PreallocatedLongTable table(final int table)
    {
        return tables[table];
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
        final PreallocatedLongTable values = tables[table];
        final long[] keys = values.sortedKeys();
        SortedKeyVisit.visit(keys, keys.length, table, this, values.initialValue(), visitor);
    }
}
