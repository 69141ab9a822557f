package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.ReadyFrontier;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What every executor thread shares during one batch: the sealed graph, the operation state
 * machine, the frontier, the state table, per-transaction abort reasons and the count of
 * unfinished transactions. Set up by the coordinating thread before the batch's epoch is
 * published; afterwards only the atomics and the abort reasons change.
 */
final class BatchRun
{
    /** Abort reason recorded when a function threw: the batch then fails as a whole. */
    static final int FAILED = Integer.MIN_VALUE;

    private static final VarHandle REMAINING;
    private static final VarHandle FAILURE;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            REMAINING = lookup.findVarHandle(BatchRun.class, "remainingTransactions", int.class);
            FAILURE = lookup.findVarHandle(BatchRun.class, "failure", Throwable.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
    final OperationStateMachine machine = new OperationStateMachine();
    final ReadyFrontier frontier;
    TransactionLog log;
    MultiVersionStateTable state;

    /**
     * Per transaction, 0 or the reason it aborted. Written only by the executor running one of
     * its operations; read by its later operations and its finisher, which the graph's
     * logical edges order after that write.
     */
    int[] abortReason = new int[64];

    private volatile int remainingTransactions;
    private volatile Throwable failure;

    BatchRun(final ReadyFrontier frontier)
    {
        this.frontier = frontier;
    }

    void ensureTransactions(final int count)
    {
        if (abortReason.length < count)
        {
            abortReason = new int[Integer.highestOneBit(count - 1) << 1];
        }
    }

    void remainingTransactions(final int count)
    {
        remainingTransactions = count;
    }

    boolean active()
    {
        return remainingTransactions > 0 && failure == null;
    }

    void transactionFinished()
    {
        REMAINING.getAndAdd(this, -1);
    }

    void fail(final Throwable t)
    {
        FAILURE.compareAndSet(this, null, t);
    }

    Throwable failure()
    {
        return failure;
    }

    void clearFailure()
    {
        failure = null;
    }
}
