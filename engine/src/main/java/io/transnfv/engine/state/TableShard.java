package io.transnfv.engine.state;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.tpg.graph.TouchedKeyTable;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.instance.ChangedKeyLog;

import java.util.Arrays;

/**
 * One shard of one table's committed values: an open-addressing map from {@code long} key to
 * {@code long} value with linear probing and backward-shift deletion, the key and its value
 * side by side so that one probe reads one cache line. Each slot also has a <em>mark</em>: the
 * batch that last touched the key and the id the batch's graph gave it, so that the probe that
 * finds a key also tells whether the batch has seen it.
 *
 * <pre>
 *  slots: long[2 × capacity + 2]   [key | value][key | value] ... [   | value of FREE_KEY]
 *  marks: long[capacity + 1]       epoch << 32 | key id          ...  mark of FREE_KEY
 *         key FREE_KEY marks an empty slot; the key that happens to equal it lives in the
 *         last pair, slot {@code capacity}
 * </pre>
 *
 * <p>Slots move only when the map rehashes or deletes, never while a batch runs: a batch may
 * fill the map up to {@link #batchLimit()} without a rehash (the table grows between batches,
 * see {@link #prepareForBatch()}), and deletions wait for the end of the batch. So executors
 * address a key's value by its slot, with no hashing.
 *
 * <p>Slots are chosen by the low bits of the (table, key) hash the graph computes
 * ({@link TouchedKeyTable#hash}); its top bits chose the shard. Between batches no entry holds
 * the table's initial value (storing it deletes the key); during a batch every touched key is
 * present, and the collapse deletes the ones left at the initial value. Owned by one thread at
 * a time: the builder and collapser of its graph shard, executors in between (each value
 * written by one executor at a time).
 */
final class TableShard
{
    /** The key that marks an empty slot. */
    static final long FREE_KEY = Long.MIN_VALUE;
    /** {@link #find} result for an absent key. */
    static final int MISSING = -1;

    private static final int INITIAL_CAPACITY = 16;
    /** Load the map grows at between batches ({@link EngineConfiguration#STATE_LOAD_PERCENT}). */
    private static final double LOAD = EngineConfiguration.STATE_LOAD_PERCENT / 100.0;
    /** Load a batch may fill the map to ({@link EngineConfiguration#STATE_BATCH_LOAD_PERCENT}). */
    private static final double BATCH_LOAD = EngineConfiguration.STATE_BATCH_LOAD_PERCENT / 100.0;

    final int table;
    final long initialValue;
    long[] slots;
    long[] marks;
    private int mask;
    private int size;
    private int resizeThreshold;
    private int batchLimit;
    private boolean freeKeyPresent;
    private final int maxCapacity;
    /** Bytes of slot and mark arrays allocated so far, the first ones included: the shard's growth. */
    long bytesAllocated;
    /** The last batch epoch that {@link #prepareForBatch()} ran for (set by the caller). */
    int preparedEpoch;
    /** Keys inserted since the last expiry sweep, for a table with an expiry index; else null. */
    private long[] inserted;
    private int insertedCount;
    /** Keys whose committed value changed since the last checkpoint, logged by whoever changes them; null without checkpoints. */
    ChangedKeyLog changes;

    /**
     * @param maxCapacity most slots the shard may have (a power of two): its slot must fit a location.
     * @param expected    keys to make room for at once (the table's expected entries over its
     *                    shards; a margin for uneven shards is added here), 0 to start small and grow.
     */
    TableShard(final int table, final long initialValue, final int maxCapacity, final long expected)
    {
        this.table = table;
        this.initialValue = initialValue;
        this.maxCapacity = maxCapacity;
        int capacity = INITIAL_CAPACITY;
        // shards get keys by hash, so some get more than their share: an eighth more, and four
        // standard deviations of the count (a small share varies most)
        final long keys = expected == 0 ? 0 : expected + (expected >> 3) + 4 * (long)Math.ceil(Math.sqrt(expected)) + 8;
        while (capacity < maxCapacity && keys >= (long)(capacity * LOAD))
        {
            capacity <<= 1;
        }
        allocate(capacity);
    }

    /** Records every key inserted from now on, for the table's expiry index. */
    void recordInserts()
    {
        inserted = new long[16];
    }

    /** @return keys inserted since the last {@link #clearInserted()} (valid in {@code [0, insertedCount())}). */
    long[] inserted()
    {
        return inserted;
    }

    /** @return how many keys {@link #inserted()} holds. */
    int insertedCount()
    {
        return insertedCount;
    }

