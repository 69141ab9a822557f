package io.transnfv.tpg.txn;

/**
 * Which tables take new entries: a table that is <em>closed</em> refuses any write that would
 * create an entry (a key at the table's initial value, which means absent, getting another
 * value); updates and deletions of present entries go on. A refused write aborts its
 * transaction with {@link TransactionView#STATE_FULL}, as if the state function had aborted, so
 * every executor refuses the same writes as long as the gate changes only between two
 * transactions of the serial order (the runtime opens and closes tables at its capacity checks,
 * which every executor places at the same packets).
 *
 * <p>Written between batches by the thread that runs housekeeping; read during a batch by the
 * executing threads, which see it through the batch's hand-off. One per executor.
 */
public final class AdmissionGate
{
    private final long[] initial;
    private final boolean[] closed;
    private int closedCount;

    /** @param initialValues each table's initial value (the value that means absent), by table id. */
    public AdmissionGate(final long[] initialValues)
    {
        this.initial = initialValues.clone();
        this.closed = new boolean[initialValues.length];
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
}
