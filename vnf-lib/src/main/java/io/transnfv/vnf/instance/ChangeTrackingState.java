package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.StateMaintenance;

/**
 * Committed state that can tell what changed since the last checkpoint, and stream its tables
 * without copying them: what a checkpointer takes. Change tracking is off until
 * {@link #trackChanges} (a run without checkpoints pays nothing for it); from then on every path
 * that changes a committed value — batch commits, housekeeping (expiry, eviction), puts —
 * logs the key in its table's {@link ChangedKeyLog}. One thread, between batches.
 */
public interface ChangeTrackingState extends StateMaintenance
{
    /**
     * Starts logging changed keys, if not yet on.
     *
     * @return true if it was on already, false if it starts now (nothing is known about the
     *         changes before: the next checkpoint must write every table whole).
     */
    boolean trackChanges();

    /**
     * @return the keys of {@code table} changed since its last {@link #forgetChanges}, or -1 if
     *         they are not known (tracking off, or the log overflowed): write the table whole.
     */
    int changedKeyCount(int table);

    /**
     * Appends the keys of {@code table} changed since its last {@link #forgetChanges} to
     * {@code out}, in no particular order ({@link #changedKeyCount} of them).
     */
    void copyChangedKeys(int table, long[] out);

    /** A checkpoint took {@code table}: its log starts again, bounded by the table's live entries now. */
    void forgetChanges(int table);

    /**
     * Visits every entry of {@code table} in no particular order, straight from where the table
     * lives (heap shards, an off-heap or remote store), without copying its keys first. The
     * visitor must not change state.
     */
    void forEachEntry(int table, EntryVisitor visitor);

    /** @return slots held by every table's change log (8 bytes each): what tracking costs in memory. */
    long changeLogSlots();
}
