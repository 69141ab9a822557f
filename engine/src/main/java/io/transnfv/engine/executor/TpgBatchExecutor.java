package io.transnfv.engine.executor;

import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.BatchStatistics;
import io.transnfv.scheduler.DecisionModel;
import io.transnfv.scheduler.ReadyDeques;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.scheduler.WorkUnits;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The parallel batch executor: builds the batch's {@link TaskPrecedenceGraph}, measures it,
 * lets its {@link DecisionModel} choose the batch's {@link SchedulingPolicy}, binds the
 * version slots in the {@link MultiVersionStateTable}, groups operations into units and runs
 * them on {@code threads} executors: the calling thread plus {@code threads - 1} persistent
 * daemon threads that park between batches. Each executor has its own work-stealing deque;
 * nothing is shared per operation but the dependency counters of the operations themselves.
 *
 * <p>Every policy gives the serial result (see docs/design/tpg.md and scheduling.md). A batch
 * smaller than {@link #MIN_PARALLEL_OPERATIONS} runs on the calling thread alone (waking the
 * pool costs more than it saves).
 *
 * <p>Strategy names ({@link #create(int, String)}): the 12 static policies
 * ({@code bfs/op/eager} ... {@code random/group/lazy}, see {@link SchedulingPolicy#parse}),
 * {@code adaptive} (the heuristic decision model) and {@code adaptive-feedback} (the bandit).
 */
public final class TpgBatchExecutor implements BatchExecutor
{
    /** Name of the adaptive heuristic strategy. */
    public static final String ADAPTIVE = "adaptive";
    /** Name of the adaptive feedback (bandit) strategy. */
    public static final String ADAPTIVE_FEEDBACK = "adaptive-feedback";
    /** The strategy of {@link #TpgBatchExecutor(int)}: the adaptive heuristic. */
    public static final String DEFAULT_STRATEGY = ADAPTIVE;
    /** Batches with fewer operations run on the calling thread only. */
    public static final int MIN_PARALLEL_OPERATIONS = 64;

    private static final Logger LOG = LoggerFactory.getLogger(TpgBatchExecutor.class);
    private static final VarHandle WORKERS_ACTIVE;
    private static final int SPIN_LIMIT = 64;
    private static final int YIELD_LIMIT = 96;
    private static final int MAX_REASONS = 64;

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
    private final DecisionModel model;
    private final BatchRun run;
    private final OperationExecutor[] executors;
    private final Thread[] workers;
    private final LazyAbortResolver resolver = new LazyAbortResolver();
    private final BatchStatistics statistics = new BatchStatistics();
    private final ExecutionCounters counters = new ExecutionCounters();
    private final TimeBreakdown breakdown = new TimeBreakdown();
    private final long[] decisions = new long[SchedulingPolicy.STATIC_COUNT];
    private final String[] reasonNames = new String[MAX_REASONS];
    private final long[] reasonCounts = new long[MAX_REASONS];
    private SchedulingPolicy lastPolicy;

    private volatile long epoch;
    private volatile int workersActive;
    private volatile boolean closed;
    private volatile Thread coordinator;

    /**
     * The default, {@link #DEFAULT_STRATEGY}: the adaptive heuristic, which the interleaved
     * scheduling benchmark measured within 3 % of the best static policy on every steady
     * workload at 1 and 2 threads, where the best single static policy was up to 1.3× off
     * the best on some (docs/PERFORMANCE.md, Scheduling).
     *
     * @param threads executors including the calling thread, at least 1.
     */
    public TpgBatchExecutor(final int threads)
    {
        this(threads, DecisionModel.adaptive(DecisionModel.Mode.HEURISTIC));
    }

    /**
     * A static policy: every batch runs with {@code policy}.
     *
     * @param threads executors including the calling thread, at least 1.
     */
    public TpgBatchExecutor(final int threads, final SchedulingPolicy policy)
    {
        this(threads, DecisionModel.fixed(policy));
    }

    /**
     * @param threads executors including the calling thread, at least 1.
     * @param model   chooses every batch's policy; owned by this executor from now on.
     */
    public TpgBatchExecutor(final int threads, final DecisionModel model)
    {
        if (threads < 1)
        {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        this.threads = threads;
        this.model = model;
        this.run = new BatchRun(threads);
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
        LOG.debug("executor started: threads={} strategy={}", threads, model.name());
    }

    /** @return an executor whose decision model runs in {@code mode}. */
    public static TpgBatchExecutor adaptive(final int threads, final DecisionModel.Mode mode)
    {
        return new TpgBatchExecutor(threads, DecisionModel.adaptive(mode));
    }

    /**
     * @param strategy a static policy name ({@code dfs/group/lazy}), {@value #ADAPTIVE} or
     *                 {@value #ADAPTIVE_FEEDBACK}.
     * @throws IllegalArgumentException for an unknown name, listing the valid ones.
     */
    public static TpgBatchExecutor create(final int threads, final String strategy)
    {
        final String s = strategy.trim().toLowerCase(Locale.ROOT);
        if (s.equals(ADAPTIVE) || s.equals("adaptive-heuristic"))
        {
            return adaptive(threads, DecisionModel.Mode.HEURISTIC);
        }
        if (s.equals(ADAPTIVE_FEEDBACK))
        {
            return adaptive(threads, DecisionModel.Mode.FEEDBACK);
        }
        try
        {
            return new TpgBatchExecutor(threads, SchedulingPolicy.parse(s));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException(e.getMessage() + "; strategies: " + String.join(", ", strategyNames()), e);
        }
    }

    /** @return every strategy name {@link #create} accepts: the 12 static policies, then the 2 adaptive ones. */
    public static List<String> strategyNames()
    {
        final List<String> names = new ArrayList<>();
        for (final SchedulingPolicy p : SchedulingPolicy.allStatic())
        {
            names.add(p.name());
        }
        names.add(ADAPTIVE);
        names.add(ADAPTIVE_FEEDBACK);
        return Collections.unmodifiableList(names);
    }

    /** @return the number of executors, the calling thread included. */
    public int threads()
    {
        return threads;
    }

    /** @return the decision model's name: a static policy name, {@value #ADAPTIVE} or {@value #ADAPTIVE_FEEDBACK}. */
    public String strategy()
    {
        return model.name();
    }

    /** @return the policy of the last batch, or null before the first. */
    public SchedulingPolicy lastPolicy()
    {
        return lastPolicy;
    }

    /** @return the counters of the last batch and totals; read by the calling thread. */
    public ExecutionCounters counters()
    {
        return counters;
    }

    /** @return the time breakdown since the executor started; read by the calling thread. */
    public TimeBreakdown timeBreakdown()
    {
        return breakdown;
    }

    /** @return the statistics of the last batch as the decision model saw them. */
    public BatchStatistics statistics()
    {
        return statistics;
    }

    /** @return the graph of the last batch (statistics; valid until the next batch). */
    public TaskPrecedenceGraph graph()
    {
        return run.graph;
    }

    /**
     * A report of the run so far, for the run report (allocates; call off the hot path):
     * strategy, threads, graphs executed (its batches), decisions per policy, reasons, the
     * time breakdown per operation (useful, sync, lock, construct, explore, others),
     * operations executed and re-executed, transactions aborted.
     */
    @Override
    public Optional<SchedulerReport> summary()
    {
        final SchedulerReport.Builder report = SchedulerReport.builder()
            .strategy(model.name())
            .executorThreads(threads)
            .graphs(counters.batches());
        for (int i = 0; i < decisions.length; i++)
        {
            if (decisions[i] > 0)
            {
                report.decision(SchedulingPolicy.ofIndex(i).name(), decisions[i]);
            }
        }
        for (int i = 0; i < MAX_REASONS && reasonNames[i] != null; i++)
        {
            report.reason(reasonNames[i], reasonCounts[i]);
        }
        breakdown.nsPerOperation().forEach(report::timeShare);
        return Optional.of(report
            .operationsExecuted(counters.totalOperationsExecuted())
            .operationsReExecuted(counters.totalOperationsReExecuted())
            .transactionsAborted(counters.totalTransactionsAborted())
            .build());
    }

    @Override
    public void execute(final TransactionLog log, final MultiVersionStateTable state)
    {
        if (closed)
        {
            throw new IllegalStateException("executor closed");
        }
        final long startNs = System.nanoTime();
        final TaskPrecedenceGraph graph = run.ownGraph;
        graph.beginBatch(log);
        for (int t = 0, txns = log.transactionCount(); t < txns; t++)
        {
            graph.addTransaction(t);
        }
        executeBuilt(log, graph, state, startNs);
    }

    @Override
    public void execute(final TransactionLog log, final TaskPrecedenceGraph graph, final MultiVersionStateTable state)
    {
        if (closed)
        {
            throw new IllegalStateException("executor closed");
        }
        if (graph.log() != log)
        {
            throw new IllegalArgumentException("the graph was begun over another log");
        }
        executeBuilt(log, graph, state, System.nanoTime());
    }

    private void executeBuilt(
        final TransactionLog log, final TaskPrecedenceGraph graph, final MultiVersionStateTable state, final long startNs)
    {
        final BatchRun run = this.run;
        final int txns = log.transactionCount();
        run.graph = graph;
        graph.seal();
        final int ops = graph.operationCount();
        final boolean parallel = workers.length > 0 && ops >= MIN_PARALLEL_OPERATIONS;
        final int active = parallel ? threads : 1;
        statistics.measure(graph, active);
        final SchedulingPolicy policy = model.choose(statistics);
        recordDecision(policy);
        bindVersions(graph, state);

        run.log = log;
        run.state = state;
        run.operations = ops;
        run.activeExecutors = active;
        run.exploration = policy.exploration();
        run.speculative = !policy.abortHandling().readsDecidedVersionsOnly();
        run.machine.reset(graph, parallel);
        final WorkUnits units = run.units;
        policy.granularity().partition(graph, units);
        run.deques.reset(ops + units.unitCount(), parallel);
        run.ensureTransactions(txns);
        Arrays.fill(run.abortReason, 0, txns, 0);
        seed(run, units, active);
        run.resetProgress();
        final long constructedNs = System.nanoTime();

        if (parallel && ops > 0)
        {
            coordinator = Thread.currentThread();
            workersActive = workers.length;
            epoch = epoch + 1;
            for (final Thread worker : workers)
            {
                LockSupport.unpark(worker);
            }
        }
        if (ops > 0)
        {
            executors[0].runBatch();
        }
        final long ranNs = System.nanoTime();
        if (parallel && ops > 0)
        {
            awaitWorkers();
        }
        final long joinedNs = System.nanoTime();

        final Throwable failure = run.failure();
        if (failure != null)
        {
            run.log = null;
            state.abandonBatch();
            throw new IllegalStateException("batch failed: " + failure, failure);
        }
        long reExecuted = 0;
        if (run.speculative && ops > 0)
        {
            try
            {
                reExecuted = resolver.resolve(run, executors[0]);
            }
            catch (final RuntimeException | Error e)
            {
                run.log = null;
                state.abandonBatch();
                throw new IllegalStateException("batch failed: " + e, e);
            }
        }
        long aborted = 0;
        final int[] reasons = run.abortReason;
        for (int t = 0; t < txns; t++)
        {
            log.abortReason(t, reasons[t]);
            aborted += reasons[t] != 0 ? 1 : 0;
        }
        run.log = null;
        state.endBatch();
        final long endNs = System.nanoTime();

        long executed = 0;
        long skipped = 0;
        long unitsRun = 0;
        long parks = 0;
        long activeNs = 0;
        long exploreNs = 0;
        long syncNs = (joinedNs - ranNs);
        final int ran = ops > 0 ? active : 0;
        for (int i = 0; i < ran; i++)
        {
            final OperationExecutor executor = executors[i];
            executed += executor.executed;
            skipped += executor.skipped;
            unitsRun += executor.unitsRun;
            parks += executor.parks;
            activeNs += executor.activeNs;
            exploreNs += executor.exploreNs;
            syncNs += executor.syncNs;
        }
        final long usefulNs = Math.max(0, activeNs - exploreNs - (syncNs - (joinedNs - ranNs)));
        breakdown.add(ops, usefulNs, syncNs, constructedNs - startNs, exploreNs, endNs - joinedNs);
        counters.record(executed, reExecuted, skipped, aborted, unitsRun, parks);
        statistics.recordOutcome(aborted, ops == 0 ? 0 : (double)usefulNs / ops);
        model.observe(statistics, policy, endNs - startNs);
        if (LOG.isDebugEnabled())
        {
            LOG.debug("batch {}: policy={} reason={} {} | {} ns, {}", counters.batches(), policy.name(), model.lastReason(),
                statistics, endNs - startNs, counters);
        }
    }

    private void recordDecision(final SchedulingPolicy policy)
    {
        lastPolicy = policy;
        decisions[policy.index()]++;
        final String reason = model.lastReason();
        for (int i = 0; i < MAX_REASONS; i++)
        {
            if (reasonNames[i] == null)
            {
                reasonNames[i] = reason;
                reasonCounts[i] = 1;
                return;
            }
            if (reasonNames[i] == reason || reasonNames[i].equals(reason))
            {
                reasonCounts[i]++;
                return;
            }
        }
    }

    /** Hands every unit whose head is ready to an executor, round-robin; parks the others at their head. */
    private static void seed(final BatchRun run, final WorkUnits units, final int active)
    {
        final OperationStateMachine machine = run.machine;
        final ReadyDeques deques = run.deques;
        final int count = units.unitCount();
        int next = 0;
        for (int u = 0; u < count; u++)
        {
            final int p = units.unitStart(u);
            final int o = units.operationAt(p);
            if (machine.state(o) == OperationStateMachine.READY)
            {
                deques.seed(next, p);
                next = next + 1 == active ? 0 : next + 1;
            }
            else
            {
                machine.parkBeforeStart(o);
            }
        }
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
        LOG.debug("executor closed: {} {}", counters, breakdown);
    }
}
