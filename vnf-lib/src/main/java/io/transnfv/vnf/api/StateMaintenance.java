package io.transnfv.vnf.api;

/**
 * Direct access to committed state for {@link Vnf#expire}. It runs alone, between two
 * transactions, so reads and writes here need no transaction. {@link #forEach} visits over a
 * snapshot of the table's keys: the visitor may {@link #put} into any table, including the one
 * visited.
 */
public interface StateMaintenance extends StateReader
{
    /** Sets {@code key}; the table's initial value deletes the entry. */
    void put(int table, long key, long value);

    /**
     * Visits, in ascending key order, every entry of {@code table} whose activity time (its
     * {@link TableSpec#activity() clock}) is at most {@code cutoff} when the call begins, reading
     * each value at its visit; the visitor may {@link #put} into any table. A store with an
     * expiry index pays for the entries whose indexed time has passed, not for the table; one
     * without it, or a table without a clock, visits every entry like {@link #forEach}, so a
     * visitor still tests each entry it is given.
     *
     * @param table   the table.
     * @param cutoff  the latest activity time that is due, in the clock's units.
     * @param visitor receives at least every due entry, once each.
     */
    default void forEachDue(final int table, final long cutoff, final EntryVisitor visitor)
    {
        forEach(table, visitor);
    }
}
