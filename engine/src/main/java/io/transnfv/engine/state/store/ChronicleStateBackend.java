package io.transnfv.engine.state.store;

import io.transnfv.vnf.api.StateReader;

import io.transnfv.vnf.instance.TableCatalog;
import net.openhft.chronicle.map.ChronicleMap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Committed state off the heap, in one Chronicle Map per table: for tables larger than the
 * heap (tens of millions of flows). Each map is sized for its table's expected entries when it
 * is created; with a directory, it lives in the file {@code <vnf>.<table>.cm} there and a later
 * run starts from what the file holds (a warm restart). The file is a cache, not a durable
 * copy: a crash may leave it behind the last batches or damaged, and a resumed run replaces its
 * content with the checkpoint's (checkpoints are the source of truth).
 *
 * <p>Chronicle Map generates and loads classes at run time and reaches into the JDK: on Java 17
 * it needs {@link #JVM_OPTIONS}, which the {@code transnfv} launcher, the jar's manifest and the
 * tests pass. A map that cannot be created says so with the options to add. Keys and values
 * cross as boxed {@code Long}s (the map copies them into its own memory): bind and write-back
 * allocate per touched key, executors never touch the map.
 */
public final class ChronicleStateBackend implements StateBackend
{
    /** The JVM options Chronicle Map needs on Java 17 (also in the launcher, the jar manifest and surefire's argLine). */
    public static final String JVM_OPTIONS = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"
        + " --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED"
        + " --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED"
        + " --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
        + " --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED";
    /** The fewest entries a map is created for (Chronicle sizes its segments from it). */
    static final long MIN_ENTRIES = 1024;
    /** How far past its expected entries a map may grow (slower) before puts fail. */
    static final double MAX_BLOAT = 4.0;

    static
    {
        // Chronicle's libraries report usage over the network unless told not to
        if (System.getProperty("chronicle.analytics.disable") == null)
        {
            System.setProperty("chronicle.analytics.disable", "true");
        }
    }

    private final TableCatalog catalog;
    private final ChronicleMap<Long, Long>[] maps;
    private final long[] initialValues;
    private final Path dir;

    /**
     * Opens (or creates) the map of every table {@code mine} selects.
     *
     * @param catalog the chain's tables.
     * @param mine    per table, true if it lives in this store.
     * @param entries per table, the entries to size its map for (0: {@link #MIN_ENTRIES}).
     * @param dir     the directory the maps persist to, or null for memory only.
     * @throws StateStoreException if a map cannot be created or opened.
     */
    @SuppressWarnings("unchecked")
    public ChronicleStateBackend(final TableCatalog catalog, final boolean[] mine, final long[] entries, final Path dir)
    {
        this.catalog = catalog;
        this.dir = dir;
        this.maps = new ChronicleMap[catalog.size()];
        this.initialValues = new long[catalog.size()];
        try
        {
            if (dir != null)
            {
                Files.createDirectories(dir);
            }
            for (int t = 0; t < catalog.size(); t++)
            {
                initialValues[t] = catalog.spec(t).initialValue();
                if (mine[t])
                {
                    maps[t] = open(catalog.qualifiedName(t), Math.max(MIN_ENTRIES, entries[t]));
                }
            }
        }
        catch (final IOException | RuntimeException | Error e)
        {
            close();
            if (e instanceof StateStoreException sse)
            {
                throw sse;
            }
            throw new StateStoreException("cannot open the chronicle store" + (dir == null ? "" : " in " + dir) + ": " + e
                + "\nfix: Chronicle Map needs a JDK (not a JRE) and, on Java 17, the JVM options " + JVM_OPTIONS
                + " (the transnfv launcher and its jar pass them; add them to a 'java -cp' command line)", e);
        }
    }

    private ChronicleMap<Long, Long> open(final String name, final long entries) throws IOException
    {
        final var builder = ChronicleMap.of(Long.class, Long.class).name(name).entries(entries).maxBloatFactor(MAX_BLOAT);
        return dir == null ? builder.create() : builder.createPersistedTo(dir.resolve(name + ".cm").toFile());
    }

    @Override
    public void load(final KeyBatch batch)
    {
        for (int i = 0; i < batch.tableCount(); i++)
        {
            final int t = batch.table(i);
            final ChronicleMap<Long, Long> map = maps[t];
            final long[] keys = batch.keys(i);
            final long[] values = batch.values(i);
            final long initial = initialValues[t];
            for (int k = 0, n = batch.count(i); k < n; k++)
            {
                final Long value = map.get(keys[k]);
                values[k] = value == null ? initial : value;
            }
        }
    }

    @Override
    public void store(final KeyBatch batch)
    {
        for (int i = 0; i < batch.tableCount(); i++)
        {
            final int t = batch.table(i);
            final long[] keys = batch.keys(i);
            final long[] values = batch.values(i);
            for (int k = 0, n = batch.count(i); k < n; k++)
            {
                put(t, keys[k], values[k]);
            }
        }
    }

    @Override
    public long get(final int table, final long key)
    {
        final Long value = maps[table].get(key);
        return value == null ? initialValues[table] : value;
    }

    @Override
    public void put(final int table, final long key, final long value)
    {
        final ChronicleMap<Long, Long> map = maps[table];
        try
        {
            if (value == initialValues[table])
            {
                map.remove(key);
            }
            else
            {
                map.put(key, value);
            }
        }
        catch (final IllegalStateException e)
        {
            throw new StateStoreException("the chronicle map of table " + catalog.qualifiedName(table) + " is full at "
                + map.longSize() + " entries: " + e.getMessage()
                + "\nfix: raise the table's 'expected_entries' in the chain" + (dir == null ? "" : " and delete its file in " + dir
                + " (a persisted map keeps the size it was created with)"), e);
        }
    }

    @Override
    public long size(final int table)
    {
        return maps[table].longSize();
    }

    @Override
    public long[] keys(final int table)
    {
        final ChronicleMap<Long, Long> map = maps[table];
        final long[] keys = new long[(int)Math.min(Integer.MAX_VALUE - 8, map.longSize())];
        final int[] n = {0};
        map.forEachEntry(entry ->
        {
            if (n[0] < keys.length)
            {
                keys[n[0]++] = entry.key().get();
            }
        });
        return n[0] == keys.length ? keys : Arrays.copyOf(keys, n[0]);
    }

    /** Straight from the map's segments: no key array, nothing per entry left in the heap. */
    @Override
    public void forEachEntry(final int table, final StateReader.EntryVisitor visitor)
    {
        maps[table].forEachEntry(entry -> visitor.visit(entry.key().get(), entry.value().get()));
    }

    @Override
    public void clear(final int table)
    {
        maps[table].clear();
    }

    /** @return bytes of off-heap memory the maps use. */
    public long offHeapBytes()
    {
        long bytes = 0;
        for (final ChronicleMap<Long, Long> map : maps)
        {
            bytes += map == null ? 0 : map.offHeapMemoryUsed();
        }
        return bytes;
    }

    @Override
    public String describe()
    {
        return "chronicle, " + (offHeapBytes() >> 20) + " MiB off-heap" + (dir == null ? "" : ", persisted in " + dir);
    }

    @Override
    public void close()
    {
        for (int t = 0; t < maps.length; t++)
        {
            if (maps[t] != null)
            {
                maps[t].close();
                maps[t] = null;
            }
        }
    }
}
