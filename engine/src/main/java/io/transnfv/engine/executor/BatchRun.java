package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.thread.WorkerGroup;
import io.transnfv.scheduler.Exploration;
import io.transnfv.scheduler.ReadyDeques;
import io.transnfv.scheduler.WorkUnits;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What every executor shares while one batch executes: the sealed graph, its units, the
 * operation state machine, the per-executor deques, the state table, the claim cursors of the
 * initial work (seal chunks of ready operations, chunks of independent transactions),
 * per-executor progress counts and the first failure. Set up by the worker that opens the
 * execution phase before publishing it; afterwards only the atomics and each executor's own
 * progress slot change.
 *
 * <p>No counter is shared by all executors on the per-operation path: each publishes the
 * operations it has processed in its own padded slot, and the sum is taken only when an
 * executor finds nothing to do.
 */
final class BatchRun
{
    /** Abort reason recorded when the executor failed on an operation: the batch then fails as a whole. */
    static final int FAILED = Integer.MIN_VALUE;

    private static final VarHandle FAILURE;
    private static final VarHandle READY_CURSOR;
    private static final VarHandle INDEPENDENT_CURSOR;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PAD = 16;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAILURE = lookup.findVarHandle(BatchRun.class, "failure", Throwable.class);
            READY_CURSOR = lookup.findVarHandle(BatchRun.class, "readyCursor", int.class);
            INDEPENDENT_CURSOR = lookup.findVarHandle(BatchRun.class, "independentCursor", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    final OperationStateMachine machine = new OperationStateMachine();
    final WorkUnits units = new WorkUnits();
    final ReadyDeques deques;
    final int executors;
    final TaskPrecedenceGraph graph;
    TransactionLog log;
    MultiVersionStateTable state;
    WorkerGroup workers;
    Exploration exploration;
    /** True under speculative visibility (lazy abort): release dependents per operation. */
    boolean speculative;
    /** True if more than one executor may run this batch at once. */
    boolean concurrent;
    /** Operations of dependent transactions: what the executors must process. */
    int scheduledOperations;
    /** Seal chunks whose initially ready operations are still to be claimed (0 when seeded). */
    int readyChunks;
    /** Seal chunks whose independent transactions are still to be claimed. */
    int independentChunks;

    private final long[] processed;
    private volatile int readyCursor;
    private volatile int independentCursor;
    private volatile Throwable failure;

    BatchRun(final int executors, final TaskPrecedenceGraph graph)
    {
        this.executors = executors;
        this.graph = graph;
        this.deques = new ReadyDeques(executors);
        this.processed = new long[(executors + 2) * PAD];
    }

    /** The opening worker, before publishing: zeroes progress, cursors and the failure. */
    void resetProgress()
    {
        for (int e = 0; e < executors; e++)
        {
            processed[(e + 1) * PAD] = 0;
        }
        READY_CURSOR.setRelease(this, 0);
        INDEPENDENT_CURSOR.setRelease(this, 0);
        failure = null;
    }

    /** Executor {@code e} only: publishes how many scheduled operations it has processed. */
    void publishProcessed(final int e, final long count)
    {
        SLOTS.setRelease(processed, (e + 1) * PAD, count);
    }

    /** @return true once every scheduled operation has been processed, or the batch has failed. */
    boolean allProcessed()
    {
        if (failure != null)
        {
            return true;
        }
        long sum = 0;
        for (int e = 0; e < executors; e++)
        {
            sum += (long)SLOTS.getAcquire(processed, (e + 1) * PAD);
        }
        return sum >= scheduledOperations;
    }

    /** @return a seal chunk whose ready operations the caller now owns, or -1. */
    int claimReadyChunk()
    {
        if (readyCursor >= readyChunks)
        {
            return -1;
        }
        final int c = (int)READY_CURSOR.getAndAdd(this, 1);
        return c < readyChunks ? c : -1;
    }

    /** @return a seal chunk whose independent transactions the caller now owns, or -1. */
    int claimIndependentChunk()
    {
        if (independentCursor >= independentChunks)
        {
            return -1;
        }
        final int c = (int)INDEPENDENT_CURSOR.getAndAdd(this, 1);
        return c < independentChunks ? c : -1;
    }

    /** @return true once every chunk of initial work has been claimed. */
    boolean initialWorkClaimed()
    {
        return readyCursor >= readyChunks && independentCursor >= independentChunks;
    }

    /** @return true if some executor's deque looks non-empty (a hint, for idle workers). */
    boolean anyReadyUnit()
    {
        for (int e = 0; e < executors; e++)
        {
            if (deques.looksNonEmpty(e))
            {
                return true;
            }
        }
        return false;
    }

    void fail(final Throwable t)
    {
        FAILURE.compareAndSet(this, null, t);
    }

    Throwable failure()
    {
        return failure;
    }
}
