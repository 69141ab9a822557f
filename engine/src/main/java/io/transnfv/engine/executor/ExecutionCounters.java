package io.transnfv.engine.executor;

/**
 * What the last batch did, and totals since the executor started: counted by each executor
 * thread in plain fields and summed by the coordinating thread after the batch, so the hot
 * path has no shared counter. Read by the thread that calls {@code execute}.
 */
public final class ExecutionCounters
{
    private long batches;
    private long operationsExecuted;
    private long operationsReExecuted;
    private long operationsSkipped;
    private long transactionsAborted;
    private long totalOperationsExecuted;
    private long totalTransactionsAborted;

    void record(final long executed, final long reExecuted, final long skipped, final long aborted)
    {
        batches++;
        operationsExecuted = executed;
        operationsReExecuted = reExecuted;
        operationsSkipped = skipped;
        transactionsAborted = aborted;
        totalOperationsExecuted += executed;
        totalTransactionsAborted += aborted;
    }

    /** @return batches executed so far. */
    public long batches()
    {
        return batches;
    }

    /** @return operations whose function ran in the last batch (including the aborting ones). */
    public long operationsExecuted()
    {
        return operationsExecuted;
    }

    /**
     * @return operations run again in the last batch because a version they read was removed;
     *         always 0 under {@link io.transnfv.scheduler.EagerAbort}, whose readers only see
     *         decided versions.
     */
    public long operationsReExecuted()
    {
        return operationsReExecuted;
    }

    /** @return operations not run in the last batch because their transaction had aborted. */
    public long operationsSkipped()
    {
        return operationsSkipped;
    }

    /** @return transactions aborted in the last batch. */
    public long transactionsAborted()
    {
        return transactionsAborted;
    }

    /** @return operations executed since the executor started. */
    public long totalOperationsExecuted()
    {
        return totalOperationsExecuted;
    }

    /** @return transactions aborted since the executor started. */
    public long totalTransactionsAborted()
    {
        return totalTransactionsAborted;
    }

    @Override
    public String toString()
    {
        return "batches=" + batches + " executed=" + operationsExecuted + " reExecuted=" + operationsReExecuted +
            " skipped=" + operationsSkipped + " aborted=" + transactionsAborted;
    }
}
