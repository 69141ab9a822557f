package io.transnfv.tpg.txn;

import java.util.Arrays;

/**
 * Applies one transaction at once to a {@link StateStore}: the reference semantics of the
 * operation model, used by the serial oracle, by the VNF harness and by the engine's serial
 * schedule. Operations run in statement order; if any function aborts (or throws: the
 * transaction then aborts with {@link TransactionView#FAULT}), every write of the
 * transaction is undone and the remaining operations do not run. Between
 * {@link #beginBatch()} and {@link #endBatch()} the undo log keeps the writes of every
 * transaction applied, so that {@link #rollbackBatch()} can put the store back as it was before
 * the batch. One instance per thread; allocation-free once its undo log has grown to the
 * largest transaction (or batch).
 */
public final class SerialApplier extends OperationContext
{
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();
    /** Undo entries up to which a stale read scans the log rather than index it. */
    private static final int INDEX_FROM = 32;

    private int[] undoTable = new int[16];
    private long[] undoKey = new long[16];
    private long[] undoValue = new long[16];
    private int undoCount;
    private int transactionUndoStart;
    /**
     * An index of the undo log's first write of each (table, key), built when a stale read finds a
     * long log and extended as later stale reads come: slots hold an undo index + 1 (0 = empty).
     * {@link #indexed} entries of the log are in it; a rollback within the batch drops it.
     */
    private int[] firstWrite = new int[0];
    private int indexed;
    private boolean batchUndo;
    private int operationsRun;

    private StateStore store;

    /** Keeps every write from now on until {@link #endBatch()}, for {@link #rollbackBatch()}. */
    public void beginBatch()
    {
        batchUndo = true;
        undoCount = 0;
        dropIndex();
        operationsRun = 0;
    }

    /** Forgets the batch's writes: they stay. */
    public void endBatch()
    {
        batchUndo = false;
        undoCount = 0;
        dropIndex();
    }

    /**
     * Undoes every write since {@link #beginBatch()}, in reverse order, on {@code store}.
     */
    public void rollbackBatch(final StateStore store)
    {
        for (int i = undoCount - 1; i >= 0; i--)
        {
            store.put(undoTable[i], undoKey[i], undoValue[i]);
        }
        undoCount = 0;
        dropIndex();
    }

    /** @return operations run since {@link #beginBatch()} (those after an abort do not run). */
    public int operationsRun()
    {
        return operationsRun;
    }

    /**
     * Runs transaction {@code t} of {@code log} against {@code store} and records every
     * operation's result and the transaction's outcome in the log.
     *
     * @return 0 if it committed, else the reason it aborted with.
     */
    public int apply(final TransactionLog log, final int t, final StateStore store)
    {
        this.log = log;
        this.store = store;
        this.transaction = t;
        this.firstOp = log.firstOperation(t);
        this.abortReason = 0;
        if (!batchUndo)
        {
            undoCount = 0;
        }
        transactionUndoStart = undoCount;
        final int end = firstOp + log.operationCount(t);
        try
        {
            for (int o = firstOp; o < end && abortReason == 0; o++)
            {
                op = o;
                chosen = ChooseFunction.NONE;
                operationsRun++;
                runOperation(o);
            }
            if (abortReason != 0)
            {
                rollback();
            }
            log.abortReason(t, abortReason);
            return abortReason;
        }
        finally
        {
            this.log = null;
            this.store = null;
        }
    }

    /**
     * Runs CHOOSE (or STALE_CHOOSE) {@code o}'s chooser.
     *
     * @return the candidate picked, now {@link #chosen}; or {@link ChooseFunction#NONE} if there is
     *         nothing more to do: the chooser aborted the transaction, or it picked none (then the
     *         operation's result, nothing chosen, is written here).
     */
    private int pick(final int o)
    {
        final int pick = applyChooser(log.chooser(o), log.extraCount(o));
        if (abortReason != 0)
        {
            return ChooseFunction.NONE;
        }
        if (pick == ChooseFunction.NONE)
        {
            log.result(o, 0L, 0L, ChooseFunction.NONE);
            return ChooseFunction.NONE;
        }
        chosen = pick;
        return pick;
    }

