package io.transnfv.engine.state;

/**
 * One shard of one table's committed values: an open-addressing map from {@code long} key
 * to {@code long} value with linear probing and backward-shift deletion, whose values are
 * addressed by a stable <em>value index</em> while a batch runs, so that executors read and
 * write committed values in place, with no hashing.
 *
 * <pre>
 *  slots: long[2 × capacity + 2]   [key | value][key | value] ... [   | value of FREE_KEY]
 *         value index = 2 × slot + 1;  key FREE_KEY marks an empty slot, and the key that
 *         happens to equal it lives in the last pair
 * </pre>
 *
 * <p>Between batches no entry holds the table's initial value (storing it deletes the key).
 * During a batch, binding may insert a key with the initial value; the collapse deletes it
 * again if it still holds it. Owned by one thread at a time: the binder and collapser of its
 * shard, executors in between (each value index written by one executor at a time).
 */
final class TableShard
{
    /** The key that marks an empty slot. */
    static final long FREE_KEY = Long.MIN_VALUE;
    /** {@link #valueIndex} result for an absent key. */
    static final int MISSING = -1;

    private static final int INITIAL_CAPACITY = 16;

    final long initialValue;
    /**
     * True for the per-table holder that read-only keys absent from the committed state are
     * bound to: it holds nothing but the initial value and is never written.
     */
    final boolean absentHolder;
    long[] slots;
    private int mask;
    private int size;
    private int resizeThreshold;
    private boolean freeKeyPresent;
    private int generation;

    TableShard(final long initialValue, final boolean absentHolder)
    {
        this.initialValue = initialValue;
        this.absentHolder = absentHolder;
        allocate(absentHolder ? 1 : INITIAL_CAPACITY);
        if (absentHolder)
        {
            slots[slots.length - 1] = initialValue;
        }
    }

    /** @return the number of keys held. */
    int size()
    {
        return size + (freeKeyPresent ? 1 : 0);
    }

    /** @return a counter that changes whenever value indices move (a rehash). */
    int generation()
    {
        return generation;
    }

    /** @return {@code key}'s value index, or {@link #MISSING}. */
    int valueIndex(final long key)
    {
        if (key == FREE_KEY)
        {
            return freeKeyPresent ? slots.length - 1 : MISSING;
        }
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final long k = slots[slot << 1];
            if (k == key)
            {
                return (slot << 1) + 1;
            }
            if (k == FREE_KEY)
            {
                return MISSING;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @return {@code key}'s value index, inserting the key with the initial value if absent
     *         (which may move every value index: see {@link #generation()}).
     */
    int insert(final long key)
    {
        if (key == FREE_KEY)
        {
            if (!freeKeyPresent)
            {
                freeKeyPresent = true;
                slots[slots.length - 1] = initialValue;
            }
            return slots.length - 1;
        }
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final long k = slots[slot << 1];
            if (k == key)
            {
                return (slot << 1) + 1;
            }
            if (k == FREE_KEY)
            {
                slots[slot << 1] = key;
                slots[(slot << 1) + 1] = initialValue;
                if (++size > resizeThreshold)
                {
                    rehash(mask + 1 << 1);
                    return valueIndex(key);
                }
                return (slot << 1) + 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** @return the value of {@code key}, or the initial value if absent. */
    long get(final long key)
    {
        final int index = valueIndex(key);
        return index == MISSING ? initialValue : slots[index];
    }

    /** Sets {@code key}; the initial value deletes it. */
    void put(final long key, final long value)
    {
        if (value == initialValue)
        {
            remove(key);
        }
        else
        {
            // insert first: it may rehash into a new array
            final int index = insert(key);
            slots[index] = value;
        }
    }

    /** Removes {@code key} if present. */
    void remove(final long key)
    {
        if (key == FREE_KEY)
        {
            freeKeyPresent = false;
            return;
        }
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        while (true)
        {
            final long k = slots[slot << 1];
            if (k == FREE_KEY)
            {
                return;
            }
            if (k == key)
            {
                slots[slot << 1] = FREE_KEY;
                size--;
                compactChain(slot);
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Appends every key held to {@code out} from {@code from} on.
     *
     * @return the index after the last key written.
     */
    int keys(final long[] out, final int from)
    {
        int n = from;
        final long[] slots = this.slots;
        for (int i = 0; i < slots.length - 2; i += 2)
        {
            if (slots[i] != FREE_KEY)
            {
                out[n++] = slots[i];
            }
        }
        if (freeKeyPresent)
        {
            out[n++] = FREE_KEY;
        }
        return n;
    }

    private void compactChain(final int deleted)
    {
        final long[] slots = this.slots;
        final int mask = this.mask;
        int hole = deleted;
        int slot = (deleted + 1) & mask;
        while (slots[slot << 1] != FREE_KEY)
        {
            final int home = hash(slots[slot << 1]) & mask;
            // move the entry back into the hole unless its home lies cyclically in (hole, slot]
            if ((slot < home && (home <= hole || hole <= slot)) || (home <= hole && hole <= slot))
            {
                slots[hole << 1] = slots[slot << 1];
                slots[(hole << 1) + 1] = slots[(slot << 1) + 1];
                slots[slot << 1] = FREE_KEY;
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
        generation++;
    }

    private void rehash(final int capacity)
    {
        final long[] old = slots;
        final long freeKeyValue = old[old.length - 1];
        allocate(capacity);
        final long[] slots = this.slots;
        final int mask = this.mask;
        for (int i = 0; i < old.length - 2; i += 2)
        {
            final long key = old[i];
            if (key != FREE_KEY)
            {
                int slot = hash(key) & mask;
                while (slots[slot << 1] != FREE_KEY)
                {
                    slot = (slot + 1) & mask;
                }
                slots[slot << 1] = key;
                slots[(slot << 1) + 1] = old[i + 1];
            }
        }
        slots[slots.length - 1] = freeKeyValue;
        generation++;
    }

    private void allocate(final int capacity)
    {
        slots = new long[2 * capacity + 2];
        for (int i = 0; i < slots.length - 2; i += 2)
        {
            slots[i] = FREE_KEY;
        }
        mask = capacity - 1;
        resizeThreshold = (int)(capacity * 0.625);
    }

    private static int hash(final long key)
    {
        final long h = key * 0x9E3779B97F4A7C15L;
        return (int)(h ^ (h >>> 32));
    }

    @Override
    public String toString()
    {
        return "TableShard{size=" + size() + ", capacity=" + (mask + 1) + ", initial=" + initialValue + "}";
    }
}
