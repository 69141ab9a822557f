package io.transnfv.tpg.collections;

import java.util.Arrays;

/**
 * An open-addressing set of {@code long}s with linear probing. Capacity is a power of two and
 * doubles when the load factor passes 5/8; {@link #clear()} keeps it, so a set that is filled and
 * cleared over and over allocates nothing once it has grown to its working size. Every value,
 * {@code Long.MIN_VALUE} included, may be a member (that one is kept beside the table). No
 * removal of single members. Not thread-safe.
 */
public final class LongHashSet
{
    private static final long FREE = Long.MIN_VALUE;

    private long[] slots;
    private int mask;
    private int size;
    private int resizeThreshold;
    private boolean freePresent;

    /** @param initialCapacity a power of two, at least 2. */
    public LongHashSet(final int initialCapacity)
    {
        if (initialCapacity < 2 || Integer.bitCount(initialCapacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + initialCapacity);
        }
        allocate(initialCapacity);
    }

    /** @return the number of members. */
    public int size()
    {
        return size + (freePresent ? 1 : 0);
    }

    /** @return the number of slots (memory: 8 bytes each). */
    public int capacity()
    {
        return slots.length;
    }

    /**
     * Adds {@code value}.
     *
     * @return true if it was not a member yet.
     */
    public boolean add(final long value)
    {
        if (value == FREE)
        {
            final boolean added = !freePresent;
            freePresent = true;
            return added;
        }
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = Long2LongHashMap.hash(value) & mask;
        while (true)
        {
            final long member = slots[slot];
            if (member == FREE)
            {
                slots[slot] = value;
                if (++size > resizeThreshold)
                {
                    rehash(slots.length << 1);
                }
                return true;
            }
            if (member == value)
            {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** @return true if {@code value} is a member. */
    public boolean contains(final long value)
    {
        if (value == FREE)
        {
            return freePresent;
        }
        int slot = Long2LongHashMap.hash(value) & mask;
        while (true)
        {
            final long member = slots[slot];
            if (member == FREE)
            {
                return false;
            }
            if (member == value)
            {
                return true;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Appends every member to {@code out} from {@code from} on, in no particular order.
     *
     * @return the index after the last member written.
     */
    public int copyTo(final long[] out, final int from)
    {
        int n = from;
        if (size > 0)
        {
            for (final long member : slots)
            {
                if (member != FREE)
                {
                    out[n++] = member;
                }
            }
        }
        if (freePresent)
        {
            out[n++] = FREE;
        }
        return n;
    }

    /** Removes every member, keeping the capacity (cost: the capacity, once per clear). */
    public void clear()
    {
        if (size > 0)
        {
            Arrays.fill(slots, FREE);
            size = 0;
        }
        freePresent = false;
    }

    private void rehash(final int capacity)
    {
        final long[] old = slots;
        allocate(capacity);
        for (final long member : old)
        {
            if (member != FREE)
            {
                int slot = Long2LongHashMap.hash(member) & mask;
                while (slots[slot] != FREE)
                {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = member;
                size++;
            }
        }
    }

    private void allocate(final int capacity)
    {
        slots = new long[capacity];
        Arrays.fill(slots, FREE);
        mask = capacity - 1;
        size = 0;
        resizeThreshold = capacity / 8 * 5;
    }
}