    private void runOperation(final int o)
    {
        final int table = log.table(o);
        switch (log.type(o))
        {
            case 0: // READ
            {
                final long v = store.get(table, log.key(o));
                log.result(o, v, v, ChooseFunction.NONE);
                break;
            }
            case 1: // WRITE
            {
                final long key = log.key(o);
                final long old = store.get(table, key);
                final long v = log.operand(o);
                if (admitted(table, old, v))
                {
                    writeWithUndo(table, key, old, v);
                    log.result(o, old, v, ChooseFunction.NONE);
                }
                break;
            }
            case 2: // READ_MODIFY
            {
                final long key = log.key(o);
                final long old = store.get(table, key);
                final long v = applyFunction(log.function(o), old);
                if (abortReason == 0 && admitted(table, old, v))
                {
                    writeWithUndo(table, key, old, v);
                    log.result(o, old, v, ChooseFunction.NONE);
                }
                break;
            }
            case 4: // ADD
            {
                final long key = log.key(o);
                final long delta = applyFunction(log.function(o), 0L);
                if (abortReason == 0)
                {
                    final long old = store.get(table, key);
                    if (admittedAdd(table, key, old, delta))
                    {
                        writeWithUndo(table, key, old, old + delta);
                        log.result(o, 0L, delta, ChooseFunction.NONE);
                        final AdmissionGate gate = admission();
                        if (gate != null)
                        {
                            gate.removedByAdd(table, key, old, old + delta);
                        }
                    }
                }
                break;
            }
            case 5: // DEFER: applied in place, at its serial position; nothing of the transaction waits for it
            {
                final long key = log.key(o);
                final long old = store.get(table, key);
                final long v = applyForgotten(log.function(o), table, old);
                writeWithUndo(table, key, old, v);
                log.result(o, 0L, 0L, ChooseFunction.NONE);
                break;
            }
            case 6: // STALE_READ: the batch start's value (one transaction applied alone: the current one)
            {
                final long v = batchStartValue(table, log.key(o));
                log.result(o, v, v, ChooseFunction.NONE);
                break;
            }
            case 7: // STALE_CHOOSE: picks by the batch start's values, adds its delta in place
            {
                final int pick = pick(o);
                if (pick == ChooseFunction.NONE)
                {
                    break;
                }
                final long key = log.extraKey(log.extraStart(o) + pick);
                final long delta = applyFunction(log.function(o), 0L);
                if (abortReason == 0)
                {
                    final long old = store.get(table, key);
                    if (admittedAdd(table, key, old, delta))
                    {
                        writeWithUndo(table, key, old, old + delta);
                        log.result(o, 0L, delta, pick);
                    }
                }
                break;
            }
            default: // CHOOSE
            {
                final int pick = pick(o);
                if (pick == ChooseFunction.NONE)
                {
                    break;
                }
                final long key = log.extraKey(log.extraStart(o) + pick);
                final long old = store.get(table, key);
                final long v = applyFunction(log.function(o), old);
                if (abortReason == 0 && admitted(table, old, v))
                {
                    writeWithUndo(table, key, old, v);
                    log.result(o, old, v, pick);
                }
                break;
            }
        }
    }

    /**
     * Applies fire-and-forget update {@code o} of {@code log} ({@link OperationType#DEFER}) to
     * {@code store} as its function decides, with its transaction's results as they are in the
     * log: the engine calls it once its batch has committed, for the committed transactions'
     * DEFERs in serial order. Writes no undo.
     */
    public void applyDeferred(final TransactionLog log, final int o, final StateStore store)
    {
        this.log = log;
        this.store = store;
        this.transaction = log.transactionOf(o);
        this.firstOp = log.firstOperation(transaction);
        this.op = o;
        this.chosen = ChooseFunction.NONE;
        this.abortReason = 0;
        try
        {
            final int table = log.table(o);
            final long key = log.key(o);
            final long old = store.get(table, key);
            final long v = applyForgotten(log.function(o), table, old);
            if (v != old)
            {
                store.put(table, key, v);
            }
        }
        finally
        {
            this.log = null;
            this.store = null;
        }
    }

