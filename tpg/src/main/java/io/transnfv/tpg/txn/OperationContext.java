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
        return log.type(op) == OperationType.CHOOSE.ordinal() ? log.extraCount(op) : 0;
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
        if (log.type(op) != expected.ordinal() || index < 0 || index >= log.extraCount(op))
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
