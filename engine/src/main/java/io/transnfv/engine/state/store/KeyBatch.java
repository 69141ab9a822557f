package io.transnfv.engine.state.store;

import java.util.Arrays;

/**
 * Keys of several tables and a value for each: what a batch binds from a {@link StateBackend}
 * (keys in, values out) or writes back to it (keys and values in). Flat arrays per table, grown
 * by doubling and reused batch after batch; owned by the thread that binds and writes back.
 *
 * <pre>
 *  table i (global id tables[i]):  keys[i]   [k0][k1][k2] ... [k count(i)-1]
 *                                  values[i] [v0][v1][v2] ...
 * </pre>
 */
public final class KeyBatch
{
    private final int[] tables;
    private final long[][] keys;
    private final long[][] values;
    private final int[] counts;

    /** @param tables the global ids of the tables this batch holds keys of, each once. */
    public KeyBatch(final int[] tables)
    {
        this.tables = tables.clone();
        this.keys = new long[tables.length][16];
        this.values = new long[tables.length][16];
        this.counts = new int[tables.length];
    }

    /** @return how many tables this batch holds keys of. */
    public int tableCount()
    {
        return tables.length;
    }

    /** @return the global id of the batch's {@code i}-th table. */
    public int table(final int i)
    {
        return tables[i];
    }

    /** @return the number of keys of the {@code i}-th table. */
    public int count(final int i)
    {
        return counts[i];
    }

    /** @return the keys of the {@code i}-th table, valid in {@code [0, count(i))}. */
    public long[] keys(final int i)
    {
        return keys[i];
    }

    /** @return the values of the {@code i}-th table, by key index, valid in {@code [0, count(i))}. */
    public long[] values(final int i)
    {
        return values[i];
    }

    /** @return the total number of keys, all tables. */
    public int size()
    {
        int n = 0;
        for (final int count : counts)
        {
            n += count;
        }
        return n;
    }

    /**
     * Appends {@code key} with {@code value} to the {@code i}-th table.
     *
     * @return the key's index in its table.
     */
    public int add(final int i, final long key, final long value)
    {
        final int n = counts[i];
        if (n == keys[i].length)
        {
            keys[i] = Arrays.copyOf(keys[i], n << 1);
            values[i] = Arrays.copyOf(values[i], n << 1);
        }
        keys[i][n] = key;
        values[i][n] = value;
        counts[i] = n + 1;
        return n;
    }

    /** Forgets every key (the arrays stay). */
    public void clear()
    {
        Arrays.fill(counts, 0);
    }
}
