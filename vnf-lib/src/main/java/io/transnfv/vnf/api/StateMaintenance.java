package io.transnfv.vnf.api;

/**
 * Direct access to committed state for {@link Vnf#expire}. It runs alone, between two
 * transactions, so reads and writes here need no transaction.
 */
public interface StateMaintenance
{
    /** Receives entries from {@link #forEach}. */
    @FunctionalInterface
    interface EntryVisitor
    {
        /** Called once per entry, in ascending key order. */
        void visit(long key, long value);
    }

    /** @return the value of {@code key} in one of the VNF's tables. */
    long get(int table, long key);

    /** Sets {@code key}; the table's initial value deletes the entry. */
    void put(int table, long key, long value);

    /**
     * Visits every entry of {@code table} in ascending key order, over a snapshot of its
     * keys: the visitor may {@link #put} into any table, including this one.
     */
    void forEach(int table, EntryVisitor visitor);

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
