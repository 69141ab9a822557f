package io.transnfv.tpg.txn;

import java.util.Arrays;

/**
 * Which tables take new entries: a table that is <em>closed</em> refuses any write that would
 * create an entry (a key at the table's initial value, which means absent, getting another
 * value); updates and deletions of present entries go on. A refused write aborts its
 * transaction with {@link TransactionView#STATE_FULL}, as if the state function had aborted, so
 * every executor refuses the same writes as long as the gate changes only between two
 * transactions of the serial order (the runtime opens and closes tables at its capacity checks,
 * which every executor places at the same packets).
 *
 * <p>An {@link OperationType#ADD} is judged by whether its key was present when the gate was
 * last decided, not by its value before the add (which depends on the order of the adds, and
 * the graph orders none): {@link #admitsAdd} refuses a non-zero delta to a key absent at that
 * check, in a closed table. While a table is closed no ADD can insert, so its keys present now
 * are those present at the check minus those whose sum has since returned to the initial value;
 * {@link #removedByAdd} remembers the latter until the table's next check ({@link #checked}), so a key
 * deleted by its adds is still taken back (docs/design/tpg.md, "ADD and capacity").
 *
 * <p>Written between batches by the thread that runs housekeeping (and the keys removed by
 * adds, by the thread that commits them); read during a batch by the executing threads, which
 * see it through the batch's hand-off. One per executor.
 */
public final class AdmissionGate
{
    private final long[] initial;
    private final boolean[] closed;
    private int closedCount;
    /**
     * Per table, the keys adds took back to the initial value while it was closed, since the last
     * check; null until the first. Per table, since stages (each with its own tables) commit
     * concurrently.
     */
    private final RemovedKeys[] removed;

    /** @param initialValues each table's initial value (the value that means absent), by table id. */
    public AdmissionGate(final long[] initialValues)
    {
        this.initial = initialValues.clone();
        this.closed = new boolean[initialValues.length];
        this.removed = new RemovedKeys[initialValues.length];
    }

    /**
     * @param table the table written.
     * @param old   the target's value before the write.
     * @param value the value to write.
     * @return false if the write would create an entry in a closed table.
     */
    public boolean admits(final int table, final long old, final long value)
    {
        return closedCount == 0 || !closed[table] || old != initial[table] || value == initial[table];
    }

    /**
     * Judges an {@link OperationType#ADD} of {@code delta} to {@code key} of {@code table}.
     *
     * @param batchStartValue the key's value when the batch started (the serial schedule: before
     *                       this add); with the keys {@link #removedByAdd} since the last check it
     *                       tells whether the key was present at that check.
     * @return false if the add would create an entry in a closed table: a non-zero delta to a key
     *         absent at the last check.
     */
    public boolean admitsAdd(final int table, final long key, final long batchStartValue, final long delta)
    {
        return closedCount == 0 || !closed[table] || delta == 0 || batchStartValue != initial[table]
            || (removed[table] != null && removed[table].contains(key));
    }

    /**
     * Tells the gate that adds took {@code key} of {@code table} from {@code before} to
     * {@code after}; remembered until the next check if that removed the key from a closed table.
     * By the thread that applies the table's committed adds, between its batches (the serial
     * schedule: as it goes).
     */
    public void removedByAdd(final int table, final long key, final long before, final long after)
    {
        if (closedCount == 0 || !closed[table] || after != initial[table] || before == initial[table])
        {
            return;
        }
        if (removed[table] == null)
        {
            removed[table] = new RemovedKeys();
        }
        removed[table].add(key);
    }

    /**
     * A capacity check decides the gate anew: forgets the keys adds removed since the last one
     * (every key present now was present at this check). Call before {@link #close}.
     */
    public void checked()
    {
        for (final RemovedKeys keys : removed)
        {
            if (keys != null)
            {
                keys.clear();
            }
        }
    }

    /**
     * A capacity check decides {@code table} anew (a check that judges some tables only, such as
     * one tenant's): forgets the keys adds removed from it since its last check. Call before
     * {@link #close}.
     */
    public void checked(final int table)
    {
        if (removed[table] != null)
        {
            removed[table].clear();
        }
    }

    /** @return keys adds removed from closed {@code table} since the last check. */
    public int removedSinceCheck(final int table)
    {
        return removed[table] == null ? 0 : removed[table].count;
    }

    /** Opens or closes {@code table} to new entries. */
    public void close(final int table, final boolean close)
    {
        if (closed[table] != close)
        {
            closed[table] = close;
            closedCount += close ? 1 : -1;
        }
    }

    /** @return true if {@code table} refuses new entries. */
    public boolean closed(final int table)
    {
        return closed[table];
    }

    /** @return the number of tables. */
    public int tables()
    {
        return closed.length;
    }

    /** An open-addressing set of keys; grows, never shrinks. */
    private static final class RemovedKeys
    {
        private long[] keys = new long[16];
        private boolean[] used = new boolean[16];
        private int count;

        boolean contains(final long key)
        {
            if (count == 0)
            {
                return false;
            }
            final int mask = keys.length - 1;
            for (int i = slot(key, mask); used[i]; i = (i + 1) & mask)
            {
                if (keys[i] == key)
                {
                    return true;
                }
            }
            return false;
        }

        void add(final long key)
        {
            if ((count + 1) * 2 > keys.length)
            {
                grow();
            }
            final int mask = keys.length - 1;
            int i = slot(key, mask);
            while (used[i])
            {
                if (keys[i] == key)
                {
                    return;
                }
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = key;
            count++;
        }

        void clear()
        {
            if (count > 0)
            {
                Arrays.fill(used, false);
                count = 0;
            }
        }

        private void grow()
        {
            final long[] oldKeys = keys;
            final boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            count = 0;
            for (int j = 0; j < oldKeys.length; j++)
            {
                if (oldUsed[j])
                {
                    add(oldKeys[j]);
                }
            }
        }

        private static int slot(final long key, final int mask)
        {
            return (int)((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        }
    }
}
