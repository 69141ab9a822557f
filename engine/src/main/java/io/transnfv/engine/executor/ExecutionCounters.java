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
    private long totalOperationsReExecuted;
    private long totalTransactionsAborted;
    private long unitsRun;
    private long parks;
    private long independentTransactions;
    private long totalIndependentTransactions;

    void record(
        final long executed, final long reExecuted, final long skipped, final long aborted, final long units, final long parked,
        final long independent)
    {
        independentTransactions = independent;
        totalIndependentTransactions += independent;
        batches++;
        operationsExecuted = executed;
        operationsReExecuted = reExecuted;
        operationsSkipped = skipped;
        transactionsAborted = aborted;
        unitsRun = units;
        parks = parked;
        totalOperationsExecuted += executed;
        totalOperationsReExecuted += reExecuted;
        totalTransactionsAborted += aborted;
    }

    /** @return units taken from a deque in the last batch (first runs and resumptions). */
    public long unitsRun()
    {
        return unitsRun;
    }

    /** @return times an idle executor parked in the last batch. */
    public long parks()
    {
        return parks;
    }

    /** @return operations re-executed since the executor started (lazy abort). */
    public long totalOperationsReExecuted()
    {
        return totalOperationsReExecuted;
    }

    /** @return transactions of the last batch that touched no key another one touched: run in place, unscheduled. */
    public long independentTransactions()
    {
        return independentTransactions;
    }

    /** @return independent transactions since the executor started. */
    public long totalIndependentTransactions()
    {
        return totalIndependentTransactions;
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
     *         decided versions; under {@link io.transnfv.scheduler.LazyAbort}, the readers of
     *         versions written by transactions that later aborted, transitively.
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
            " skipped=" + operationsSkipped + " aborted=" + transactionsAborted + " units=" + unitsRun + " parks=" + parks;
    }
}
