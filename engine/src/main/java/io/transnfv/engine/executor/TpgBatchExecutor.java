package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.scheduler.SingleOperationGranularity;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The parallel batch executor: builds the batch's {@link TaskPrecedenceGraph}, binds its
 * version slots in the {@link MultiVersionStateTable}, and runs it on {@code threads}
 * executors: the calling thread plus {@code threads - 1} persistent daemon threads that park
 * between batches. Transactions finish in dependency order; a transaction's versions are
 * visible to other transactions only once it has finished, so an abort removes its versions
 * before anyone reads them and nothing is re-executed (see docs/design/tpg.md).
 *
 * <p>Only the policy of issue 3 is supported for now: breadth-first exploration,
 * single-operation granularity, eager abort; issue #4 adds the rest of the space.
 */
public final class TpgBatchExecutor implements BatchExecutor
{
    private static final Logger LOG = LoggerFactory.getLogger(TpgBatchExecutor.class);
    private static final VarHandle WORKERS_ACTIVE;
    private static final int SPIN_LIMIT = 128;
    private static final int YIELD_LIMIT = 256;

    static
    {
        try
        {
            WORKERS_ACTIVE = MethodHandles.lookup().findVarHandle(TpgBatchExecutor.class, "workersActive", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int threads;
    private final SchedulingPolicy policy;
    private final BatchRun run;
    private final OperationExecutor[] executors;
    private final Thread[] workers;
    private final ExecutionCounters counters = new ExecutionCounters();

    private volatile long epoch;
    private volatile int workersActive;
    private volatile boolean closed;
    private volatile Thread coordinator;

    /**
     * Uses breadth-first exploration, single-operation granularity and eager abort.
     *
     * @param threads executors including the calling thread, at least 1.
     */
    public TpgBatchExecutor(final int threads)
    {
        this(threads, SchedulingPolicy.breadthFirstSingleOperationEagerAbort());
    }

    /**
     * @param threads executors including the calling thread, at least 1.
     * @param policy  the scheduling policy; only single-operation granularity with an abort
     *                handling that reads decided versions only is supported yet.
     */
    public TpgBatchExecutor(final int threads, final SchedulingPolicy policy)
    {
        if (threads < 1)
        {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (!(policy.granularity() instanceof SingleOperationGranularity) ||
            !policy.abortHandling().readsDecidedVersionsOnly() || !policy.abortHandling().propagatesAtOnce())
        {
            throw new IllegalArgumentException("unsupported scheduling policy (issue #4): " + policy);
        }
        this.threads = threads;
        this.policy = policy;
        this.run = new BatchRun(policy.exploration().newFrontier(threads));
        this.executors = new OperationExecutor[threads];
        for (int i = 0; i < threads; i++)
        {
            executors[i] = new OperationExecutor(i, run);
        }
        this.workers = new Thread[threads - 1];
        for (int i = 1; i < threads; i++)
        {
            final OperationExecutor executor = executors[i];
            final Thread thread = new Thread(() -> workerLoop(executor), "transnfv-executor-" + i);
            thread.setDaemon(true);
            workers[i - 1] = thread;
        }
        for (final Thread worker : workers)
        {
            worker.start();
        }
        LOG.debug("executor started: threads={} policy={}", threads, policy);
    }

    /** @return the number of executors, the calling thread included. */
    public int threads()
    {
        return threads;
    }

    /** @return the scheduling policy. */
    public SchedulingPolicy policy()
    {
        return policy;
    }

    /** @return the counters of the last batch and totals; read by the calling thread. */
    public ExecutionCounters counters()
    {
        return counters;
    }

    /** @return the graph of the last batch (statistics; valid until the next batch). */
    public TaskPrecedenceGraph graph()
    {
        return run.graph;
    }

    @Override
    public void execute(final TransactionLog log, final MultiVersionStateTable state)
    {
        if (closed)
        {
            throw new IllegalStateException("executor closed");
        }
        final BatchRun run = this.run;
        final TaskPrecedenceGraph graph = run.graph;
        final int txns = log.transactionCount();

        graph.beginBatch(log);
        for (int t = 0; t < txns; t++)
        {
            graph.addTransaction(t);
        }
        graph.seal();
        bindVersions(graph, state);

        run.log = log;
        run.state = state;
        run.machine.reset(graph);
        final int ops = graph.operationCount();
        run.frontier.reset(ops);
        run.ensureTransactions(txns);
        java.util.Arrays.fill(run.abortReason, 0, txns, 0);
        for (int t = 0; t < txns; t++)
        {
            log.abortReason(t, 0);
        }
        for (int o = 0; o < ops; o++)
        {
            if (run.machine.state(o) == OperationStateMachine.READY)
            {
                run.frontier.offer(0, o);
            }
        }
        run.clearFailure();
        final int remaining = txns - graph.emptyTransactionCount();
        run.remainingTransactions(remaining);

        final boolean parallel = workers.length > 0 && remaining > 0;
        if (parallel)
        {
            coordinator = Thread.currentThread();
            workersActive = workers.length;
            epoch = epoch + 1;
            for (final Thread worker : workers)
            {
                LockSupport.unpark(worker);
            }
        }
        executors[0].runBatch();
        if (parallel)
        {
            awaitWorkers();
        }

        long executed = 0;
        long skipped = 0;
        long aborted = 0;
        for (final OperationExecutor executor : executors)
        {
            executed += parallel || executor == executors[0] ? executor.executed : 0;
            skipped += parallel || executor == executors[0] ? executor.skipped : 0;
            aborted += parallel || executor == executors[0] ? executor.transactionsAborted : 0;
        }
        final Throwable failure = run.failure();
        run.log = null;
        if (failure != null)
        {
            state.abandonBatch();
            throw new IllegalStateException("batch failed: " + failure, failure);
        }
        state.endBatch();
        counters.record(executed, 0L, skipped, aborted);
    }

    private static void bindVersions(final TaskPrecedenceGraph graph, final MultiVersionStateTable state)
    {
        final int keys = graph.keyCount();
        state.beginBatch(keys, graph.entryCount());
        for (int k = 0; k < keys; k++)
        {
            state.bindKey(k, graph.keyTable(k), graph.keyKey(k));
            for (int e = graph.keyFirstEntry(k); e != TaskPrecedenceGraph.NONE; e = graph.nextEntry(e))
            {
                if (graph.isWrite(e))
                {
                    state.bindSlot(e, k, graph.previousWrite(e));
                }
            }
        }
    }

    private void awaitWorkers()
    {
        int idle = 0;
        while (workersActive != 0)
        {
            if (idle < SPIN_LIMIT)
            {
                Thread.onSpinWait();
            }
            else if (idle < YIELD_LIMIT)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(this, 100_000L);
            }
            idle++;
        }
    }

    private void workerLoop(final OperationExecutor executor)
    {
        long seen = 0;
        while (true)
        {
            int idle = 0;
            long current;
            while ((current = epoch) == seen)
            {
                if (closed)
                {
                    return;
                }
                if (idle < SPIN_LIMIT)
                {
                    Thread.onSpinWait();
                }
                else if (idle < YIELD_LIMIT)
                {
                    Thread.yield();
                }
                else
                {
                    LockSupport.park(this);
                }
                idle++;
            }
            seen = current;
            executor.runBatch();
            if ((int)WORKERS_ACTIVE.getAndAdd(this, -1) == 1)
            {
                LockSupport.unpark(coordinator);
            }
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final Thread worker : workers)
        {
            LockSupport.unpark(worker);
        }
        for (final Thread worker : workers)
        {
            try
            {
                worker.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.debug("executor closed: {}", counters);
    }
}
