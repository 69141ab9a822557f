package io.transnfv.tpg.txn;

/**
 * Committed state as the serial oracle sees it: one {@code long} per (table, key). A key
 * never written reads as its table's initial value, and writing the initial value removes
 * the entry.
 */
public interface StateStore
{
    /** @return the value of {@code key} in {@code table}. */
    long get(int table, long key);

    /** Sets the value of {@code key} in {@code table}. */
    void put(int table, long key, long value);
}
