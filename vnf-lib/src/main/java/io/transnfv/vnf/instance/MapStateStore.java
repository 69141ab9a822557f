package io.transnfv.vnf.instance;

import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableSpec;

import java.io.IOException;
import java.io.UncheckedIOException;

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
        for (final long key : map.sortedKeys())
        {
            final long value = map.get(key);
            if (value != map.missingValue())
            {
                visitor.visit(key, value);
            }
        }
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

    /**
     * Writes every entry as {@code <instance>.<table> <key> <value>}, tables in id order and
     * keys ascending: the stable, diffable final-state form that equivalence is judged on.
     */
    public void dump(final Appendable out)
    {
        try
        {
            for (int t = 0; t < tables.length; t++)
            {
                final String name = catalog.qualifiedName(t);
                final TableSpec spec = catalog.spec(t);
                final Long2LongHashMap map = tables[t];
                for (final long key : map.sortedKeys())
                {
                    out.append(name).append(' ')
                        .append(KeyFormat.format(spec.keyKind(), key)).append(' ')
                        .append(Long.toString(map.get(key))).append('\n');
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@link #dump(Appendable)} as a string. */
    public String dump()
    {
        final StringBuilder sb = new StringBuilder();
        dump(sb);
        return sb.toString();
    }
}
