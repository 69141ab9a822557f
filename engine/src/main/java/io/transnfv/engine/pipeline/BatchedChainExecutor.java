package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.engine.batch.Engagement;
import io.transnfv.engine.batch.FrameRing;
import io.transnfv.engine.batch.ProcessingFeedback;
import io.transnfv.engine.batch.Punctuation;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.checkpoint.BoundaryCheckpoints;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.CommandQueue;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.Egress;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.executor.StageExecutor;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.fault.Watchdog;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.Ingress;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SnapshotExchange;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.report.WorkerTimes;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.stage.FragmentStage;
import io.transnfv.engine.stage.FusedSegment;
import io.transnfv.engine.stage.StageDispatch;
import io.transnfv.engine.stage.StageRunner;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.state.store.StateStoreException;
import io.transnfv.engine.state.store.TableStores;
import io.transnfv.engine.thread.Phase;
import io.transnfv.engine.thread.TaskPhase;
import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.engine.thread.WorkerClock;
import io.transnfv.engine.thread.WorkerGroup;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.api.StateReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * The transactional engine: {@code N} symmetric workers carry batches of packets through the
 * chain. Whoever holds the IO role reads packets straight from the source into a batch until
 * a {@link Punctuation} closes it, and finishes processed batches in arrival order; every
 * worker joins the phases of the batch in processing, stage by stage:
 *
 * <pre>
 *  IO role (one worker at a time)        batch k+1: READY ─────────────┐
 *   egress: batch k-1 DONE ─► listener, latency, free                  ▼
 *   ingress: source ─► batch k+2 ─► punctuation           batch k: tick (housekeeping)
 *     ─► admit, pre-process VNF 1 (overlaps batch k) ─► READY
 *  phases of the batch in processing (any worker joins):       GATHER  chunk logs ─► stage log
 *                                                              BUILD, SEAL, EXECUTE, COLLAPSE (executor)
 *                                                              STEP s  post-process VNF s, route,
 *                                                                      pre-process VNF s+1
 *                                                              ...     ─► DONE, start batch k+1
 * </pre>
 *
 * <p>This class is the orchestration; each stage's machinery lives in its package: the frames
 * and their hand-over in {@link FrameRing} and the punctuation's feedback in
 * {@link ProcessingFeedback} ({@code batch}), the chunked pre- and post-processing in
 * {@link StageDispatch} ({@code stage}), the cut at a batch boundary in
 * {@link BoundaryCheckpoints} ({@code checkpoint}), the workers' time accounting in
 * {@link WorkerTimes} ({@code report}).
 *
 * <p>Pre-processing reads packets, never state, so the entry VNF's pre-processing of a batch
 * runs in the IO role as it closes the batch, while other workers execute the previous one:
 * with one worker on a batch's serial state phase, the other admits the next batch.
 *
 * <p>No worker waits at a barrier for another: a phase ends when its work is done, and a
 * worker that finds nothing to join reads or finishes packets instead (see
 * {@link WorkerGroup}). Small batches run on one worker.
 *
 * <p>Why this equals the serial oracle: every state table belongs to one VNF, so a table sees
 * exactly the transactions of the packets that reached its VNF, in (time, arrival) order,
 * batch after batch — the order the oracle applies them in; within a batch the executor gives
 * the serial result. A table the chain shares between VNFs is the exception, and the stages from
 * the first to the last VNF that touch one run fused instead ({@link FusedSegment}): packet by
 * packet through all of them, as in the oracle, on one worker. Batches are processed strictly one after the other, and housekeeping runs
 * between two of them, before the packet that crosses its tick, as in the oracle. See
 * {@code docs/design/chains.md}.
 *
 * <p>A live source (a port) that goes quiet for a tick interval of wall time moves packet time on
 * with the wall clock (the constructor's, {@code System::nanoTime} by default); a tick that falls
 * due then closes an empty frame that carries only the housekeeping, run between the batches
 * before and after it as the oracle runs it between those packets. Replayable sources never do
 * this. See {@code docs/design/expiry.md}.
 *
 * <p>Fragments: a batch with IP fragments (or a held one due) first runs the
 * {@link FragmentStage} on the worker that starts it, which re-orders its slots as the oracle
 * emits them; the entry VNF's transactions are then declared again. See
 * {@code docs/design/fragments.md}.
 *
 * <p>Faults and stops (see {@code docs/reliability.md}): VNF code that throws costs its packet
 * ({@link StageRunner}, the executor's fault listener, housekeeping here); a stop request
 * ({@link #control()}) ends the input where the IO role reads next, and the batches already
 * read are finished; a {@link Watchdog} fails the run when a batch makes no progress for the
 * batch deadline; a worker thread that dies fails the run at once.
 */
public final class BatchedChainExecutor implements ChainExecutor
{
    private static final int NO_OWNER = -1;

    private final ChainRuntime runtime;
    private final MultiVersionStateTable state;
    private final StageExecutor executor;
    private final WorkerGroup workers;
    private final int threads;
    private final StageRunner stages;
    private final StageRunner.Worker[] stageWorkers;
    private final RunStats stats;
    /** The workers' counters, summed into a snapshot until the end of the run adds them to {@link #stats}. */
    private final RunStats[] workerStats;
    private final SnapshotExchange snapshots;
    private final int stageCount;
    private final FrameRing ring = new FrameRing();
    private final int capacity;
    private final StageDispatch dispatch;
    private final TaskPhase step;
    private final TaskPhase gather;
    // transitions as fields: a method reference taken per batch would allocate per batch
    private final Phase.Transition onStepDone = this::afterStep;
    private final Phase.Transition onGatherDone = this::afterGather;
    private final Phase.Transition onStageDone = this::afterStage;
    private final Phase.Transition onFusedDone = this::afterFused;
    /** The stages that touch a shared table, run packet by packet on one worker; null if the chain shares none. */
    private final FusedSegment fusedSegment;
    private final TaskPhase fused;
    private final Punctuation punctuation;
    private final Engagement engagement;
    private final String description;
    private final AtomicInteger ioOwner = new AtomicInteger(NO_OWNER);
    private final Job job = new Job();
    private final int frameCapacity;
    private final FragmentTracker tracker;
    private FragmentStage fragmentStage;
    private final RunControl control = new RunControl();
    /** State lookups from outside, answered where no batch is in flight (a batch's start, or while idle). */
    private final CommandQueue commands = new CommandQueue();
    private final ParamChanges paramChanges;
    /** Packets of the batches through the chain: what the committed state holds (the owner of engineIdle's). */
    private long packetsInState;
    private final FaultLog faults;
    private final FaultSettings faultSettings;
    private final LongSupplier wallClockNs;
    /** Moves whenever a phase closes or the IO role returns: what the watchdog watches. */
    private volatile long progress;
    /** The packet that crossed the housekeeping tick running now: it names a VNF's expiry fault. */
    private long expiringSequence;
    private final ChainRuntime.ExpiryListener expiryFaults = new ChainRuntime.ExpiryListener()
    {
        @Override
        public void expiring(final int instance)
        {
        }

        @Override
        public void expiryFailed(final int instance, final Throwable thrown)
        {
            // housekeeping of this VNF stops for this tick, as in the oracle
            faults.record(instance, FaultLog.Callback.EXPIRE, expiringSequence, thrown);
        }
    };

    private Ingress ingress;
    private Egress egress;
    private volatile boolean inputEnded;
    private volatile boolean sourceWasEmpty;
    private long batches;
    private final ProcessingFeedback feedback = new ProcessingFeedback();

    private volatile BatchFrame current;
    private int stage;
    private int frameChunks;
    private int frameParallelism;

    private volatile boolean finished;
    private volatile Throwable failure;
    private final WorkerTimes workerTimes;
    private long grownAtStart;
    private long grownAtEnd;

    /** Checkpoints at batch boundaries, or null for a run without them. */
    private BoundaryCheckpoints checkpoints;

    /**
     * @param chain           the chain; its settings give the punctuation and the workers.
     * @param executorFactory creates the stage executor for a number of workers.
     * @param description     a short description of the executor for reports.
     */
    public BatchedChainExecutor(
        final ChainSpec chain, final IntFunction<? extends StageExecutor> executorFactory, final String description)
    {
        this(chain, executorFactory, description, System::nanoTime);
    }

    /**
     * @param chain           the chain; its settings give the punctuation and the workers.
     * @param executorFactory creates the stage executor for a number of workers.
     * @param description     a short description of the executor for reports.
     * @param wallClockNs     the wall clock packet time follows while a live source is quiet
     *                        ({@code System::nanoTime}; tests drive their own).
     */
    public BatchedChainExecutor(
        final ChainSpec chain, final IntFunction<? extends StageExecutor> executorFactory, final String description,
        final LongSupplier wallClockNs)
    {
        this.wallClockNs = wallClockNs;
        final RunSettings settings = chain.settings();
        this.runtime = new ChainRuntime(chain);
        this.paramChanges = new ParamChanges(runtime);
        // before threads start or buffers are allocated: even the smallest buffers must fit (run() checks the source's)
        BatchMemory.check(settings.punctuationTransactions(), runtime.tracker().maxHeld(), PacketBuffer.MIN_CAPACITY,
            Runtime.getRuntime().maxMemory());
        final StoreKind[] kinds = new StoreKind[runtime.catalog().size()];
        for (int t = 0; t < kinds.length; t++)
        {
            kinds[t] = runtime.storeKind(t);
        }
        this.state = new MultiVersionStateTable(runtime.catalog(), TableStores.open(runtime.catalog(), kinds, settings.stores(), chain.name()));
        this.threads = settings.resolvedExecutorThreads();
        this.executor = executorFactory.apply(threads);
        this.workers = new WorkerGroup(threads, false, "transnfv-worker");
        this.faultSettings = settings.faults();
        this.faults = new FaultLog(vnfNames(runtime));
        this.stages = new StageRunner(runtime, faults);
        executor.faultListener((log, t, thrown) -> faults.record(stages.vnfAt(stage), FaultLog.Callback.STATE_FUNCTION,
            log.sequence(t), thrown));
        executor.admission(runtime.capacities().admission());
        this.stageCount = stages.stages();
        this.stats = new RunStats(runtime);
        this.stageWorkers = new StageRunner.Worker[threads];
        this.workerStats = new RunStats[threads];
        for (int w = 0; w < threads; w++)
        {
            workerStats[w] = new RunStats(runtime);
            stageWorkers[w] = new StageRunner.Worker(stageCount, workerStats[w]);
        }
        this.snapshots = new SnapshotExchange(RunSnapshot.empty(new RunStats(runtime)));
        this.capacity = settings.punctuationTransactions();
        this.tracker = runtime.tracker();
        // room for the held fragments a batch may let go, beyond the packets it reads
        this.frameCapacity = capacity + tracker.maxHeld();
        this.punctuation = new Punctuation(capacity, settings.punctuationIntervalNs(), settings.latencyTargetNs());
        this.engagement = new Engagement(threads, EngineConfiguration.ENGAGE_ADAPTIVE, EngineConfiguration.ENGAGE_NARROW_AFTER,
            EngineConfiguration.ENGAGE_SMALL_BATCH);
        this.dispatch = new StageDispatch(stages, stageWorkers, FrameRing.FRAMES, capacity, frameCapacity);
        this.workerTimes = new WorkerTimes(workers, threads);
        this.step = new TaskPhase(TimeCategory.POSTPROCESS, this::stepTask);
        this.gather = new TaskPhase(TimeCategory.GATHER, this::gatherTask);
        this.fusedSegment = runtime.fusedFirstStage() < 0 ? null : new FusedSegment(runtime, stages, faults, state);
        this.fused = new TaskPhase(TimeCategory.POSTPROCESS, this::fusedTask);
        this.description = description + ", " + threads + (threads == 1 ? " worker" : " workers") + ", batches of up to " + capacity
            + (settings.latencyTargetNs() > 0 ? ", latency target " + settings.latencyTargetNs() / 1_000 + " us" : "")
            + state.stores().describeOutsideHeap(runtime.catalog());
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        open(source, listener);
        workerTimes.runStarted();
        grownAtStart = state.bytesGrown();
        try (Watchdog ignored = faultSettings.batchDeadlineNs() > 0
            ? Watchdog.start("transnfv-watchdog", faultSettings.batchDeadlineNs(), new Watched()) : null)
        {
            workers.runOnWorkers(job, null);
        }
        catch (final IllegalStateException e)
        {
            fail(e);
            // a worker thread died outside the phases' own failure handling
            throw new RunFailedException("the engine stopped: " + e.getMessage() + "; fix: this is a bug in the engine or in"
                + " a VNF; report it with the chain and the traffic", e.getCause() != null ? e.getCause() : e);
        }
        workerTimes.runEnded(ingress.packets());
        grownAtEnd = state.bytesGrown();
        paramChanges.close();
        rethrowFailure();
        for (final StageRunner.Worker worker : stageWorkers)
        {
            stats.add(worker.stats);
        }
        snapshots.publishLast(new RunSnapshot(System.nanoTime(), true, stats.copyWith(), batches, executor.decisionCounts(),
            workerTimes.timeNs()));
        commands.close(state);
        return stats;
    }

    /** Before the workers start: frames sized for the source, the ingress and egress, a checkpoint's state and input position. */
    private void open(final PacketSource source, final PacketListener listener) throws IOException
    {
        // the source's longest frame sizes the buffers: the generator's max_size, a capture's jumbo frames
        final int bufferCapacity = BatchMemory.bufferBytes(source.maxFrameBytes());
        BatchMemory.check(capacity, tracker.maxHeld(), bufferCapacity, Runtime.getRuntime().maxMemory());
        ring.allocate(frameCapacity, bufferCapacity);
        fragmentStage = new FragmentStage(tracker, state, frameCapacity, bufferCapacity);
        ingress = new Ingress(source, runtime.tickIntervalNs(), runtime.capacities().checkEveryByGroup(), runtime.checkGroups(), punctuation,
            bufferCapacity, wallClockNs);
        final CheckerSettings checkers = runtime.spec().settings().checkers();
        if (!runtime.checkerNames().isEmpty())
        {
            ingress.checkersEvery(checkers.everyNs(), checkers.everyPackets(runtime.spec().settings().punctuationTransactions()));
        }
        final ErrorBound errorBound = new ErrorBound(faultSettings);
        egress = new Egress(stats, listener, errorBound, control);
        if (checkpoints != null)
        {
            checkpoints.carryErrorBound(errorBound);
            checkpoints.resume(stats, ingress);
        }
    }

    /** After the workers stopped: the run's failure, if any, as the exception the caller can act on. */
    private void rethrowFailure() throws IOException
    {
        final Throwable t = failure;
        if (t != null)
        {
            if (t instanceof IOException io)
            {
                throw io;
            }
            if (t instanceof UncheckedIOException output)
            {
                // the listener's output failed (a full disk): an I/O failure, not the engine's
                throw output.getCause();
            }
            if (t instanceof RunFailedException failed)
            {
                throw failed;
            }
            if (t instanceof StateStoreException store)
            {
                // a store that failed (a lost Redis): its own message says what to do
                throw store;
            }
            throw new IllegalStateException("engine failed: " + t, t);
        }
    }

    // ---------------------------------------------------------------- the IO role

    /** The run as the workers see it: the current batch's phases, and the IO role as side work. */
    private final class Job implements WorkerGroup.Job
    {
        @Override
        public boolean finished()
        {
            return finished;
        }

        @Override
        public boolean sideWork(final int worker, final WorkerClock clock)
        {
            if (ioOwner.get() != NO_OWNER || !ioOwner.compareAndSet(NO_OWNER, worker))
            {
                return false;
            }
            try
            {
                final boolean did = io(worker, clock);
                if (did)
                {
                    progress++;
                }
                return did;
            }
            catch (final Throwable t)
            {
                fail(t);
                return true;
            }
            finally
            {
                ioOwner.set(NO_OWNER);
            }
        }

        @Override
        public boolean sideWorkFirst()
        {
            // the IO role is free and has work: a batch to finish, or a free frame and a source that had packets
            return ioOwner.get() == NO_OWNER && (ring.emitting().state() == BatchFrame.DONE
                || (!inputEnded && !sourceWasEmpty && ring.filling().state() == BatchFrame.FREE));
        }

        @Override
        public String toString()
        {
            return BatchedChainExecutor.this.toString();
        }

        @Override
        public boolean inFlight()
        {
            // a batch in processing, one being read, or a source that had packets last time: the
            // next hand-over is near (a parked worker would wake tens of microseconds late)
            return !ring.engineIdle() || ioOwner.get() != NO_OWNER || (!inputEnded && !sourceWasEmpty);
        }
    }

    /** The IO role: finish processed batches in order, then read the next one. */
    private boolean io(final int worker, final WorkerClock clock) throws IOException
    {
        boolean did = drainDone(worker, clock);
        if (!inputEnded && failure == null)
        {
            if (control.stopRequested())
            {
                ingress.endInput();
            }
            did |= applyParamChange();
            did |= fillNext(worker, clock);
        }
        if (commands.pending() && ring.holdEngine())
        {
            // no batch in flight and none can start while this role holds the engine: answer lookups now
            commands.drain(state, packetsInState);
            ring.releaseEngine();
            // a worker that found a batch ready while the engine was held left it: start it
            final Phase start = startIfReadyAfterRelease(worker);
            if (start != null)
            {
                workers.publish(start, worker);
            }
        }
        final long ticket = snapshots.pending();
        if (ticket != SnapshotExchange.NONE)
        {
            // the IO role records the latencies: the histogram is copied on the thread that writes it
            snapshots.publish(ticket, new RunSnapshot(System.nanoTime(), false, stats.copyWith(workerStats), batches,
                executor.decisionCounts(), workerTimes.timeNs()));
        }
        if (inputEnded && ring.allFree())
        {
            if (checkpoints != null && control.stopRequested() && failure == null)
            {
                checkpoints.finalCheckpoint();
            }
            finished = true;
            workers.wakeAll();
        }
        return did;
    }

    /** The IO role: the egress finishes the processed batches, in order, and frees their frames. */
    private boolean drainDone(final int worker, final WorkerClock clock) throws IOException
    {
        boolean did = false;
        BatchFrame frame;
        while ((frame = ring.emitting()).state() == BatchFrame.DONE)
        {
            clock.switchTo(TimeCategory.EGRESS);
            egress.finish(frame);
            if (checkpoints != null && checkpoints.egressed(frame))
            {
                // the engine was held for the checkpoint: the next batch may start now
                final BatchFrame next = ring.readyOrRelease();
                if (next != null)
                {
                    workers.publish(startFrame(next, worker), worker);
                }
            }
            ring.emitted(frame);
            did = true;
        }
        return did;
    }

    /**
     * A parameter change waiting: reads nothing past its packet and lets the batches read finish;
     * once every packet read has finished every VNF and none is being read, applies it, whole,
     * at this packet.
     *
     * @return true if a change was applied.
     */
    private boolean applyParamChange()
    {
        final BatchFrame frame = ring.filling();
        if (frame.state() != BatchFrame.FREE)
        {
            return false;
        }
        ingress.cutAt(paramChanges.cutAt(ingress.packets()));
        if (frame.count == 0 && ingress.atCut() && ring.allFree() && ring.holdEngine())
        {
            // every packet read has finished every VNF and none is being read: the change is whole at this packet
            paramChanges.apply(ingress.packets());
            ingress.cutAt(paramChanges.cutAt(ingress.packets()));
            ring.releaseEngine();
            return true;
        }
        return false;
    }

    /**
     * The IO role: reads the source into the free frame until a punctuation closes it, admits it
     * and hands it over READY, starting it if the engine is idle.
     *
     * @return whether the frame closed or the input ended.
     */
    private boolean fillNext(final int worker, final WorkerClock clock) throws IOException
    {
        final BatchFrame frame = ring.filling();
        if (frame.state() != BatchFrame.FREE)
        {
            return false;
        }
        feedback.applyTo(punctuation);
        clock.switchTo(TimeCategory.INGRESS);
        final int read = ingress.fill(frame, ring.engineIdle());
        sourceWasEmpty = read == Ingress.NOTHING_YET;
        if (read == Ingress.ENDED)
        {
            inputEnded = true;
            return true;
        }
        if (read != Ingress.CLOSED)
        {
            return false;
        }
        final boolean tickOnly = frame.count == 0 && !frame.flush;
        if (!tickOnly)
        {
            // a quiet live port's tick is no batch: it says nothing about the load
            workers.engage(engagement.onClosed(frame.closeReason, frame.count, punctuation.batchLimit()));
        }
        admit(frame, ring.fillIndex(), worker, clock);
        frame.number = frame.count == 0 ? batches : batches++;
        ring.filled(frame);
        if (ring.holdEngine())
        {
            // the workers may have taken this batch already (and finished it) between
            // its closing and here: start the next one only if it is really waiting
            final BatchFrame next = ring.readyOrRelease();
            if (next != null)
            {
                workers.publish(startFrame(next, worker), worker);
            }
        }
        return true;
    }

    /**
     * Admits a closed frame and declares the entry VNF's transactions, chunk by chunk, before the
     * frame is handed over. Pre-processing reads only the packet, never state, so it may run
     * while the previous batch executes: the IO role's worker does it here, overlapped with the
     * other workers' execution, instead of every worker doing it after the previous batch.
     */
    private void admit(final BatchFrame frame, final int frameIndex, final int worker, final WorkerClock clock)
    {
        clock.switchTo(TimeCategory.PREPROCESS);
        try
        {
            dispatch.admit(frame, frameIndex, worker);
        }
        catch (final RuntimeException | Error e)
        {
            fail(e);
        }
    }

    // ---------------------------------------------------------------- a batch's phases

    /** Starts processing {@code frame} (READY, next in order): housekeeping if due, then stage 0. */
    private Phase startFrame(final BatchFrame frame, final int worker)
    {
        if (frame.state() != BatchFrame.READY)
        {
            throw new IllegalStateException("starting a batch that is not ready: " + this);
        }
        frame.state(BatchFrame.PROCESSING);
        current = frame;
        stage = 0;
        feedback.batchStarted();
        if (commands.pending())
        {
            // the batch before is collapsed and this one has not begun: the committed state is whole
            commands.drain(state, packetsInState);
        }
        housekeeping(frame, worker);
        dispatch.useAdmitted(ring.processIndex());
        if (failure == null && fragmentStage.due(frame))
        {
            try
            {
                fragmentStage.run(frame, stages.vnfAt(0), stageWorkers[worker]);
                // the entry VNF's transactions again, for the slots in their new order
                dispatch.preProcessEntryAgain(frame, worker);
            }
            catch (final RuntimeException | Error e)
            {
                fail(e);
            }
        }
        if (frame.count == 0 || failure != null)
        {
            // nothing left to run: every packet was held, the end of the input held nothing, or the
            // frame carried only a quiet live port's tick
            frameChunks = 0;
            stage = stageCount;
            return afterStep(worker);
        }
        frameChunks = dispatch.chunks(frame.count);
        frameParallelism = frame.count >= EngineConfiguration.MIN_PARALLEL_WORK ? threads : 1;
        // stage 0 was admitted when the frame closed (see admit): on to its transactions
        return afterStep(worker);
    }

    /** Between the batch before and {@code frame}: the expiry tick and the state checkers, if the frame carries them. */
    private void housekeeping(final BatchFrame frame, final int worker)
    {
        if (frame.tickNs != ExpiryTicker.NONE)
        {
            workers.clock(worker).switchTo(TimeCategory.TRANSITION);
            expiringSequence = frame.tickSequence;
            try
            {
                runtime.expire(frame.tickNs, frame.tickSinceNs, frame.checkGroup, state, expiryFaults);
            }
            catch (final RuntimeException | Error e)
            {
                // the fragment tracker's own housekeeping: not VNF code, so a failure of the engine
                fail(e);
            }
        }
        if (frame.checkersDue)
        {
            // a punctuation the chain's checkers asked for: the batch before is collapsed, this one has not begun
            runtime.runCheckers(state, frame.tickSequence);
        }
    }

    /** STEP s, chunk c: post-process stage s - 1 and pre-process stage s for the chunk's packets. */
    private void stepTask(final int chunk, final int worker)
    {
        try
        {
            dispatch.step(current, stage, chunk, worker, workers.clock(worker));
        }
        catch (final RuntimeException | Error e)
        {
            fail(e);
        }
    }

    private Phase afterStep(final int worker)
    {
        progress++;
        if (failure != null)
        {
            return abortFrame();
        }
        final int s = stage;
        if (s == stageCount)
        {
            return frameDone(worker);
        }
        if (fusedSegment != null && s == fusedSegment.firstStage())
        {
            // a table shared by VNFs of several stages: those stages run packet by packet, as in the oracle
            return fused.tasks(1).open(1, onFusedDone);
        }
        if (dispatch.prepareGather(s, frameChunks) == 0)
        {
            stage = s + 1;
            return step.tasks(frameChunks).open(frameParallelism, onStepDone);
        }
        return gather.tasks(frameChunks).open(frameParallelism, onGatherDone);
    }

    private void fusedTask(final int task, final int worker)
    {
        try
        {
            dispatch.runFused(fusedSegment, current, worker);
        }
        catch (final RuntimeException | Error e)
        {
            fail(e);
        }
    }

    private Phase afterFused(final int worker)
    {
        progress++;
        if (failure != null)
        {
            return abortFrame();
        }
        stage = fusedSegment.lastStage() + 1;
        return step.tasks(frameChunks).open(frameParallelism, onStepDone);
    }

    private void gatherTask(final int chunk, final int worker)
    {
        dispatch.gather(stage, chunk);
    }

    private Phase afterGather(final int worker)
    {
        progress++;
        try
        {
            // a stored table's touched keys into the heap: the executor sees heap tables only
            state.bindStores(dispatch.stageLog(stage));
        }
        catch (final RuntimeException e)
        {
            fail(e);
            return abortFrame();
        }
        return executor.begin(dispatch.stageLog(stage), state, workers, onStageDone);
    }

    private Phase afterStage(final int worker)
    {
        progress++;
        try
        {
            state.releaseStores();
        }
        catch (final RuntimeException e)
        {
            fail(e);
            return abortFrame();
        }
        final Throwable batchFailure = executor.lastFailure();
        if (batchFailure != null)
        {
            fail(batchFailure);
            return abortFrame();
        }
        stage = stage + 1;
        return step.tasks(frameChunks).open(frameParallelism, onStepDone);
    }

    /** The batch is through the chain: hand it to the egress and start the next one if it is ready. */
    private Phase frameDone(final int worker)
    {
        final BatchFrame frame = current;
        current = null;
        packetsInState += frame.count;
        feedback.batchProcessed(frame.count);
        // held for a due checkpoint, the engine stays busy: no batch starts until the IO role took it
        final boolean holdForCheckpoint = checkpoints != null && checkpoints.batchProcessed(frame, fragmentStage.heldFragments());
        final int nextIndex = ring.processed(frame);
        workers.wakeAll();
        if (holdForCheckpoint)
        {
            return null;
        }
        final BatchFrame nextFrame = ring.frame(nextIndex);
        if (nextFrame.state() == BatchFrame.READY)
        {
            return startFrame(nextFrame, worker);
        }
        ring.releaseEngine();
        return startIfReadyAfterRelease(worker);
    }

    /** After the engine was released: starts the next batch if it became ready meanwhile (see {@link FrameRing#claimReady}). */
    private Phase startIfReadyAfterRelease(final int worker)
    {
        final BatchFrame won = ring.claimReady();
        return won == null ? null : startFrame(won, worker);
    }

    private Phase abortFrame()
    {
        current = null;
        finished = true;
        workers.wakeAll();
        return null;
    }

    private void fail(final Throwable t)
    {
        if (failure == null)
        {
            failure = t;
        }
        finished = true;
        workers.wakeAll();
    }

    /** What the batch deadline's watchdog sees of the run. */
    private final class Watched implements Watchdog.Run
    {
        @Override
        public long progress()
        {
            return progress;
        }

        @Override
        public boolean inFlight()
        {
            return current != null || ioOwner.get() != NO_OWNER;
        }

        @Override
        public String whereStuck()
        {
            final StringBuilder where = new StringBuilder();
            for (int w = 0; w < threads; w++)
            {
                final String at = stageWorkers[w].where(runtime);
                if (at != null)
                {
                    where.append(where.length() == 0 ? "" : "; ").append(at).append(" (").append(workers.thread(w).getName()).append(')');
                }
            }
            final BatchFrame frame = current;
            if (where.length() == 0 && frame != null)
            {
                final long sequence = executor.runningSequence();
                where.append("VNF '").append(runtime.instance(stages.vnfAt(stage)).name()).append("' state function")
                    .append(sequence >= 0 ? " on packet #" + sequence : "").append(" (batch ").append(frame.number).append(')');
            }
            return where.length() == 0 ? "no VNF code is running; the engine itself is stuck: " + BatchedChainExecutor.this
                : where.toString();
        }

        @Override
        public void stuck(final String message)
        {
            fail(RunFailedException.stuck(message));
        }
    }

    /** @return the stop request of this executor's run: any thread may ask it to stop. */
    @Override
    public RunControl control()
    {
        return control;
    }

    @Override
    public Optional<StateReader> committedState()
    {
        return Optional.of(state);
    }

    /** @return what VNF code threw during the run. */
    @Override
    public FaultLog faults()
    {
        return faults;
    }

    static List<String> vnfNames(final ChainRuntime runtime)
    {
        final List<String> names = new ArrayList<>();
        for (int v = 0; v < runtime.size(); v++)
        {
            names.add(runtime.instance(v).name());
        }
        return names;
    }

    // ---------------------------------------------------------------- checkpoints

    /** Checkpoints are taken at batch boundaries; see {@link Checkpointer}. Call before {@link #run}. */
    @Override
    public void checkpointWith(final Checkpointer checkpointer)
    {
        this.checkpoints = new BoundaryCheckpoints(checkpointer, state, runtime, this::cutCounters);
        checkpointer.carryFaults(faults);
        checkpointer.carryParamChanges(paramChanges);
    }

    /** Exact between batches: the egress's counters and every worker's share. */
    @Override
    public long[] countersAtBoundary()
    {
        return cutCounters();
    }

    /** Read without synchronisation: exact between batches, otherwise up to a batch old. */
    @Override
    public int heldFragments()
    {
        final FragmentStage stage = fragmentStage;
        return stage == null ? 0 : stage.heldFragments();
    }

    /** @return the run's counters at a cut: the egress's and every worker's share. */
    private long[] cutCounters()
    {
        final long[] counters = stats.counters();
        for (final StageRunner.Worker w : stageWorkers)
        {
            final long[] share = w.stats.counters();
            for (int i = 1; i < counters.length; i++)
            {
                counters[i] += share[i];
            }
        }
        return counters;
    }

    // ---------------------------------------------------------------- reports

    @Override
    public RunStats stats()
    {
        return stats;
    }

    @Override
    public Optional<SnapshotExchange> snapshots()
    {
        return Optional.of(snapshots);
    }

    @Override
    public Optional<CommandQueue> commands()
    {
        return Optional.of(commands);
    }

    @Override
    public Optional<ParamChanges> paramChanges()
    {
        return Optional.of(paramChanges);
    }

    @Override
    public ChainRuntime runtime()
    {
        return runtime;
    }

    @Override
    public String dumpState()
    {
        return StateDump.toString(runtime.catalog(), state);
    }

    @Override
    public void writeState(final Writer out) throws IOException
    {
        StateDump.write(runtime.catalog(), state, out);
    }

    @Override
    public boolean readsSourceItself()
    {
        return true;
    }

    @Override
    public Optional<SchedulerReport> executorSummary()
    {
        final SchedulerReport.Builder report = executor.summary().map(SchedulerReport::toBuilder).orElseGet(SchedulerReport::builder)
            .workers(threads)
            .batches(batches)
            .punctuation(punctuation.report())
            .engagement(engagement.report())
            .stateGrowthBytesPerPacket(Math.round(100.0 * (grownAtEnd - grownAtStart) / Math.max(1, workerTimes.packetsRun())) / 100.0);
        workerTimes.addTo(report);
        return Optional.of(report.build());
    }

    /**
     * @return worker time per packet of the last run, summed over every worker, indexed by
     *         {@link TimeCategory#ordinal()}: where the engine's time went, on the threads where it went.
     */
    public double[] timeNsPerPacket()
    {
        return workerTimes.timeNsPerPacket();
    }

    @Override
    public String describe()
    {
        return description;
    }

    /** @return where the run is, for a diagnostic: frame states, indices, the current phase. */
    @Override
    public String toString()
    {
        return new StringBuilder("BatchedChainExecutor{").append(ring).append(" stage=").append(stage)
            .append(" inputEnded=").append(inputEnded).append(" sourceWasEmpty=").append(sourceWasEmpty)
            .append(" finished=").append(finished).append(" io=").append(ioOwner.get()).append(" phase=").append(workers.current())
            .append(" failure=").append(failure).append('}').toString();
    }

    @Override
    public void close()
    {
        if (failure != null)
        {
            // a worker may be stuck in VNF code for good: do not wait for it long, but let one that
            // is writing a checkpoint finish it before a resume may read the directory
            workers.abandon(EngineConfiguration.FAILED_RUN_GRACE_MS);
        }
        else
        {
            workers.close();
        }
        executor.close();
        state.stores().close();
    }
}
