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
}
