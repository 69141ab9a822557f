package io.transnfv.tpg.txn;

/**
 * The part of a {@link FunctionContext} every executor shares: where the running operation
 * sits in its {@link TransactionLog}, its transaction's earlier results, and the checks that
 * keep functions to what they declared. An executor extends it, keeps {@link #log},
 * {@link #transaction}, {@link #firstOp}, {@link #op} and {@link #chosen} current while a
 * function runs, and says how a parameter's or candidate's value is read. One instance per
 * executing thread.
 */
public abstract class OperationContext implements FunctionContext
{
    /** The log of the running transaction. */
    protected TransactionLog log;
    /** The running transaction. */
    protected int transaction;
    /** The log index of its first operation. */
    protected int firstOp;
    /** The log index of the running operation. */
    protected int op;
    /** While a CHOOSE's update function runs, the picked candidate. */
    protected int chosen = ChooseFunction.NONE;
    /** The reason given to {@link #abort(int)} by the running transaction, 0 if none. */
    protected int abortReason;
    /** Told about functions that throw; null to record nothing (the abort still happens). */
    private FaultListener faultListener;
    /** Tables closed to new entries; null when every table takes them. */
    private AdmissionGate admission;

    /** @param gate the tables closed to new entries, or null if every table takes them. */
    public final void admission(final AdmissionGate gate)
    {
        this.admission = gate;
    }

    /**
     * Checks a write against the {@link AdmissionGate}: a write that would create an entry in a
     * closed table aborts the transaction with {@link TransactionView#STATE_FULL}.
     *
     * @return true if the write may go ahead.
     */
    protected final boolean admitted(final int table, final long old, final long value)
    {
        final AdmissionGate gate = admission;
        if (gate == null || gate.admits(table, old, value))
        {
            return true;
        }
        abortReason = TransactionView.STATE_FULL;
        return false;
    }

    /**
     * Checks an {@link OperationType#ADD} against the {@link AdmissionGate}
     * ({@link AdmissionGate#admitsAdd}): a non-zero delta to a key absent at the last capacity
     * check, in a closed table, aborts the transaction with {@link TransactionView#STATE_FULL}.
     *
     * @param batchStartValue the key's committed value when the batch started (the serial
     *                        schedule: its value before this add).
     * @return true if the add may go ahead.
     */
    protected final boolean admittedAdd(final int table, final long key, final long batchStartValue, final long delta)
    {
        final AdmissionGate gate = admission;
        if (gate == null || gate.admitsAdd(table, key, batchStartValue, delta))
        {
            return true;
        }
        abortReason = TransactionView.STATE_FULL;
        return false;
    }

    /**
     * @return true if {@code table} is closed to new entries now: only then can
     *         {@link #admittedAdd} refuse, so a caller may skip looking up the value it needs.
     */
    protected final boolean refusesNewEntries(final int table)
    {
        final AdmissionGate gate = admission;
        return gate != null && gate.closed(table);
    }

    /** @return the tables closed to new entries, or null if every table takes them. */
    protected final AdmissionGate admission()
    {
        return admission;
    }

    /** @param listener told when a function throws, or null. */
    public final void faultListener(final FaultListener listener)
    {
        this.faultListener = listener;
    }

    /**
     * Runs operation {@link #op}'s state function on {@code current}. If it throws, the
     * transaction aborts with {@link TransactionView#FAULT} (the caller sees
     * {@link #abortReason} set and writes nothing) and the listener is told.
     *
     * @return the function's result, or {@code current} if it threw.
     */
    protected final long applyFunction(final StateFunction fn, final long current)
    {
        try
        {
            return fn.apply(current, this);
        }
        catch (final Throwable t)
        {
            onFault(t);
            return current;
        }
    }

    /**
     * Runs a fire-and-forget update's function ({@link OperationType#DEFER}) on {@code current}:
     * nobody waits for it, so an abort, a throw (the listener is told) or a new entry that a
     * closed table refuses ({@link AdmissionGate#admits}) drops the update and leaves the
     * transaction as it was.
     *
     * @return the value to write: the function's result, or {@code current} if the update is dropped.
     */
    protected final long applyForgotten(final StateFunction fn, final int table, final long current)
    {
        final int before = abortReason;
        final long v = applyFunction(fn, current);
        if (abortReason != before || !admitted(table, current, v))
        {
            abortReason = before;
            return current;
        }
        return v;
    }

