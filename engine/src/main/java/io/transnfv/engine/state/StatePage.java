package io.transnfv.engine.state;

import java.util.Arrays;

/**
 * One page of a table's entries, filled between two batches for the control plane
 * ({@link MultiVersionStateTable#pageInSlotOrder}); read by the asker afterwards. Grows as
 * entries are added; allocates, so never on the packet path.
 */
public final class StatePage
{
    private long[] keys = new long[16];
    private long[] values = new long[16];
    private int size;

    /** Adds an entry. */
    public void add(final long key, final long value)
    {
        if (size == keys.length)
        {
            keys = Arrays.copyOf(keys, size << 1);
            values = Arrays.copyOf(values, size << 1);
        }
        keys[size] = key;
        values[size] = value;
        size++;
    }

    /** Forgets the entries from {@code size} on. */
    void truncate(final int size)
    {
        this.size = Math.min(this.size, size);
    }

    /** @return the number of entries. */
    public int size()
    {
        return size;
    }

    /** @return entry {@code i}'s key. */
    public long key(final int i)
    {
        return keys[i];
    }

    /** @return entry {@code i}'s value. */
    public long value(final int i)
    {
        return values[i];
    }
}
