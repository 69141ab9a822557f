package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.Exploration;
import io.transnfv.scheduler.ReadyDeques;
import io.transnfv.scheduler.WorkUnits;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * What every executor thread shares during one batch: the sealed graph, its units, the
 * operation state machine, the per-executor deques, the state table, per-transaction abort
 * reasons, per-executor progress counts and idle flags. Set up by the coordinating thread
 * before the batch's epoch is published; afterwards only the atomics, the abort reasons and
 * each executor's own progress slot change.
 *
 * <p>No counter is shared by all executors: each publishes the operations it has processed in
 * its own padded slot, and an executor that finds nothing to do sums the slots to decide
 * whether the batch is over (an idle-time read, never on the per-operation path).
 */
final class BatchRun
{
    /** Abort reason recorded when a function threw: the batch then fails as a whole. */
    static final int FAILED = Integer.MIN_VALUE;

    private static final VarHandle FAILURE;
    private static final VarHandle IDLE_EXECUTORS;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int PAD = 16;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAILURE = lookup.findVarHandle(BatchRun.class, "failure", Throwable.class);
            IDLE_EXECUTORS = lookup.findVarHandle(BatchRun.class, "idleExecutors", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The graph the executor builds when the caller did not build one. */
    final TaskPrecedenceGraph ownGraph = new TaskPrecedenceGraph();
    /** The batch's graph: {@link #ownGraph} or the caller's; published with the batch. */
    TaskPrecedenceGraph graph = ownGraph;
    final OperationStateMachine machine = new OperationStateMachine();
    final WorkUnits units = new WorkUnits();
    final ReadyDeques deques;
    final int executors;
    TransactionLog log;
    MultiVersionStateTable state;
    Exploration exploration;
    /** True under speculative visibility (lazy abort): release dependents per operation. */
    boolean speculative;
    /** Executors taking part in this batch (1 for a batch run on the caller alone). */
    int activeExecutors;
    int operations;

    /**
     * Per transaction, 0 or the reason it aborted. Written only by the executor running one of
     * its operations; read by its later operations and its finisher, which the graph's
     * logical edges order after that write.
     */
    int[] abortReason = new int[64];

    private final long[] processed;
    private final int[] parked;
    private final Thread[] threads;
    private volatile int idleExecutors;
    private volatile Throwable failure;

    BatchRun(final int executors)
    {
        this.executors = executors;
        this.deques = new ReadyDeques(executors);
        this.processed = new long[(executors + 2) * PAD];
        this.parked = new int[(executors + 2) * PAD];
        this.threads = new Thread[executors];
    }

    void ensureTransactions(final int count)
    {
        if (abortReason.length < count)
        {
            abortReason = new int[Integer.highestOneBit(count - 1) << 1];
        }
    }

    /** Coordinator, before publishing: zeroes every executor's progress. */
    void resetProgress()
    {
        for (int e = 0; e < executors; e++)
        {
            processed[(e + 1) * PAD] = 0;
        }
        failure = null;
    }

    /** Executor {@code e} only: publishes how many operations it has processed. */
    void publishProcessed(final int e, final long count)
    {
        SLOTS.setRelease(processed, (e + 1) * PAD, count);
    }

    /** @return true once every operation has been processed, or the batch has failed. */
    boolean done()
    {
        if (failure != null)
        {
            return true;
        }
        long sum = 0;
        for (int e = 0; e < activeExecutors; e++)
        {
            sum += (long)SLOTS.getAcquire(processed, (e + 1) * PAD);
        }
        return sum >= operations;
    }

    /** Executor {@code e}: records the thread it runs on this batch (for wake-ups). */
    void attach(final int e, final Thread thread)
    {
        threads[e] = thread;
    }

    /**
     * Executor {@code e}, idle: parks for at most {@code timeoutNs} unless work or the end of
     * the batch is visible. A pusher that sees the flag unparks it at once.
     */
    void parkIdle(final int e, final long timeoutNs)
    {
        final int flag = (e + 1) * PAD;
        FLAGS.setVolatile(parked, flag, 1);
        IDLE_EXECUTORS.getAndAdd(this, 1);
        if (!done() && !anyWorkVisible())
        {
            LockSupport.parkNanos(this, timeoutNs);
        }
        FLAGS.setVolatile(parked, flag, 0);
        IDLE_EXECUTORS.getAndAdd(this, -1);
    }

    /** Any executor that has just pushed work: wakes one parked executor, if any. */
    void wakeOneIfIdle()
    {
        if (idleExecutors == 0)
        {
            return;
        }
        for (int e = 0; e < activeExecutors; e++)
        {
            final int flag = (e + 1) * PAD;
            if ((int)FLAGS.getVolatile(parked, flag) == 1 && FLAGS.compareAndSet(parked, flag, 1, 0))
            {
                LockSupport.unpark(threads[e]);
                return;
            }
        }
    }

    /** Wakes every parked executor (the batch is over). */
    void wakeAll()
    {
        if (idleExecutors == 0)
        {
            return;
        }
        for (int e = 0; e < activeExecutors; e++)
        {
            final int flag = (e + 1) * PAD;
            if ((int)FLAGS.getVolatile(parked, flag) == 1 && FLAGS.compareAndSet(parked, flag, 1, 0))
            {
                LockSupport.unpark(threads[e]);
            }
        }
    }

    private boolean anyWorkVisible()
    {
        for (int e = 0; e < activeExecutors; e++)
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
