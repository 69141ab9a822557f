package io.transnfv.engine.state;

import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.instance.TableCatalog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Committed state plus one batch's versions. Between batches it is a plain single-version
 * store ({@link #get}, {@link #put}, {@link #forEach}). During a batch each touched key is
 * bound to a dense id with its committed value as the base, and every writing access gets a
 * version slot whose predecessor is the previous writing access of the same key in serial
 * order (timestamp, sequence, statement):
 *
 * <pre>
 *  key k:  base ◄── slot 17 ◄── slot 4 ◄── slot 31        (previous links, serial order)
 *                   LIVE 7      REMOVED     EMPTY
 *  read(k, 31's previous = 4)  ──► 4 removed ──► 17 live ──► 7
 *  endBatch: k := read(k, last slot of k)                (collapse to last live version)
 * </pre>
 *
 * <p>A version is created by {@link #write} (its position is its slot), a read sees the
 * latest live version at or before a given slot ({@link #read}), an abort removes exactly its
 * transaction's slots ({@link #remove}), and {@link #endBatch()} collapses each touched key to
 * its last live version. Nothing per key survives the batch except the committed value, and
 * every per-batch cost is proportional to the batch's keys and slots.
 *
 * <p>Threads: {@link #beginBatch}, {@link #bindKey}, {@link #bindSlot}, {@link #endBatch} and the
 * committed-state methods by one coordinating thread; {@link #read}, {@link #write} and
 * {@link #remove} by executors, each slot written by one executor, and read only after a
 * happens-before edge from its writer (the graph's dependencies provide it).
 */
public final class MultiVersionStateTable implements StateStore, StateMaintenance
{
    /** "No previous version": a read falls back to the key's committed base. */
    public static final int NO_SLOT = -1;

    private static final int EMPTY = 0;
    private static final int LIVE = 1;
    private static final int REMOVED = 2;
    private static final VarHandle STATES = MethodHandles.arrayElementVarHandle(int[].class);

    private final TableCatalog catalog;
    private final Long2LongHashMap[] committed;

    private int keyCount;
    private int[] keyTable = new int[64];
    private long[] keyKey = new long[64];
    private long[] keyBase = new long[64];
    private int[] keyLastSlot = new int[64];

    private int slotCount;
    private int[] slotPrevious = new int[256];
    private long[] slotValue = new long[256];
    private int[] slotState = new int[256];

    private boolean batchOpen;
    private long keysCollapsed;
    private long slotsReset;

    /** @param catalog the tables, by dense global id; its size must not change afterwards. */
    public MultiVersionStateTable(final TableCatalog catalog)
    {
        this.catalog = catalog;
        this.committed = new Long2LongHashMap[catalog.size()];
        for (int i = 0; i < committed.length; i++)
        {
            committed[i] = new Long2LongHashMap(1024, catalog.spec(i).initialValue());
        }
    }

    /** @return the catalogue of the tables held. */
    public TableCatalog catalog()
    {
        return catalog;
    }

    // ---------------------------------------------------------------- committed state

    /** Committed value of {@code key} (the table's initial value if absent). */
    @Override
    public long get(final int table, final long key)
    {
        return committed[table].get(key);
    }

    /** Sets the committed value; only between batches. The initial value deletes the entry. */
    @Override
    public void put(final int table, final long key, final long value)
    {
        requireNoBatch();
        committed[table].put(key, value);
    }

    @Override
    public void forEach(final int table, final EntryVisitor visitor)
    {
        requireNoBatch();
        final Long2LongHashMap map = committed[table];
        for (final long key : map.sortedKeys())
        {
            final long value = map.get(key);
            if (value != map.missingValue())
            {
                visitor.visit(key, value);
            }
        }
    }

    /** @return the number of committed entries of {@code table} (keys not at the initial value). */
    public int size(final int table)
    {
        return committed[table].size();
    }

    // ---------------------------------------------------------------- batch layout

    /**
     * Opens a batch that touches {@code keys} keys and has {@code slots} version slots (slot
     * ids 0 .. slots - 1, of which only bound ones are used). Cost: O(slots).
     */
    public void beginBatch(final int keys, final int slots)
    {
        requireNoBatch();
        if (keyTable.length < keys)
        {
            final int n = capacityFor(keys);
            keyTable = new int[n];
            keyKey = new long[n];
            keyBase = new long[n];
            keyLastSlot = new int[n];
        }
        if (slotState.length < slots)
        {
            final int n = capacityFor(slots);
            slotPrevious = new int[n];
            slotValue = new long[n];
            slotState = new int[n];
        }
        else
        {
            Arrays.fill(slotState, 0, slots, EMPTY);
        }
        slotsReset += slots;
        keyCount = keys;
        slotCount = slots;
        batchOpen = true;
    }

    /** Binds dense id {@code keyId} to {@code (table, key)}; its committed value becomes the base. */
    public void bindKey(final int keyId, final int table, final long key)
    {
        keyTable[keyId] = table;
        keyKey[keyId] = key;
        keyBase[keyId] = committed[table].get(key);
        keyLastSlot[keyId] = NO_SLOT;
    }

    /**
     * Declares version slot {@code slot} of key {@code keyId}, after {@code previousSlot} in
     * serial order. Slots of one key must be bound in serial order: the last one bound is the
     * one {@link #endBatch()} collapses to (or, if removed, its live predecessor).
     */
    public void bindSlot(final int slot, final int keyId, final int previousSlot)
    {
        slotPrevious[slot] = previousSlot;
        keyLastSlot[keyId] = slot;
    }

    // ---------------------------------------------------------------- versions (executors)

    /**
     * @param keyId        the key.
     * @param previousSlot the slot to start from (the reader's previous write), or {@link #NO_SLOT}.
     * @return the latest live version at or before {@code previousSlot}, else the base.
     */
    public long read(final int keyId, final int previousSlot)
    {
        int s = previousSlot;
        while (s != NO_SLOT)
        {
            final int state = (int)STATES.getAcquire(slotState, s);
            if (state == LIVE)
            {
                return slotValue[s];
            }
            if (state == EMPTY)
            {
                throw new IllegalStateException("version slot " + s + " read before it was written or removed");
            }
            s = slotPrevious[s];
        }
        return keyBase[keyId];
    }

    /** Creates the version at {@code slot} with {@code value}. */
    public void write(final int slot, final long value)
    {
        slotValue[slot] = value;
        STATES.setRelease(slotState, slot, LIVE);
    }

    /** Removes the version at {@code slot} (written or not): reads skip to its predecessor. */
    public void remove(final int slot)
    {
        STATES.setRelease(slotState, slot, REMOVED);
    }

    /** Collapses every bound key to its last live version and closes the batch. */
    public void endBatch()
    {
        for (int k = 0; k < keyCount; k++)
        {
            final int last = keyLastSlot[k];
            if (last != NO_SLOT)
            {
                final long value = read(k, last);
                if (value != keyBase[k])
                {
                    committed[keyTable[k]].put(keyKey[k], value);
                }
            }
        }
        keysCollapsed += keyCount;
        closeBatch();
    }

    /** Discards every version of the batch: committed state stays as before it. */
    public void abandonBatch()
    {
        closeBatch();
    }

    /** @return true between {@link #beginBatch} and {@link #endBatch()} / {@link #abandonBatch()}. */
    public boolean batchOpen()
    {
        return batchOpen;
    }

    /** @return keys collapsed by every {@link #endBatch()} so far (cost follows touched keys). */
    public long keysCollapsed()
    {
        return keysCollapsed;
    }

    /** @return version slots reset by every {@link #beginBatch} so far (cost follows the batch). */
    public long slotsReset()
    {
        return slotsReset;
    }

    private void closeBatch()
    {
        keyCount = 0;
        slotCount = 0;
        batchOpen = false;
    }

    private void requireNoBatch()
    {
        if (batchOpen)
        {
            throw new IllegalStateException("a batch is open: committed state is only changed between batches");
        }
    }

    private static int capacityFor(final int n)
    {
        return Math.max(16, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    }
}
