package io.transnfv.experiments.baselines;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A fixed-capacity open-addressing map from {@code long} to {@code long} that several threads
 * may use at once without locks and without corrupting it: it never resizes and never removes
 * a slot (writing the initial value keeps the slot, which then reads as absent), a slot is
 * claimed for a key by one compare-and-set of the key word, and probing stops after
 * {@code capacity} slots. Key and value sit side by side as in the engine's
 * {@code Long2LongHashMap} (one cache line per probe), with the same hash. Values are plain
 * reads and writes: callers that need more (CHC-style) guard a key with their own lock; callers
 * that do not (No-Lock) get racy but well-formed values.
 *
 * <pre>
 *  entries:  | key 0 | value 0 | key 1 | value 1 | ...      key FREE = never claimed
 *  claim:    CAS key[i] FREE ─► k   (value[i] already holds the initial value)
 * </pre>
 * The one key equal to {@code FREE} is kept in a field of its own.
 */
public final class PreallocatedLongTable
{
    private static final long FREE = Long.MIN_VALUE;
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(long[].class);

    private final long initialValue;
    private final long[] entries;
    private final int mask;
    private volatile boolean freeKeyPresent;
    private long freeKeyValue;

    /**
     * @param capacity     a power of two, at least 2: the most keys the table can ever hold.
     * @param initialValue the value of keys never written.
     */
    public PreallocatedLongTable(final int capacity, final long initialValue)
    {
        if (capacity < 2 || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + capacity);
        }
        this.initialValue = initialValue;
        this.entries = new long[capacity * 2];
        this.mask = capacity - 1;
        for (int i = 0; i < entries.length; i += 2)
        {
            entries[i] = FREE;
            entries[i + 1] = initialValue;
        }
        this.freeKeyValue = initialValue;
    }

    /** @return the value of {@code key}, or the initial value if it was never written. */
    public long get(final long key)
    {
        if (key == FREE)
        {
            return freeKeyValue;
        }
        final int slot = find(key);
        return slot < 0 ? initialValue : entries[(slot << 1) + 1];
    }

    /** Sets {@code key} to {@code value}, claiming a slot for it if it has none. */
    public void put(final long key, final long value)
    {
        if (key == FREE)
        {
            freeKeyValue = value;
            freeKeyPresent = true;
            return;
        }
        entries[(slotOf(key) << 1) + 1] = value;
    }

    /**
     * @return the slot holding {@code key}, claimed for it if it had none.
     * @throws IllegalArgumentException for {@code Long.MIN_VALUE}, which has no slot (see {@link #get}).
     * @throws IllegalStateException if every slot is taken by other keys.
     */
    public int slotOf(final long key)
    {
        if (key == FREE)
        {
            return slotOfSlowPath(key);
        }
        final long[] entries = this.entries;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        for (int probes = 0; probes <= mask; probes++)
        {
            final int i = slot << 1;
            long found = (long)ENTRY.getAcquire(entries, i);
            if (found == FREE)
            {
                found = (long)ENTRY.compareAndExchange(entries, i, FREE, key);
                if (found == FREE)
                {
                    return slot;
                }
            }
            if (found == key)
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return slotOfSlowPath(key);
    }

    private int slotOfSlowPath(final long key)
    {
        if (key == FREE)
        {
            throw new IllegalArgumentException("Long.MIN_VALUE has no slot: use get and put");
        }
        throw new IllegalStateException("preallocated table full at " + (mask + 1) + " keys: raise its capacity");
    }

    /** @return the slot holding {@code key}, or -1 if it has none (always for {@code Long.MIN_VALUE}). */
    public int find(final long key)
    {
        if (key == FREE)
        {
            return -1;
        }
        final long[] entries = this.entries;
        final int mask = this.mask;
        int slot = hash(key) & mask;
        for (int probes = 0; probes <= mask; probes++)
        {
            final long found = (long)ENTRY.getAcquire(entries, slot << 1);
            if (found == key)
            {
                return slot;
            }
            if (found == FREE)
            {
                return -1;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** The same multiplicative hash as the engine's {@code Long2LongHashMap}: same keys, same spread. */
    static int hash(final long key)
    {
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 32;
        return (int)h ^ (int)(h >>> 16);
    }

    /** @return the value in {@code slot}. */
    public long valueAt(final int slot)
    {
        return entries[(slot << 1) + 1];
    }

    /** Sets the value in {@code slot}. */
    public void valueAt(final int slot, final long value)
    {
        entries[(slot << 1) + 1] = value;
    }

    /** @return the value of keys never written. */
    public long initialValue()
    {
        return initialValue;
    }

    /**
     * @return the keys whose value differs from the initial value, ascending. Not for the hot
     *         path: call it only while no thread writes.
     */
    public long[] sortedKeys()
    {
        int n = 0;
        final long[] found = new long[mask + 2];
        if (freeKeyPresent && freeKeyValue != initialValue)
        {
            found[n++] = FREE;
        }
        for (int i = 0; i < entries.length; i += 2)
        {
            if (entries[i] != FREE && entries[i + 1] != initialValue)
            {
                found[n++] = entries[i];
            }
        }
        final long[] sorted = Arrays.copyOf(found, n);
        Arrays.sort(sorted);
        return sorted;
    }
}
