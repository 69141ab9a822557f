package io.transnfv.engine.state.store;

import io.transnfv.vnf.api.StateReader;

/**
 * A store that holds some tables' committed state outside the multi-version state table: the
 * table binds each batch's touched keys from it before the batch and writes the changed ones
 * back after it, so the graph and the executors only ever see the heap (see
 * {@link io.transnfv.engine.state.MultiVersionStateTable#bindStores}). Keys and values are
 * {@code long}s; a key absent from the store reads as its table's initial value, and storing the
 * initial value deletes the key, as in the heap.
 *
 * <p>While a run lasts its tables are the run's alone: the state table counts a stored table's
 * entries itself from what it binds and writes back (so that progress reads never reach the
 * store), and a key another writer changes between a batch's bind and its write-back is
 * overwritten.
 *
 * <p>Threads: one at a time, the thread that binds and writes back a batch or, between batches,
 * the one that reads and changes committed state (housekeeping, dumps, checkpoints). A store that
 * cannot answer (a lost connection) throws {@link StateStoreException}: the run stops rather
 * than go on with state that differs from what the store holds.
 */
public interface StateBackend extends AutoCloseable
{
    /**
     * Reads the values of every key of {@code batch} into its values, for the tables of this
     * store; an absent key reads as its table's initial value. A remote store makes one round trip.
     */
    void load(KeyBatch batch);

    /**
     * Writes every key of {@code batch} with its value, for the tables of this store; a key at its
     * table's initial value is deleted. Returns once the store has taken every write.
     */
    void store(KeyBatch batch);

    /** @return the committed value of {@code key} in {@code table}, or its initial value. */
    long get(int table, long key);

    /** Sets {@code key} of {@code table}; the table's initial value deletes it. */
    void put(int table, long key, long value);

    /** @return the number of keys {@code table} holds (keys not at the initial value). */
    long size(int table);

    /** @return every key {@code table} holds, in no particular order. */
    long[] keys(int table);

    /**
     * Visits every entry of {@code table} in no particular order, for a full checkpoint. This
     * default takes the keys ({@link #keys}) and reads each value; a store that can iterate its
     * entries in place overrides it so that nothing the size of the table lands in the heap.
     */
    default void forEachEntry(final int table, final StateReader.EntryVisitor visitor)
    {
        for (final long key : keys(table))
        {
            visitor.visit(key, get(table, key));
        }
    }

    /** Deletes every key of {@code table} (a resume restores the checkpoint into an empty table). */
    void clear(int table);

    /** @return one line for reports, e.g. {@code chronicle, 12 MiB off-heap}. */
    String describe();

    /** Releases the store (files stay, for a warm restart; remote data stays where it is). */
    @Override
    void close();
}