    /** Forgets the inserted keys (the expiry index took them). */
    void clearInserted()
    {
        insertedCount = 0;
    }

    private void recordInsert(final long key)
    {
        if (inserted != null)
        {
            if (insertedCount == inserted.length)
            {
                inserted = Arrays.copyOf(inserted, insertedCount << 1);
            }
            inserted[insertedCount++] = key;
        }
    }

    /** @return the number of keys held. */
    int size()
    {
        return size + (freeKeyPresent ? 1 : 0);
    }

    /** @return the number of slots (the FREE_KEY slot's index). */
    int capacity()
    {
        return mask + 1;
    }

    /** @return true if a batch may insert another key without a rehash. */
    boolean hasRoomInBatch()
    {
        return size < batchLimit;
    }

    /** @return how many keys the map may hold before a batch must not insert more. */
    int batchLimit()
    {
        return batchLimit;
    }

    /** Between batches: grows the map if the last batches filled it past its resize threshold. */
    void prepareForBatch()
    {
        if (size > resizeThreshold)
        {
            grow(size);
        }
    }

    /** Between batches: grows the map so that {@code inserts} more keys fit a batch. */
    void reserve(final int inserts)
    {
        if (size + inserts >= batchLimit)
        {
            grow(size + inserts);
        }
    }

    /** @return the key in the home slot of {@code hash} (where a probe for it starts): one load, for {@link MultiVersionStateTable#prefetch}. */
    long homeSlotKey(final long hash)
    {
        return slots[((int)hash & mask) << 1];
    }

    /** @return {@code key}'s slot, or {@link #MISSING}. */
    int find(final long key, final long hash)
    {
        if (key == FREE_KEY)
        {
            return freeKeyPresent ? mask + 1 : MISSING;
        }
        final int slot = probe(key, hash);
        return slot >= 0 ? slot : MISSING;
    }

