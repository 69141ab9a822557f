package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.TableSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every state table of a chain, by global id. Ids are dense and assigned in declaration
 * order, so runtimes can index arrays by table id.
 */
public final class TableCatalog
{
    /** The owner name of a chain's shared tables ({@code VnfSetup.sharedTable}): they print as {@code chain.<table>}. */
    public static final String SHARED_OWNER = "chain";

    private final List<TableSpec> specs = new ArrayList<>();
    private final List<String> owners = new ArrayList<>();
    private final List<Long> expectedEntries = new ArrayList<>();

    /**
     * @param owner the declaring VNF instance's name.
     * @param spec  the table.
     * @return its global id.
     */
    public int add(final String owner, final TableSpec spec)
    {
        for (int i = 0; i < specs.size(); i++)
        {
            if (owners.get(i).equals(owner) && specs.get(i).name().equals(spec.name()))
            {
                throw new IllegalArgumentException(owner + " declares table '" + spec.name() + "' twice");
            }
        }
        specs.add(spec);
        owners.add(owner);
        expectedEntries.add(0L);
        return specs.size() - 1;
    }

    /**
     * Sizes table {@code id} for {@code entries} entries: stores allocate room for them at once
     * instead of growing as keys arrive (growing copies the table and leaves garbage: pauses on a
     * latency-sensitive run). A hint, not a limit: more entries still fit. Set before a store is
     * built on this catalogue.
     */
    public void expectEntries(final int id, final long entries)
    {
        if (entries < 0)
        {
            throw new IllegalArgumentException("expected entries must be >= 0: " + entries);
        }
        expectedEntries.set(id, entries);
    }

    /** @return the entries table {@code id} is sized for, 0 if no size was given. */
    public long expectedEntries(final int id)
    {
        return expectedEntries.get(id);
    }

    /** @return the number of tables. */
    public int size()
    {
        return specs.size();
    }

    /** @return table {@code id}'s declaration. */
    public TableSpec spec(final int id)
    {
        return specs.get(id);
    }

    /** @return the name of the VNF instance that declared table {@code id}. */
    public String owner(final int id)
    {
        return owners.get(id);
    }

    /** @return {@code owner.table}, the name dumps and reports use. */
    public String qualifiedName(final int id)
    {
        return owners.get(id) + "." + specs.get(id).name();
    }

    /** @return the id of {@code owner.table}, or -1. */
    public int find(final String owner, final String table)
    {
        for (int i = 0; i < specs.size(); i++)
        {
            if (owners.get(i).equals(owner) && specs.get(i).name().equals(table))
            {
                return i;
            }
        }
        return -1;
    }

    /** @return every declaration, by id. */
    public List<TableSpec> specs()
    {
        return Collections.unmodifiableList(specs);
    }
}
