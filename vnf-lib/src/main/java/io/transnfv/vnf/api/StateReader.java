package io.transnfv.vnf.api;

/**
 * Reads committed state outside a transaction: in a {@link StateChecker}, and as the
 * read half of {@link StateMaintenance}. Only where nothing else runs.
 */
public interface StateReader
{
    /** Receives entries from {@link #forEach}. */
    @FunctionalInterface
    interface EntryVisitor
    {
        /** Called once per entry, in ascending key order. */
        void visit(long key, long value);
    }

    /** @return the value of {@code key} in one of the VNF's tables (the table's initial value if absent). */
    long get(int table, long key);

    /**
     * Visits every entry of {@code table} in ascending key order, over a snapshot of its
     * keys.
     */
    void forEach(int table, EntryVisitor visitor);

    /**
     * @return the number of entries of {@code table} (keys not at the initial value). This default
     *         counts them with {@link #forEach}; stores override it with what they keep.
     */
    default int size(final int table)
    {
        final int[] n = new int[1];
        forEach(table, (key, value) -> n[0]++);
        return n[0];
    }
}