    /** @return {@code key}'s slot (not {@link #FREE_KEY}) if present, else {@code ~} the empty slot where it would go. */
    private int probe(final long key, final long hash)
    {
        final long[] slots = this.slots;
        final int mask = this.mask;
        int slot = (int)hash & mask;
        while (true)
        {
            final long k = slots[slot << 1];
            if (k == key)
            {
                return slot;
            }
            if (k == FREE_KEY)
            {
                return ~slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * @return {@code key}'s slot, inserting the key with the initial value (and a zero mark) if
     *         absent. Inside a batch the caller checks {@link #hasRoomInBatch()} first: then no
     *         slot moves.
     */
    int insert(final long key, final long hash)
    {
        if (key == FREE_KEY)
        {
            if (!freeKeyPresent)
            {
                freeKeyPresent = true;
                slots[slots.length - 1] = initialValue;
                marks[mask + 1] = 0;
                recordInsert(key);
            }
            return mask + 1;
        }
        final int found = probe(key, hash);
        if (found >= 0)
        {
            return found;
        }
        final int slot = ~found;
        slots[slot << 1] = key;
        slots[(slot << 1) + 1] = initialValue;
        marks[slot] = 0;
        size++;
        recordInsert(key);
        return slot;
    }

    /** @return the value of {@code key}, or the initial value if absent. */
    long get(final long key, final long hash)
    {
        final int slot = find(key, hash);
        return slot == MISSING ? initialValue : slots[(slot << 1) + 1];
    }

    /** Between batches: sets {@code key}; the initial value deletes it. */
    void put(final long key, final long hash, final long value)
    {
        if (value == initialValue)
        {
            remove(key, hash);
            return;
        }
        if (size >= resizeThreshold)
        {
            grow(size + 1);
        }
        slots[(insert(key, hash) << 1) + 1] = value;
    }

    /** @return the value at {@code slot}. */
    long value(final int slot)
    {
        return slots[(slot << 1) + 1];
    }

    /** Sets the value at {@code slot}. */
    void value(final int slot, final long value)
    {
        slots[(slot << 1) + 1] = value;
    }

    /** @return the key at {@code slot}. */
    long key(final int slot)
    {
        return slot == mask + 1 ? FREE_KEY : slots[slot << 1];
    }

    /** Removes {@code key} if present (moves other keys: not while a batch still needs its slots). */
    void remove(final long key, final long hash)
    {
        if (key == FREE_KEY)
        {
            freeKeyPresent = false;
            return;
        }
        final int slot = probe(key, hash);
        if (slot >= 0)
        {
            slots[slot << 1] = FREE_KEY;
            size--;
            compactChain(slot);
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

    /** Visits every entry held, in slot order (no copy; the visitor must not change the shard). */
    void forEach(final StateReader.EntryVisitor visitor)
    {
        final long[] slots = this.slots;
        for (int i = 0; i < slots.length - 2; i += 2)
        {
            if (slots[i] != FREE_KEY)
            {
                visitor.visit(slots[i], slots[i + 1]);
            }
        }
        if (freeKeyPresent)
        {
            visitor.visit(FREE_KEY, slots[slots.length - 1]);
        }
    }

    /**
     * Appends to {@code page} every entry whose home slot (where its probe starts) is
     * {@code bucket}, and at bucket 0 the {@link #FREE_KEY} entry if held: one step of a slot-order
     * page ({@link MultiVersionStateTable#pageInSlotOrder}). Linear probing keeps a key between its
     * home slot and the next empty slot, so the walk stops there. Between batches only.
     */
    void bucketEntries(final int bucket, final StatePage page)
    {
        if (bucket == 0 && freeKeyPresent)
        {
            page.add(FREE_KEY, slots[slots.length - 1]);
        }
        final long[] slots = this.slots;
        final int mask = this.mask;
        for (int slot = bucket; ; slot = (slot + 1) & mask)
        {
            final long k = slots[slot << 1];
            if (k == FREE_KEY)
            {
                return;
            }
            if (((int)TouchedKeyTable.hash(table, k) & mask) == bucket)
            {
                page.add(k, slots[(slot << 1) + 1]);
            }
        }
    }

    /** Forgets every mark (the epoch wrapped around). */
    void clearMarks()
    {
        Arrays.fill(marks, 0L);
    }

    private void compactChain(final int deleted)
    {
        final long[] slots = this.slots;
        final long[] marks = this.marks;
        final int mask = this.mask;
        int hole = deleted;
        int slot = (deleted + 1) & mask;
        while (slots[slot << 1] != FREE_KEY)
        {
            final int home = (int)TouchedKeyTable.hash(table, slots[slot << 1]) & mask;
            // move the entry back into the hole unless its home lies cyclically in (hole, slot]
            if ((slot < home && (home <= hole || hole <= slot)) || (home <= hole && hole <= slot))
            {
                slots[hole << 1] = slots[slot << 1];
                slots[(hole << 1) + 1] = slots[(slot << 1) + 1];
                marks[hole] = marks[slot];
                slots[slot << 1] = FREE_KEY;
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void grow(final int keys)
    {
        int capacity = mask + 1;
        while (keys >= (int)(capacity * LOAD))
        {
            capacity <<= 1;
        }
        if (capacity > maxCapacity)
        {
            throw new IllegalStateException("table " + table + ": a shard would need " + capacity
                + " slots; at most " + maxCapacity + " fit a state location (too many keys, or too many tables)");
        }
        if (capacity != mask + 1)
        {
            rehash(capacity);
        }
    }

    private void rehash(final int capacity)
    {
        final long[] old = slots;
        final long[] oldMarks = marks;
        final int oldCapacity = mask + 1;
        allocate(capacity);
        final long[] slots = this.slots;
        final long[] marks = this.marks;
        final int mask = this.mask;
        for (int i = 0; i < oldCapacity; i++)
        {
            final long key = old[i << 1];
            if (key != FREE_KEY)
            {
                int slot = (int)TouchedKeyTable.hash(table, key) & mask;
                while (slots[slot << 1] != FREE_KEY)
                {
                    slot = (slot + 1) & mask;
                }
                slots[slot << 1] = key;
                slots[(slot << 1) + 1] = old[(i << 1) + 1];
                marks[slot] = oldMarks[i];
            }
        }
        slots[slots.length - 1] = old[old.length - 1];
        marks[mask + 1] = oldMarks[oldCapacity];
    }

    private void allocate(final int capacity)
    {
        bytesAllocated += (3L * capacity + 3) * Long.BYTES;
        slots = new long[2 * capacity + 2];
        marks = new long[capacity + 1];
        for (int i = 0; i < slots.length - 2; i += 2)
        {
            slots[i] = FREE_KEY;
        }
        mask = capacity - 1;
        resizeThreshold = (int)(capacity * LOAD);
        batchLimit = (int)(capacity * BATCH_LOAD);
    }

    @Override
    public String toString()
    {
        return "TableShard{table=" + table + ", size=" + size() + ", capacity=" + (mask + 1) + ", initial=" + initialValue + "}";
    }
}
