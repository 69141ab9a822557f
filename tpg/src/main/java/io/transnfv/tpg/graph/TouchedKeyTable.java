package io.transnfv.tpg.graph;

import java.util.Arrays;

/**
 * Maps the (table, key) pairs a batch touches to dense ids 0, 1, 2, ... in first-touch
 * order. Open addressing with linear probing; {@link #clear()} walks only the slots the
 * batch touched, so its cost follows the batch, not the key space or the table's capacity.
 * Capacity is a power of two and doubles while warming up. Not thread-safe: owned by the
 * graph's building thread.
 *
 * <pre>
 *  slots: long[2 × capacity]   [key | table << 32 | id + 1][key | ...] ...
 *         one probe touches one cache line (the key and its id side by side); 0 = empty
 * </pre>
 */
public final class TouchedKeyTable
{
    /** Returned by {@link #find} for a pair not touched in this batch. */
    public static final int MISSING = -1;

    private long[] slots;
    private int mask;

    private int size;
    private int[] idTable;
    private long[] idKey;
    private int[] idSlot;

    private long slotsCleared;

    /** @param initialCapacity a power of two, at least 2. */
    public TouchedKeyTable(final int initialCapacity)
    {
        if (initialCapacity < 2 || Integer.bitCount(initialCapacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + initialCapacity);
        }
        allocateSlots(initialCapacity);
        idTable = new int[initialCapacity / 2];
        idKey = new long[initialCapacity / 2];
        idSlot = new int[initialCapacity / 2];
    }

    /**
     * @return the id of {@code (table, key)}, assigning the next dense id on first touch.
     */
    public int idOf(final int table, final long key)
    {
        return idOf(table, key, hash(table, key));
    }

    /**
     * @param hash {@link #hash(int, long)} of the pair, when the caller has it already.
     * @return the id of {@code (table, key)}, assigning the next dense id on first touch.
     */
    public int idOf(final int table, final long key, final long hash)
    {
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = (int)hash & mask;
        while (true)
        {
            final long meta = slots[2 * slot + 1];
            if (meta == 0)
            {
                return insert(slot, table, key);
            }
            if (slots[2 * slot] == key && (int)(meta >>> 32) == table)
            {
                return (int)meta - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** @return the id of {@code (table, key)}, or {@link #MISSING}. */
    public int find(final int table, final long key)
    {
        int slot = (int)hash(table, key) & mask;
        while (true)
        {
            final long meta = slots[2 * slot + 1];
            if (meta == 0)
            {
                return MISSING;
            }
            if (slots[2 * slot] == key && (int)(meta >>> 32) == table)
            {
                return (int)meta - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** @return the number of pairs touched since the last {@link #clear()}. */
    public int size()
    {
        return size;
    }

    /** @return the table of pair {@code id}. */
    public int table(final int id)
    {
        return idTable[id];
    }

    /** @return the key of pair {@code id}. */
    public long key(final int id)
    {
        return idKey[id];
    }

    /** @return the number of hash slots (for tests: it must not follow the key space). */
    public int capacity()
    {
        return mask + 1;
    }

    /** @return how many slots every {@link #clear()} so far has walked, in total. */
    public long slotsCleared()
    {
        return slotsCleared;
    }

    /** Forgets every pair by walking only the touched slots. */
    public void clear()
    {
        final long[] slots = this.slots;
        final int[] idSlot = this.idSlot;
        for (int id = 0; id < size; id++)
        {
            slots[2 * idSlot[id] + 1] = 0;
        }
        slotsCleared += size;
        size = 0;
    }

    private int insert(final int slot, final int table, final long key)
    {
        final int id = size;
        if (id == idTable.length)
        {
            final int n = id * 2;
            idTable = Arrays.copyOf(idTable, n);
            idKey = Arrays.copyOf(idKey, n);
            idSlot = Arrays.copyOf(idSlot, n);
        }
        idTable[id] = table;
        idKey[id] = key;
        idSlot[id] = slot;
        slots[2 * slot] = key;
        slots[2 * slot + 1] = meta(table, id);
        size = id + 1;
        if (size * 2 > mask + 1)
        {
            growSlowPath();
        }
        return id;
    }

    private void growSlowPath()
    {
        allocateSlots((mask + 1) * 2);
        for (int id = 0; id < size; id++)
        {
            int slot = (int)hash(idTable[id], idKey[id]) & mask;
            while (slots[2 * slot + 1] != 0)
            {
                slot = (slot + 1) & mask;
            }
            slots[2 * slot] = idKey[id];
            slots[2 * slot + 1] = meta(idTable[id], id);
            idSlot[id] = slot;
        }
    }

    private void allocateSlots(final int capacity)
    {
        slots = new long[2 * capacity];
        mask = capacity - 1;
    }

    private static long meta(final int table, final int id)
    {
        return (long)table << 32 | (id + 1L);
    }

    /**
     * The hash of a (table, key) pair: its low bits pick a slot here, its top bits pick the
     * pair's shard ({@link #shardOf}), so the two stay independent.
     */
    public static long hash(final int table, final long key)
    {
        long h = (key ^ ((long)table << 56 | (long)table * 0xC2B2AE3D27D4EB4FL)) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 32);
    }

    /**
     * @param hash      {@link #hash(int, long)} of a pair.
     * @param shardBits log2 of the number of shards (0 for one).
     * @return the pair's shard, from the hash's top bits.
     */
    public static int shardOf(final long hash, final int shardBits)
    {
        return shardBits == 0 ? 0 : (int)(hash >>> (64 - shardBits));
    }
}