    /**
     * Runs a CHOOSE's chooser; a chooser that throws, or picks a candidate that does not
     * exist, aborts the transaction with {@link TransactionView#FAULT}.
     *
     * @return the pick ({@link ChooseFunction#NONE} if the transaction aborted).
     */
    protected final int applyChooser(final ChooseFunction chooser, final int candidates)
    {
        try
        {
            final int pick = chooser.choose(this);
            if (abortReason == 0 && pick != ChooseFunction.NONE && (pick < 0 || pick >= candidates))
            {
                throw new IllegalStateException("chooser picked " + pick + " of " + candidates + " candidates");
            }
            return pick;
        }
        catch (final Throwable t)
        {
            onFault(t);
            return ChooseFunction.NONE;
        }
    }

    /**
     * @return the arrival index ({@link TransactionLog#sequence}) of the transaction this context
     *         runs now, or -1 between transactions. Meant for another thread's diagnostics (a
     *         function that never returns): the read is racy, so only a hint.
     */
    public final long runningSequence()
    {
        final TransactionLog running = log;
        if (running == null)
        {
            return -1;
        }
        try
        {
            return running.sequence(transaction);
        }
        catch (final RuntimeException e)
        {
            return -1;
        }
    }

    private void onFault(final Throwable t)
    {
        abortReason = TransactionView.FAULT;
        final FaultListener listener = faultListener;
        if (listener != null)
        {
            listener.onFunctionFault(log, transaction, t);
        }
    }

    /**
     * @param extra a parameter or candidate of the running operation (log extra index).
     * @return its value at the running operation's point in the serial order.
     */
    protected abstract long extraValue(int extra);

    @Override
    public long timestampNs()
    {
        return log.timestampNs(transaction);
    }

    @Override
    public long operand()
    {
        return log.operand(op);
    }

    @Override
    public Object attachment()
    {
        return log.attachment(transaction);
    }

    @Override
    public int paramCount()
    {
        return log.type(op) == OperationType.READ_MODIFY.ordinal() ? log.extraCount(op) : 0;
    }

    @Override
    public long param(final int index)
    {
        return extraValue(extra(index, OperationType.READ_MODIFY));
    }

    @Override
    public int candidateCount()
    {
        return OperationType.picksCandidate(log.type(op)) ? log.extraCount(op) : 0;
    }

    @Override
    public long candidateKey(final int index)
    {
        return log.extraKey(extra(index, OperationType.CHOOSE));
    }

    @Override
    public long candidateValue(final int index)
    {
        return extraValue(extra(index, OperationType.CHOOSE));
    }

    @Override
    public int chosen()
    {
        return chosen;
    }

    @Override
    public long before(final int operation)
    {
        return log.before(earlier(operation));
    }

    @Override
    public long after(final int operation)
    {
        return log.after(earlier(operation));
    }

    @Override
    public int chosenBy(final int operation)
    {
        return log.chosen(earlier(operation));
    }

    @Override
    public void abort(final int reason)
    {
        if (reason <= 0)
        {
            throw new IllegalArgumentException("abort reason must be positive: " + reason);
        }
        abortReason = reason;
    }

    private int extra(final int index, final OperationType expected)
    {
        final boolean kind = expected == OperationType.CHOOSE ? OperationType.picksCandidate(log.type(op)) : log.type(op) == expected.ordinal();
        if (!kind || index < 0 || index >= log.extraCount(op))
        {
            throw new IndexOutOfBoundsException(expected + " extra " + index + " of operation " + (op - firstOp));
        }
        return log.extraStart(op) + index;
    }

    private int earlier(final int operation)
    {
        if (operation < 0 || firstOp + operation >= op)
        {
            throw new IllegalArgumentException(
                "operation " + (op - firstOp) + " may only look at earlier operations, not " + operation);
        }
        return firstOp + operation;
    }
}
