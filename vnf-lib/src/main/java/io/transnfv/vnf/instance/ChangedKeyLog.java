package io.transnfv.vnf.instance;

import io.transnfv.tpg.collections.LongHashSet;

/**
 * The keys whose committed value changed since the last checkpoint, for one table (or one shard
 * of one): what an incremental checkpoint writes. Bounded: once it holds more than
 * {@link #limit()} keys it gives up ({@link #overflowed()}), forgets them, and the table's next
 * checkpoint writes the whole table instead; the limit is set at every checkpoint from the
 * table's live entries ({@link #reset}), so the log never holds more than a fixed share of the
 * table. An open-addressing set of primitive keys: no allocation per key once it has grown to
 * its working size. Owned by the one thread that changes the table (shard) it logs.
 */
public final class ChangedKeyLog
{
    /**
     * The share of a table's live entries its log may hold before the next checkpoint writes the
     * table whole: one half. Past it, writing each logged key (a lookup per key, then a sort)
     * costs about what streaming every entry costs, and the log would take more memory than it
     * saves.
     */
    public static final int LIVE_SHARE_DIVISOR = 2;
    /** The limit of a small table's log, whatever its live entries. */
    public static final int MIN_LIMIT = 4096;

    private final LongHashSet keys = new LongHashSet(16);
    private final int minLimit;
    private int limit;
    private boolean overflowed;

    /** @param minLimit the least limit, whatever the live entries (per shard: {@link #MIN_LIMIT} over the shards). */
    public ChangedKeyLog(final int minLimit)
    {
        this.minLimit = Math.max(1, minLimit);
        this.limit = this.minLimit;
    }

    /** Logs that {@code key}'s committed value changed. */
    public void changed(final long key)
    {
        if (!overflowed && keys.add(key) && keys.size() > limit)
        {
            overflowed = true;
            keys.clear();
        }
    }

    /** @return true if more keys changed than {@link #limit()} since the last {@link #reset}: log lost, write the table whole. */
    public boolean overflowed()
    {
        return overflowed;
    }

    /** @return the keys logged (0 once overflowed). */
    public int size()
    {
        return keys.size();
    }

    /** @return the most keys the log holds before it overflows. */
    public int limit()
    {
        return limit;
    }

    /** @return slots of the log's set (8 bytes each): its memory, bounded by about 3.2 × {@link #limit()}. */
    public int capacity()
    {
        return keys.capacity();
    }

    /**
     * Appends the logged keys to {@code out} from {@code from} on, in no particular order.
     *
     * @return the index after the last key written.
     */
    public int copyTo(final long[] out, final int from)
    {
        return keys.copyTo(out, from);
    }

    /**
     * A checkpoint took the table: forgets the keys, and sets the limit for the next one.
     *
     * @param liveEntries the entries the table (shard) holds now.
     */
    public void reset(final long liveEntries)
    {
        keys.clear();
        overflowed = false;
        limit = (int)Math.max(minLimit, Math.min(Integer.MAX_VALUE / 4, liveEntries / LIVE_SHARE_DIVISOR));
    }
}
