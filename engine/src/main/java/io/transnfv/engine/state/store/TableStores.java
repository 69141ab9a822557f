package io.transnfv.engine.state.store;

import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The stores of a chain's tables, opened together: per table its {@link StateBackend}, or null
 * for a table in the heap. One backend per kind serves every table of that kind (one Redis
 * connection, one set of Chronicle maps). Closing closes them all. Setup and teardown only.
 */
public final class TableStores implements AutoCloseable
{
    private final StateBackend[] byTable;
    private final List<StateBackend> backends;

    private TableStores(final StateBackend[] byTable, final List<StateBackend> backends)
    {
        this.byTable = byTable;
        this.backends = backends;
    }

    /** @return every table of {@code catalog} in the heap. */
    public static TableStores heap(final TableCatalog catalog)
    {
        return new TableStores(new StateBackend[catalog.size()], List.of());
    }

    /**
     * Stores opened elsewhere: an embedding application's own {@link StateBackend}, or a test's.
     *
     * @param byTable per table, its store, or null for the heap; closing closes each once.
     */
    public static TableStores of(final StateBackend[] byTable)
    {
        final List<StateBackend> distinct = new ArrayList<>();
        for (final StateBackend backend : byTable)
        {
            if (backend != null && !distinct.contains(backend))
            {
                distinct.add(backend);
            }
        }
        return new TableStores(byTable.clone(), Collections.unmodifiableList(distinct));
    }

    /**
     * Opens the stores the tables ask for.
     *
     * @param catalog   the chain's tables (sized: Chronicle maps take their expected entries).
     * @param kinds     per table, its store.
     * @param settings  the chain's store settings.
     * @param chainName the chain's name (the default Redis key prefix).
     * @throws StateStoreException if a store cannot be opened; those already open are closed.
     */
    public static TableStores open(
        final TableCatalog catalog, final StoreKind[] kinds, final StoreSettings settings, final String chainName)
    {
        final int n = catalog.size();
        final boolean[] chronicle = new boolean[n];
        final boolean[] redis = new boolean[n];
        final long[] entries = new long[n];
        boolean anyChronicle = false;
        boolean anyRedis = false;
        for (int t = 0; t < n; t++)
        {
            chronicle[t] = kinds[t] == StoreKind.CHRONICLE;
            redis[t] = kinds[t] == StoreKind.REDIS;
            entries[t] = catalog.expectedEntries(t);
            anyChronicle |= chronicle[t];
            anyRedis |= redis[t];
        }
        final StateBackend[] byTable = new StateBackend[n];
        final List<StateBackend> opened = new ArrayList<>();
        try
        {
            if (anyChronicle)
            {
                final StateBackend backend = new ChronicleStateBackend(catalog, chronicle, entries, settings.chronicleDir());
                opened.add(backend);
                assign(byTable, chronicle, backend);
            }
            if (anyRedis)
            {
                final StateBackend backend = new RedisStateBackend(catalog, redis, settings.redisUrl(),
                    settings.redisPrefix(chainName), settings.redisKeep());
                opened.add(backend);
                assign(byTable, redis, backend);
            }
        }
        catch (final RuntimeException e)
        {
            for (final StateBackend backend : opened)
            {
                backend.close();
            }
            throw e;
        }
        return new TableStores(byTable, Collections.unmodifiableList(opened));
    }

    private static void assign(final StateBackend[] byTable, final boolean[] mine, final StateBackend backend)
    {
        for (int t = 0; t < byTable.length; t++)
        {
            if (mine[t])
            {
                byTable[t] = backend;
            }
        }
    }

    /** @return the number of tables. */
    public int tableCount()
    {
        return byTable.length;
    }

    /** @return table {@code t}'s store, or null if it is in the heap. */
    public StateBackend backend(final int t)
    {
        return byTable[t];
    }

    /**
     * @return {@code ", tables in <store>: a, b"} per store other than the heap, or "" when every
     *         table is in the heap: the part of a run's description that names where state lives.
     * @param catalog the tables, for their names.
     */
    public String describeOutsideHeap(final TableCatalog catalog)
    {
        final StringBuilder out = new StringBuilder();
        for (final StateBackend backend : backends())
        {
            out.append(", tables in ").append(backend.describe()).append(':');
            for (int t = 0; t < tableCount(); t++)
            {
                if (backend(t) == backend)
                {
                    out.append(' ').append(catalog.qualifiedName(t));
                }
            }
        }
        return out.toString();
    }

    /** @return the stores opened, each once (empty when every table is in the heap). */
    public List<StateBackend> backends()
    {
        return backends;
    }

    @Override
    public void close()
    {
        for (final StateBackend backend : backends)
        {
            backend.close();
        }
    }
}