    private void writeWithUndo(final int table, final long key, final long old, final long value)
    {
        if (old == value)
        {
            return;
        }
        if (undoCount == undoKey.length)
        {
            final int n = undoCount * 2;
            undoTable = Arrays.copyOf(undoTable, n);
            undoKey = Arrays.copyOf(undoKey, n);
            undoValue = Arrays.copyOf(undoValue, n);
        }
        undoTable[undoCount] = table;
        undoKey[undoCount] = key;
        undoValue[undoCount] = old;
        undoCount++;
        store.put(table, key, value);
    }

    private void rollback()
    {
        for (int i = undoCount - 1; i >= transactionUndoStart; i--)
        {
            store.put(undoTable[i], undoKey[i], undoValue[i]);
        }
        undoCount = transactionUndoStart;
        if (indexed > undoCount)
        {
            dropIndex();
        }
    }

    @Override
    protected long extraValue(final int extra)
    {
        return log.type(op) == STALE_CHOOSE
            ? batchStartValue(log.extraTable(extra), log.extraKey(extra))
            : store.get(log.extraTable(extra), log.extraKey(extra));
    }

    /**
     * The value {@code (table, key)} had when the batch started: between {@link #beginBatch()} and
     * {@link #endBatch()} the old value of the batch's first write of the key still in the undo
     * log (an aborted transaction's writes are rolled back and leave it), else the store's; one
     * transaction applied alone: the store's. A short log is scanned; a long one (a stale CHOOSE
     * over candidates late in a batch of many writes) is looked up in an index of first writes,
     * built at the first such read and extended by later ones, so a batch's stale reads cost what
     * its writes are, not their product.
     */
    private long batchStartValue(final int table, final long key)
    {
        if (!batchUndo)
        {
            return store.get(table, key);
        }
        if (undoCount <= INDEX_FROM)
        {
            for (int i = 0; i < undoCount; i++)
            {
                if (undoKey[i] == key && undoTable[i] == table)
                {
                    return undoValue[i];
                }
            }
            return store.get(table, key);
        }
        extendIndex();
        final int mask = firstWrite.length - 1;
        for (int slot = slot(table, key, mask); firstWrite[slot] != 0; slot = (slot + 1) & mask)
        {
            final int i = firstWrite[slot] - 1;
            if (undoKey[i] == key && undoTable[i] == table)
            {
                return undoValue[i];
            }
        }
        return store.get(table, key);
    }

    /** Indexes the undo log's entries written since the last stale read, keeping each key's first. */
    private void extendIndex()
    {
        if (firstWrite.length < 2 * undoCount)
        {
            // grow: index the whole log again into a table at most half full
            firstWrite = new int[Integer.highestOneBit(Math.max(64, 4 * undoCount - 1)) << 1];
            indexed = 0;
        }
        final int mask = firstWrite.length - 1;
        for (int i = indexed; i < undoCount; i++)
        {
            int slot = slot(undoTable[i], undoKey[i], mask);
            while (true)
            {
                final int at = firstWrite[slot];
                if (at == 0)
                {
                    firstWrite[slot] = i + 1;
                    break;
                }
                if (undoKey[at - 1] == undoKey[i] && undoTable[at - 1] == undoTable[i])
                {
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        indexed = undoCount;
    }

    private void dropIndex()
    {
        if (indexed > 0)
        {
            Arrays.fill(firstWrite, 0);
            indexed = 0;
        }
    }

    private static int slot(final int table, final long key, final int mask)
    {
        final long h = (key ^ ((long)table << 48)) * 0x9E3779B97F4A7C15L;
        return (int)(h >>> 40) & mask;
    }
}
