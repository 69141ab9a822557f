package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.ActivityClock;
import io.transnfv.vnf.api.StateMaintenance;

import java.util.Arrays;

/**
 * One table's expiry index, the same in every state store so that the serial oracle and the
 * engine expire the same keys in the same order: a binary min-heap of (activity time, key)
 * entries, read lazily. A store reports each key it inserts ({@link #inserted}); the first sweep
 * after that indexes the key at its value's activity time. A sweep pops the entries whose time is
 * at most the cutoff, re-reads each key's current value, visits the keys that are still due in
 * ascending key order ({@link SortedKeyVisit}) and re-indexes every popped key that is still
 * present at its current time. So a sweep costs the entries whose indexed time has passed (those
 * that expire, and live ones refreshed since they were indexed, about once per timeout), times
 * the heap's log, never the whole table.
 *
 * <pre>
 *  put / insert ──► pending keys ──(next sweep)──► heap (time, key) ──pop time ≤ cutoff──►
 *      absent: drop   ·   current time ≤ cutoff: due   ·   later: re-index at that time
 *  due keys ──sort, dedupe──► visitor (value read at the visit) ──► still present: re-index
 * </pre>
 *
 * <p>A key deleted and inserted again before its old entry pops has two entries until the old
 * one pops; both point at the same key, so visits stay once per key. Between batches only, on
 * the thread that owns the store.
 */
public final class ExpiryQueue
{
    private final ActivityClock clock;
    private long[] times = new long[64];
    private long[] keys = new long[64];
    private int size;
    private long[] pending = new long[64];
    private int pendingCount;
    private long[] due = new long[64];
    private long popped;

    /** @param clock how the table's values say when they were last active. */
    public ExpiryQueue(final ActivityClock clock)
    {
        this.clock = clock;
    }

    /** Records that {@code key} was inserted (absent before); it is indexed at the next sweep. */
    public void inserted(final long key)
    {
        if (pendingCount == pending.length)
        {
            pending = Arrays.copyOf(pending, pendingCount << 1);
        }
        pending[pendingCount++] = key;
    }

    /**
     * Visits every present entry whose activity time is at most {@code cutoff}, in ascending key
     * order (see {@link StateMaintenance#forEachDue}).
     *
     * @param cutoff  the latest due activity time.
     * @param table   the table this queue indexes.
     * @param store   the store holding the table, read at each step and visit.
     * @param initial the table's initial value (an entry holding it is absent).
     * @param visitor receives each due entry once.
     */
    public void visitDue(
        final long cutoff, final int table, final StateMaintenance store, final long initial,
        final StateMaintenance.EntryVisitor visitor)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            final long key = pending[i];
            final long value = store.get(table, key);
            if (value != initial)
            {
                push(clock.activity(value), key);
            }
        }
        pendingCount = 0;
        int dueCount = 0;
        while (size > 0 && times[0] <= cutoff)
        {
            final long key = keys[0];
            pop();
            popped++;
            final long value = store.get(table, key);
            if (value == initial)
            {
                continue;
            }
            final long time = clock.activity(value);
            if (time <= cutoff)
            {
                if (dueCount == due.length)
                {
                    due = Arrays.copyOf(due, dueCount << 1);
                }
                due[dueCount++] = key;
            }
            else
            {
                push(time, key);
            }
        }
        if (dueCount == 0)
        {
            return;
        }
        SortedKeyVisit.visit(due, dueCount, table, store, initial, visitor);
        for (int i = 0; i < dueCount; i++)
        {
            final long key = due[i];
            if (i > 0 && key == due[i - 1])
            {
                continue;
            }
            final long value = store.get(table, key);
            if (value != initial)
            {
                push(clock.activity(value), key);
            }
        }
    }

    /** @return entries in the heap (live keys plus stale ones not yet popped), not counting pending keys. */
    public int indexed()
    {
        return size;
    }

    /** @return keys inserted since the last sweep. */
    public int pending()
    {
        return pendingCount;
    }

    /** @return entries popped by every sweep so far: what expiry has cost. */
    public long popped()
    {
        return popped;
    }

    private void push(final long time, final long key)
    {
        if (size == times.length)
        {
            times = Arrays.copyOf(times, size << 1);
            keys = Arrays.copyOf(keys, size << 1);
        }
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (times[parent] <= time)
            {
                break;
            }
            times[i] = times[parent];
            keys[i] = keys[parent];
            i = parent;
        }
        times[i] = time;
        keys[i] = key;
    }

    private void pop()
    {
        final int last = --size;
        final long time = times[last];
        final long key = keys[last];
        int i = 0;
        while (true)
        {
            int child = (i << 1) + 1;
            if (child >= last)
            {
                break;
            }
            if (child + 1 < last && times[child + 1] < times[child])
            {
                child++;
            }
            if (times[child] >= time)
            {
                break;
            }
            times[i] = times[child];
            keys[i] = keys[child];
            i = child;
        }
        if (last > 0)
        {
            times[i] = time;
            keys[i] = key;
        }
    }
}
