package io.transnfv.engine.executor;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.thread.Phase;
import io.transnfv.engine.thread.TaskPhase;
import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.engine.thread.WidthChoice;
import io.transnfv.engine.thread.WorkerGroup;
import io.transnfv.scheduler.BatchStatistics;
import io.transnfv.scheduler.DecisionModel;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.scheduler.WorkUnits;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.AdmissionGate;
import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.FaultListener;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.SerialOrder;
import io.transnfv.tpg.txn.TransactionLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The parallel batch executor: a batch's state access phase as five phases that any number of
 * workers share, each closed by the last worker to leave it, which runs the sequential step
 * after it.
 *
 * <pre>
 *  SCATTER  one task per chunk of transactions: every entry hashed into its shard's bucket
 *  BUILD    one task per key shard: the shard's chains, every key bound to its committed value
 *           by the same probe (one worker: one task, a single pass and no scatter)
 *           ─► measure the graph, let the {@link DecisionModel} choose the batch's policy
 *  SEAL     one task per chunk: entry records, dependency counts, independent transactions,
 *           initially ready operations
 *           ─► group units if the policy says so, reset the deques
 *  EXECUTE  executors take ready units (own deque, then stealing), else claim a chunk of
 *           ready operations or of independent transactions
 *           ─► lazy abort: undo aborted transactions, re-execute their readers in serial order
 *  COLLAPSE one task per key shard: last live versions written back, emptied keys deleted
 *           ─► counters, feedback to the decision model, the caller's next phase
 * </pre>
 *
 * <p>Standalone ({@link #execute(TransactionLog, MultiVersionStateTable)}), the calling thread
 * is worker 0 and the executor's own {@code threads - 1} daemon threads are the others. Inside
 * a chain run, the chain engine's workers run the same phases ({@link #begin}) between its own.
 * A batch with less work than {@link EngineConfiguration#MIN_PARALLEL_WORK} runs on one worker.
 *
 * <p>Every policy gives the serial result (see docs/design/tpg.md and scheduling.md). Strategy
 * names ({@link #create(int, String)}): the 12 static policies ({@code bfs/op/eager} ...
 * {@code random/group/lazy}, see {@link SchedulingPolicy#parse}), {@code adaptive} (the
 * heuristic decision model) and {@code adaptive-feedback} (the bandit).
 */
public final class TpgBatchExecutor implements BatchExecutor, StageExecutor
{
    private static final int ADD = OperationType.ADD.ordinal();
    private static final int DEFER = OperationType.DEFER.ordinal();
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();
    /** Name of the adaptive heuristic strategy. */
    public static final String ADAPTIVE = "adaptive";
    /** Name of the adaptive feedback (bandit) strategy. */
    public static final String ADAPTIVE_FEEDBACK = "adaptive-feedback";
    /** The strategy of {@link #TpgBatchExecutor(int)}: the adaptive heuristic. */
    public static final String DEFAULT_STRATEGY = ADAPTIVE;
    /** The name the run report gives batches run in serial order without a graph. */
    public static final String SERIAL_SCHEDULE = "serial";

    private static final Logger LOG = LoggerFactory.getLogger(TpgBatchExecutor.class);
    private static final int MAX_REASONS = 64;

    private final int threads;
    private final DecisionModel model;
    private final TaskPrecedenceGraph graph;
    private final BatchRun run;
    private final OperationExecutor[] executors;
    private final LazyAbortResolver resolver = new LazyAbortResolver();
    private final BatchStatistics statistics = new BatchStatistics();
    private final ExecutionCounters counters = new ExecutionCounters();
    private final long[] decisions = new long[SchedulingPolicy.STATIC_COUNT];
    private final String[] reasonNames = new String[MAX_REASONS];
    private final long[] reasonCounts = new long[MAX_REASONS];
    private final TaskPhase scatter;
    private final TaskPhase build;
    private final TaskPhase seal;
    private final ExecutionPhase execute;
    private final TaskPhase collapse;
    private final TaskPhase serial;
    // transitions as fields: a method reference taken per batch would allocate per batch
    private final Phase.Transition onSerialDone = this::afterSerial;
    private final Phase.Transition onScatterDone = this::afterScatter;
    private final Phase.Transition onBuildDone = this::afterBuild;
    private final Phase.Transition onSealDone = this::afterSeal;
    private final Phase.Transition onExecuteDone = this::afterExecute;
    private final Phase.Transition onCollapseDone = this::afterCollapse;
    private final SerialApplier serialApplier = new SerialApplier();
    /** What {@link MultiVersionStateTable#prefetch} read, kept in a field so that its loads are not removed. */
    private long prefetched;
    /** The tables closed to new entries, told of keys the committed adds remove; null if none is bounded. */
    private AdmissionGate admission;
    private final SerialOrder serialOrder = new SerialOrder();
    private long serialBatches;
    private long restarts;
    private long serialAborted;
    private long serialOperations;
    private final WidthChoice choice = new WidthChoice(EngineConfiguration.GRAPH_SPEEDUP_PERCENT / 100.0,
        EngineConfiguration.GRAPH_REPROBE_EVERY);
    private final StandaloneJob standalone = new StandaloneJob();
    private WorkerGroup ownWorkers;
    private boolean closed;

    private SchedulingPolicy policy;
    private SchedulingPolicy lastPolicy;
    private Phase.Transition then;
    private int parallelism;
    private long batchStartNs;
    private long executeStartNs;
    private long executeNs;
    private long reExecuted;

    /**
     * The default, {@link #DEFAULT_STRATEGY}: the adaptive heuristic.
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
     * @param threads executors (workers) that may run a batch at once, at least 1.
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
        this.graph = new TaskPrecedenceGraph(shardsFor(threads));
        this.run = new BatchRun(threads, graph);
        this.executors = new OperationExecutor[threads];
        for (int i = 0; i < threads; i++)
        {
            executors[i] = new OperationExecutor(i, run);
        }
        this.scatter = new TaskPhase(TimeCategory.BUILD, this::scatterChunk);
        this.build = new TaskPhase(TimeCategory.BUILD, this::buildShard);
        this.seal = new TaskPhase(TimeCategory.SEAL, this::sealChunk);
        this.execute = new ExecutionPhase();
        this.collapse = new TaskPhase(TimeCategory.COLLAPSE, this::collapseShard);
        this.serial = new TaskPhase(TimeCategory.EXECUTE, this::runSerially);
        LOG.debug("executor: threads={} strategy={} shards={}", threads, model.name(), graph.shardCount());
    }

    /** @return true if this batch's schedule was picked by {@link #choice} (its wall time then feeds it). */
    private boolean choosing()
    {
        return parallelism > 1 && model.adaptive();
    }

    /** @return graph shards for {@code threads} workers: a power of two, a few per worker. */
    private static int shardsFor(final int threads)
    {
        final int wanted = threads == 1 ? 1 : threads * EngineConfiguration.GRAPH_SHARDS_PER_WORKER;
        final int shards = Integer.highestOneBit(Math.max(1, wanted - 1)) << 1;
        return Math.min(Math.min(shards, TaskPrecedenceGraph.MAX_SHARDS), MultiVersionStateTable.SHARDS);
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
        return new TpgBatchExecutor(threads, decisionModel(strategy));
    }

    /**
     * @param strategy a strategy name, as {@link #create} takes.
     * @return a new decision model for it.
     * @throws IllegalArgumentException for an unknown name, listing the valid ones.
     */
    public static DecisionModel decisionModel(final String strategy)
    {
        final String s = strategy.trim().toLowerCase(Locale.ROOT);
        if (s.equals(ADAPTIVE) || s.equals("adaptive-heuristic"))
        {
            return DecisionModel.adaptive(DecisionModel.Mode.HEURISTIC);
        }
        if (s.equals(ADAPTIVE_FEEDBACK))
        {
            return DecisionModel.adaptive(DecisionModel.Mode.FEEDBACK);
        }
        try
        {
            return DecisionModel.fixed(SchedulingPolicy.parse(s));
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

    /** @return the number of executors (workers) that may run a batch at once. */
    public int threads()
    {
        return threads;
    }

    /** @return the decision model's name: a static policy name, {@value #ADAPTIVE} or {@value #ADAPTIVE_FEEDBACK}. */
    public String strategy()
    {
        return model.name();
    }

    /** @return the policy of the last batch's graph, or null before the first or after a batch run in serial order. */
    public SchedulingPolicy lastPolicy()
    {
        return lastPolicy;
    }

    /** @return how many batch builds started again because a state shard had to grow first. */
    public long restarts()
    {
        return restarts;
    }

    /**
     * @return how many batches ran in serial order, without a graph: with an adaptive strategy,
     *         every batch on one worker, and on several those where the graph measured slower
     *         (see {@link WidthChoice}).
     */
    public long serialBatches()
    {
        return serialBatches;
    }

    /** @return the counters of the last batch and totals. */
    public ExecutionCounters counters()
    {
        return counters;
    }

    /** @return the statistics of the last batch as the decision model saw them. */
    public BatchStatistics statistics()
    {
        return statistics;
    }

    /** For tests in this package: the shared state of the batch. */
    BatchRun runForTest()
    {
        return run;
    }

    /** @return the graph of the last batch (statistics; valid until the next batch). */
    public TaskPrecedenceGraph graph()
    {
        return graph;
    }

    /** @return the worker group of standalone runs, or null before the first (its clocks hold the time breakdown). */
    public WorkerGroup ownWorkers()
    {
        return ownWorkers;
    }

    @Override
    public long[] decisionCounts()
    {
        return decisions.clone();
    }

    /**
     * A report of the run so far, for the run report (allocates; call off the hot path):
     * strategy, workers, graphs executed (one per stage a batch reached), decisions per policy,
     * reasons, operations executed and re-executed, transactions aborted, independent transactions.
     */
    @Override
    public Optional<SchedulerReport> summary()
    {
        final SchedulerReport.Builder report = SchedulerReport.builder()
            .strategy(model.name())
            .workers(threads)
            .graphs(counters.batches());
        if (serialBatches > 0)
        {
            report.decision(SERIAL_SCHEDULE, serialBatches);
        }
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
        return Optional.of(report
            .operationsExecuted(counters.totalOperationsExecuted())
            .operationsReExecuted(counters.totalOperationsReExecuted())
            .transactionsAborted(counters.totalTransactionsAborted())
            .independentTransactions(counters.totalIndependentTransactions())
            .build());
    }

    // ---------------------------------------------------------------- standalone

    @Override
    public void execute(final TransactionLog log, final MultiVersionStateTable state)
    {
        if (closed)
        {
            throw new IllegalStateException("executor closed");
        }
        if (ownWorkers == null)
        {
            ownWorkers = new WorkerGroup(threads, true, "transnfv-executor");
        }
        standalone.finished = false;
        final Phase first = begin(log, state, ownWorkers, standalone);
        ownWorkers.runOnCaller(standalone, first);
        final Throwable failure = run.failure();
        if (failure != null)
        {
            throw new IllegalStateException("batch failed: " + failure, failure);
        }
    }

    /** The standalone job: one batch; its last transition ends it. */
    private static final class StandaloneJob implements WorkerGroup.Job, Phase.Transition
    {
        private volatile boolean finished;

        @Override
        public boolean finished()
        {
            return finished;
        }

        @Override
        public Phase next(final int worker)
        {
            finished = true;
            return null;
        }
    }

    // ---------------------------------------------------------------- the batch's phases

    /**
     * Starts a batch: graph and state sized, the build phase opened. Called by one worker (the
     * one that publishes the returned phase); the workers of {@code workers} then run the
     * phases, and the worker that closes the last one calls {@code then}, whose result is
     * published next. A batch that failed (the executor itself; a function that throws only aborts
     * its transaction with {@code FAULT}) leaves the state as before it and
     * reports the failure through {@link #lastFailure()} before {@code then} runs.
     *
     * @param then what follows the batch (it may check {@link #lastFailure()}).
     * @return the first phase, opened.
     */
    @Override
    public Phase begin(
        final TransactionLog log, final MultiVersionStateTable state, final WorkerGroup workers, final Phase.Transition then)
    {
        batchStartNs = System.nanoTime();
        this.then = then;
        final BatchRun run = this.run;
        run.log = log;
        run.state = state;
        run.workers = workers;
        run.resetProgress();
        final int work = log.operationCount() + log.transactionCount();
        parallelism = threads > 1 && workers.workers() > 1 && work >= EngineConfiguration.MIN_PARALLEL_WORK
            ? Math.min(threads, workers.workers()) : 1;
        if (model.adaptive() && (parallelism == 1 || !choice.wide()))
        {
            // one worker gains nothing from a graph, and several may not either (measured, see
            // WidthChoice): the serial order is a valid schedule
            return serial.tasks(1).open(1, onSerialDone);
        }
        state.beginBatch(graph, log);
        graph.beginBatch(log, state);
        run.machine.beginBatch(graph.operationCount(), parallelism > 1, true);
        if (parallelism == 1)
        {
            // one builder needs no buckets: one pass over the batch in serial order
            return build.tasks(1).open(1, onBuildDone);
        }
        return scatter.tasks(graph.chunkCount()).open(parallelism, onScatterDone);
    }

    /**
     * The serial schedule: every transaction in serial order, applied in place to the committed
     * state with the oracle's semantics; the batch's writes are kept in an undo log, so a
     * failure of the executor leaves the state as before the batch.
     */
    private void runSerially(final int task, final int worker)
    {
        final TransactionLog log = run.log;
        final MultiVersionStateTable state = run.state;
        final SerialApplier applier = serialApplier;
        final SerialOrder order = serialOrder;
        order.compute(log);
        // the batch's keys into the cache at once, their misses overlapped (PERFORMANCE.md, "Prefetching the batch's keys")
        prefetched += state.prefetch(log);
        applier.beginBatch();
        long aborted = 0;
        try
        {
            for (int i = 0, n = log.transactionCount(); i < n; i++)
            {
                if (applier.apply(log, order.transactionAt(i), state) != 0)
                {
                    aborted++;
                }
            }
            serialAborted = aborted;
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
            applier.rollbackBatch(state);
        }
        finally
        {
            serialOperations = applier.operationsRun();
            applier.endBatch();
        }
    }

    private Phase afterSerial(final int worker)
    {
        if (run.failure() == null)
        {
            serialBatches++;
            counters.record(serialOperations, 0, 0, serialAborted, 0, 0, 0);
            if (choosing())
            {
                choice.observe(System.nanoTime() - batchStartNs, run.log.operationCount() + run.log.transactionCount());
            }
            lastPolicy = null;
        }
        run.log = null;
        return then.next(worker);
    }

    @Override
    public void admission(final AdmissionGate gate)
    {
        admission = gate;
        serialApplier.admission(gate);
        for (final OperationExecutor executor : executors)
        {
            executor.admission(gate);
        }
    }

    @Override
    public void faultListener(final FaultListener listener)
    {
        serialApplier.faultListener(listener);
        for (final OperationExecutor executor : executors)
        {
            executor.faultListener(listener);
        }
    }

    @Override
    public long runningSequence()
    {
        long sequence = serialApplier.runningSequence();
        for (final OperationExecutor executor : executors)
        {
            sequence = Math.max(sequence, executor.runningSequence());
        }
        return sequence;
    }

    @Override
    public Throwable lastFailure()
    {
        return run.failure();
    }

    private void scatterChunk(final int chunk, final int worker)
    {
        try
        {
            graph.scatter(chunk);
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
        }
    }

    private Phase afterScatter(final int worker)
    {
        if (run.failure() != null)
        {
            return abandon(worker);
        }
        return build.tasks(graph.shardCount()).open(parallelism, onBuildDone);
    }

    /** Builds shard {@code shard} (or every shard, on one worker): its chains, every key bound to its committed value on the way. */
    private void buildShard(final int shard, final int worker)
    {
        try
        {
            if (parallelism == 1)
            {
                graph.buildAll();
            }
            else
            {
                graph.buildShard(shard);
            }
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
        }
    }

    /** A task failed (an engine fault, not a VNF's): the batch is given up, state as before it. */
    private Phase abandon(final int worker)
    {
        final MultiVersionStateTable state = run.state;
        state.abandonBatch();
        if (run.failure() instanceof MultiVersionStateTable.ShardFull)
        {
            // a table shard filled up while building: grow it and build the batch again
            final TransactionLog log = run.log;
            state.growFullShards(log.operationCount() + log.extraTotal());
            restarts++;
            return begin(log, state, run.workers, then);
        }
        run.log = null;
        return then.next(worker);
    }

    private Phase afterBuild(final int worker)
    {
        if (run.failure() != null)
        {
            return abandon(worker);
        }
        graph.finishBuild();
        statistics.measure(graph, parallelism);
        policy = model.choose(statistics);
        recordDecision(policy);
        return seal.tasks(graph.sealChunkCount()).open(parallelism, onSealDone);
    }

    private void sealChunk(final int chunk, final int worker)
    {
        try
        {
            graph.sealChunk(chunk, run.machine);
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
        }
    }

    private Phase afterSeal(final int worker)
    {
        if (run.failure() != null)
        {
            return abandon(worker);
        }
        graph.finishSeal();
        final BatchRun run = this.run;
        final int scheduled = graph.scheduledOperationCount();
        final boolean concurrent = parallelism > 1 && scheduled + graph.independentTransactionCount() >= EngineConfiguration.MIN_PARALLEL_WORK;
        run.concurrent = concurrent;
        run.machine.concurrent(concurrent);
        run.machine.singleOperationUnits(policy.granularity().oneOperationPerUnit());
        run.scheduledOperations = scheduled;
        run.exploration = policy.exploration();
        run.speculative = !policy.abortHandling().readsDecidedVersionsOnly();
        run.independentChunks = graph.sealChunkCount();
        final WorkUnits units = run.units;
        if (policy.granularity().oneOperationPerUnit())
        {
            units.singleOperations(graph.operationCount());
            run.deques.reset(graph.operationCount(), concurrent);
            run.readyChunks = graph.sealChunkCount();
        }
        else
        {
            policy.granularity().partition(graph, units);
            run.deques.reset(graph.operationCount() + units.unitCount(), concurrent);
            run.readyChunks = 0;
            seedUnits(run, units, concurrent ? parallelism : 1);
        }
        for (final OperationExecutor executor : executors)
        {
            executor.resetCounters();
        }
        executeStartNs = System.nanoTime();
        return execute.open(concurrent ? parallelism : 1, onExecuteDone);
    }

    /** Hands every unit whose head is ready to a deque, round-robin; parks the others at their head. */
    private static void seedUnits(final BatchRun run, final WorkUnits units, final int active)
    {
        final OperationStateMachine machine = run.machine;
        final int count = units.unitCount();
        int next = 0;
        for (int u = 0; u < count; u++)
        {
            final int p = units.unitStart(u);
            final int o = units.operationAt(p);
            if (machine.isReady(o))
            {
                run.deques.seed(next, p);
                next = next + 1 == active ? 0 : next + 1;
            }
            else
            {
                machine.parkBeforeStart(o);
            }
        }
    }

    private Phase afterExecute(final int worker)
    {
        executeNs = System.nanoTime() - executeStartNs;
        reExecuted = 0;
        if (run.failure() == null && run.speculative && graph.scheduledOperationCount() > 0)
        {
            try
            {
                reExecuted = resolver.resolve(run, executors[worker]);
            }
            catch (final RuntimeException | Error e)
            {
                run.fail(e);
            }
        }
        if (run.failure() != null)
        {
            return abandon(worker);
        }
        return collapse.tasks(graph.shardCount()).open(parallelism, onCollapseDone);
    }

    private void collapseShard(final int shard, final int worker)
    {
        try
        {
            run.state.collapseShard(shard);
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
        }
    }

    private Phase afterCollapse(final int worker)
    {
        run.state.endBatch();
        if (commitAdds(run.log, run.state))
        {
            applyDeferred(run.log, run.state);
        }
        long executed = 0;
        long skipped = 0;
        long aborted = 0;
        long unitsRun = 0;
        long parks = 0;
        long independent = 0;
        for (final OperationExecutor executor : executors)
        {
            executed += executor.executed;
            skipped += executor.skipped;
            aborted += executor.transactionsAborted;
            unitsRun += executor.unitsRun;
            parks += executor.parks;
            independent += executor.independentRun;
        }
        counters.record(executed, reExecuted, skipped, aborted, unitsRun, parks, independent);
        final int scheduled = graph.scheduledOperationCount();
        statistics.recordOutcome(aborted, scheduled == 0 ? 0 : (double)executeNs / scheduled);
        final long batchNs = System.nanoTime() - batchStartNs;
        model.observe(statistics, policy, batchNs);
        if (choosing())
        {
            choice.observe(batchNs, run.log.operationCount() + run.log.transactionCount());
        }
        lastPolicy = policy;
        if (LOG.isDebugEnabled())
        {
            LOG.debug("batch {}: policy={} reason={} {} | {} ns, {}", counters.batches(), policy.name(), model.lastReason(),
                statistics, batchNs, counters);
        }
        run.log = null;
        return then.next(worker);
    }

    /**
     * The graph's ADDs (and STALE_CHOOSEs, to the candidate they picked) reach the state once the
     * batch is committed: every committed transaction's deltas, on the committed values, in log order (they commute, so any order gives the serial
     * sum). On the coordinating worker, after the collapse; the serial schedule applied its ADDs
     * in place as it went.
     *
     * @return true if the batch has a DEFER, which {@link #applyDeferred} then applies.
     */
    private boolean commitAdds(final TransactionLog log, final MultiVersionStateTable state)
    {
        final AdmissionGate gate = admission;
        boolean deferred = false;
        for (int o = 0, n = log.operationCount(); o < n; o++)
        {
            final int type = log.type(o);
            deferred |= type == DEFER;
            if ((type == ADD || type == STALE_CHOOSE && log.chosen(o) != ChooseFunction.NONE) && log.abortReason(log.transactionOf(o)) == 0)
            {
                final int table = log.table(o);
                final long key = type == ADD ? log.key(o) : log.extraKey(log.extraStart(o) + log.chosen(o));
                final long before = state.get(table, key);
                final long after = before + log.after(o);
                state.put(table, key, after);
                if (gate != null)
                {
                    // a key the batch's adds took back to the initial value was present at the check
                    gate.removedByAdd(table, key, before, after);
                }
            }
        }
        return deferred;
    }

    /**
     * The graph's fire-and-forget updates (DEFERs) reach the state once the batch is committed:
     * every committed transaction's, in serial order, each function given the value its key has
     * then and its transaction's results as the batch left them. On the coordinating worker, after
     * the adds; nothing in the batch read the tables they update, so this is the value the serial
     * order leaves. The serial schedule applied them in place as it went.
     */
    private void applyDeferred(final TransactionLog log, final MultiVersionStateTable state)
    {
        final SerialOrder order = serialOrder;
        final SerialApplier applier = serialApplier;
        order.compute(log);
        for (int i = 0, n = log.transactionCount(); i < n; i++)
        {
            final int t = order.transactionAt(i);
            if (log.abortReason(t) != 0)
            {
                continue;
            }
            for (int o = log.firstOperation(t), end = o + log.operationCount(t); o < end; o++)
            {
                if (log.type(o) == DEFER)
                {
                    applier.applyDeferred(log, o, state);
                }
            }
        }
    }

    private void recordDecision(final SchedulingPolicy policy)
    {
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

    /** The execution phase: executors run until every scheduled operation and independent transaction is done. */
    private final class ExecutionPhase extends Phase
    {
        ExecutionPhase()
        {
            super(TimeCategory.EXECUTE);
        }

        @Override
        protected boolean work(final int worker)
        {
            return executors[worker].work();
        }

        @Override
        protected boolean isComplete()
        {
            return run.failure() != null || (run.initialWorkClaimed() && run.allProcessed());
        }

        @Override
        protected boolean hasClaimableWork()
        {
            return run.failure() == null && (!run.initialWorkClaimed() || run.anyReadyUnit());
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
        if (ownWorkers != null)
        {
            ownWorkers.close();
        }
        LOG.debug("executor closed: {}, {} batches run in serial order, {} builds restarted to grow the state;"
            + " wall ns per unit of work: serial {}, graph {}", counters, serialBatches, restarts,
            choice.narrowNsPerWork(), choice.wideNsPerWork());
    }
}
