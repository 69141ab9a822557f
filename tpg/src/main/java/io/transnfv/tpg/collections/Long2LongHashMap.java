package io.transnfv.tpg.collections;

import java.util.Arrays;

/**
 * An open-addressing map from {@code long} to {@code long} with linear probing and
 * backward-shift deletion (no tombstones). A value equal to {@link #missingValue()} means
 * "absent": {@code put(k, missingValue)} removes {@code k}. Capacity is a power of two and
 * doubles when the load factor passes 5/8. Not thread-safe.
 */
public final class Long2LongHashMap
{
    /** Receives entries from {@link #forEach}. */
    @FunctionalInterface
    public interface EntryConsumer
    {
        /** Called once per entry. */
        void accept(long key, long value);
    }

    private final long missingValue;
    private long[] entries; // key at 2i, value at 2i + 1; value == missingValue marks a free slot
    private int mask;
    private int size;
    private int resizeThreshold;

    /**
     * @param initialCapacity a power of two, at least 2.
     * @param missingValue    the value that means "absent".
     */
    public Long2LongHashMap(final int initialCapacity, final long missingValue)
    {
        if (initialCapacity < 2 || Integer.bitCount(initialCapacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + initialCapacity);
        }
        this.missingValue = missingValue;
        allocate(initialCapacity);
    }

    /** @return the value that means "absent". */
    public long missingValue()
    {
        return missingValue;
    }

    /** @return the number of entries. */
    public int size()
    {
        return size;
    }

    /** @return the value of {@code key}, or {@link #missingValue()}. */
    public long get(final long key)
    {
        final long[] entries = this.entries;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final long value = entries[(slot << 1) + 1];
            if (value == missingValue)
            {
                return missingValue;
            }
            if (entries[slot << 1] == key)
            {
                return value;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Sets {@code key} to {@code value}; a value equal to {@link #missingValue()} removes it.
     *
     * @return the previous value, or {@link #missingValue()}.
     */
    public long put(final long key, final long value)
    {
        if (value == missingValue)
        {
            return remove(key);
        }
        final long[] entries = this.entries;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final int i = slot << 1;
            final long old = entries[i + 1];
            if (old == missingValue)
            {
                entries[i] = key;
                entries[i + 1] = value;
                if (++size > resizeThreshold)
                {
                    rehash(entries.length); // doubles: entries.length == 2 * capacity
                }
                return missingValue;
            }
            if (entries[i] == key)
            {
                entries[i + 1] = value;
                return old;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Removes {@code key}.
     *
     * @return its value, or {@link #missingValue()} if it was absent.
     */
    public long remove(final long key)
    {
        final long[] entries = this.entries;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final int i = slot << 1;
            final long value = entries[i + 1];
            if (value == missingValue)
            {
                return missingValue;
            }
            if (entries[i] == key)
            {
                entries[i + 1] = missingValue;
                size--;
                compactChain(slot);
                return value;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Removes every entry, keeping the capacity. */
    public void clear()
    {
        if (size > 0)
        {
            for (int i = 1; i < entries.length; i += 2)
            {
                entries[i] = missingValue;
            }
            size = 0;
        }
    }

    /** Calls {@code consumer} for every entry, in slot order. The map must not change meanwhile. */
    public void forEach(final EntryConsumer consumer)
    {
        final long[] entries = this.entries;
        for (int i = 0; i < entries.length; i += 2)
        {
            final long value = entries[i + 1];
            if (value != missingValue)
            {
                consumer.accept(entries[i], value);
            }
        }
    }

    /** @return every key, in slot order (a snapshot; allocates). */
    public long[] keys()
    {
        final long[] keys = new long[size];
        int n = 0;
        for (int i = 0; i < entries.length; i += 2)
        {
            if (entries[i + 1] != missingValue)
            {
                keys[n++] = entries[i];
            }
        }
        return keys;
    }

    /** @return every key, sorted ascending (for stable dumps; allocates). */
    public long[] sortedKeys()
    {
        final long[] keys = new long[size];
        int n = 0;
        for (int i = 0; i < entries.length; i += 2)
        {
            if (entries[i + 1] != missingValue)
            {
                keys[n++] = entries[i];
            }
        }
        Arrays.sort(keys);
        return keys;
    }

    private void compactChain(final int deleted)
    {
        final long[] entries = this.entries;
        final int mask = this.mask;
        int hole = deleted;
        int slot = (deleted + 1) & mask;
        while (entries[(slot << 1) + 1] != missingValue)
        {
            final int home = hash(entries[slot << 1]) & mask;
            // move the entry back into the hole unless its home lies cyclically in (hole, slot]
            if ((slot < home && (home <= hole || hole <= slot)) || (home <= hole && hole <= slot))
            {
                entries[hole << 1] = entries[slot << 1];
                entries[(hole << 1) + 1] = entries[(slot << 1) + 1];
                entries[(slot << 1) + 1] = missingValue;
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void rehash(final int newCapacity)
    {
        final long[] old = entries;
        allocate(newCapacity);
        size = 0;
        for (int i = 0; i < old.length; i += 2)
        {
            if (old[i + 1] != missingValue)
            {
                put(old[i], old[i + 1]);
            }
        }
    }

    private void allocate(final int capacity)
    {
        entries = new long[capacity * 2];
        if (missingValue != 0L)
        {
            for (int i = 1; i < entries.length; i += 2)
            {
                entries[i] = missingValue;
            }
        }
        mask = capacity - 1;
        resizeThreshold = (int)(capacity * 0.625);
    }

    static int hash(final long key)
    {
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 32;
        return (int)h ^ (int)(h >>> 16);
    }
}
