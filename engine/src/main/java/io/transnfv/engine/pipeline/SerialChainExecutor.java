package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.control.CommandQueue;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.fault.Watchdog;
import io.transnfv.engine.ingress.CheckGroups;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.HeldFragments;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.ingress.QuietClock;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SnapshotExchange;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.thread.FailurePoint;
import io.transnfv.engine.thread.IdleSettings;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.fragment.FirstFragmentFields;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.api.StateReader;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The serial oracle: one thread, one packet at a time in arrival order, each packet through
 * every VNF of its path before the next packet enters, each transaction applied at once by
 * {@link SerialApplier}. Its per-packet records and final state define chain output
 * equivalence; every other executor is judged against it.
 *
 * <p>Before the entry VNF, an IP fragment (of any protocol) runs the chain's {@link FragmentTracker}
 * transaction. A fragment that comes before its datagram's first is held (copied aside, no
 * record yet) and goes through the chain right after that first fragment, with its time, or
 * is dropped as {@code ingress:fragment-timeout} before the first packet more than the
 * timeout after its datagram's first held fragment (or at the end of the input); one with no
 * room to be held is dropped as {@code ingress:fragment-overflow}. Records therefore come in the chain's output order,
 * which is arrival order except for held fragments.
 *
 * <p>Faults and stops behave as in the engine, packet by packet (see {@code docs/reliability.md}):
 * VNF code that throws drops its packet as {@code <vnf>:vnf-error} and the run goes on; the
 * error bound and a stop request end the input after the current packet. The loop runs on its
 * own thread, {@code transnfv-serial}, while the caller waits: a packet past the batch deadline
 * or a thread that dies fails the run at once instead of hanging the caller.
 *
 * <p>A live source (a port) that goes quiet for a tick interval of wall time moves packet time on
 * with the wall clock ({@link QuietClock}), and a tick that falls due runs its housekeeping
 * there, between the packets before and after it, as the engine does. Replayable sources never
 * do this: their ticks fall in packet time alone. See {@code docs/design/expiry.md}.
 */
public final class SerialChainExecutor implements ChainExecutor
{
    /** A snapshot request is looked at every 256 packets (and while the source is quiet): one volatile read each. */
    private static final long SNAPSHOT_CHECK_MASK = EngineConfiguration.SERIAL_SNAPSHOT_CHECK_EVERY_PACKETS - 1;
    private static final VarHandle PROGRESS;

    static
    {
        try
        {
            PROGRESS = MethodHandles.lookup().findVarHandle(SerialChainExecutor.class, "progress", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ChainRuntime runtime;
    private final MapStateStore state;
    private final RunStats stats;
    private final SnapshotExchange snapshots;
    private final TransactionLog log = new TransactionLog(1, 64);
    private static final int VNF_DONE = 0;
    private static final int VNF_FAULT = 1;
    private static final int VNF_STATE_FULL = 2;

    private final SerialApplier applier = new SerialApplier();
    private final ActionRecorder actions = new ActionRecorder();
    private final PacketRecord record = new PacketRecord();
    private final PacketFlyweight packet = new PacketFlyweight();
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final CheckGroups checkGroups;
    private final FragmentTracker tracker;
    private final FirstFragmentFields firstFields = new FirstFragmentFields();
    private final HeldFragments held;
    private final PacketBuffer releasedBuffer = new PacketBuffer();
    private final PacketBuffer spareBuffer = new PacketBuffer();
    private PacketBuffer spare = spareBuffer;
    private long lastTimeNs;
    private long lastSequence = -1;
    private final LongSupplier wallClockNs;
    private final ChainRuntime.ExpiryListener expiryListener = new ExpiryFaults();
    private final RunControl control = new RunControl();
    private final CommandQueue commands = new CommandQueue();
    private final ParamChanges paramChanges;
    private final FaultLog faults;
    private final FaultSettings faultSettings;
    private final ErrorBound errorBound;
    private final FailurePoint failurePoint = new FailurePoint("serial");
    private volatile Throwable failure;
    private volatile boolean done;
    // where the loop is, for the watchdog: packets started (odd while one is in the chain), VNF, callback
    private volatile long progress;
    private int currentNode = -1;
    private FaultLog.Callback currentCallback;
    private long currentSequence;
    private final int checkpointBatchPackets;
    private Checkpointer checkpointer;

    /** @param chain the chain to run; the executor builds its own runtime and state. */
    public SerialChainExecutor(final ChainSpec chain)
    {
        this(chain, System::nanoTime);
    }

    /**
     * @param chain       the chain to run; the executor builds its own runtime and state.
     * @param wallClockNs the wall clock packet time follows while a live source is quiet
     *                    ({@code System::nanoTime}; tests drive their own).
     */
    public SerialChainExecutor(final ChainSpec chain, final LongSupplier wallClockNs)
    {
        this.wallClockNs = wallClockNs;
        this.runtime = new ChainRuntime(chain);
        this.paramChanges = new ParamChanges(runtime);
        this.state = new MapStateStore(runtime.catalog());
        this.stats = new RunStats(runtime);
        this.snapshots = new SnapshotExchange(RunSnapshot.empty(new RunStats(runtime)));
        this.ticker = runtime.newTicker();
        this.checkGroups = runtime.checkGroups();
        if (!runtime.checkerNames().isEmpty())
        {
            final CheckerSettings checkers = chain.settings().checkers();
            ticker.checkersEvery(checkers.everyNs(), checkers.everyPackets(chain.settings().punctuationTransactions()));
        }
        this.tracker = runtime.tracker();
        this.held = new HeldFragments(tracker.maxHeld(), PacketBuffer.DEFAULT_CAPACITY);
        this.faultSettings = chain.settings().faults();
        this.errorBound = new ErrorBound(faultSettings);
        this.faults = new FaultLog(BatchedChainExecutor.vnfNames(runtime));
        applier.faultListener((l, t, thrown) -> faults.record(currentNode, FaultLog.Callback.STATE_FUNCTION, l.sequence(t), thrown));
        applier.admission(runtime.capacities().admission());
        this.checkpointBatchPackets = chain.settings().punctuationTransactions();
    }

    /** The oracle has no batches: for checkpoints, a batch is every punctuation-size run of packets. */
    @Override
    public void checkpointWith(final Checkpointer checkpointer)
    {
        this.checkpointer = checkpointer;
        checkpointer.carryFaults(faults);
        checkpointer.carryParamChanges(paramChanges);
        checkpointer.carryErrorBound(errorBound);
        // a check runs before its packet, so a cut after packet n holds every check before packet n
        checkpointer.carryCheckers(runtime);
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        final Thread caller = Thread.currentThread();
        final Thread loop = new Thread(() ->
        {
            try
            {
                loop(source, listener);
            }
            catch (final Throwable t)
            {
                failure = t;
            }
            finally
            {
                done = true;
                LockSupport.unpark(caller);
            }
        }, "transnfv-serial");
        loop.setDaemon(true);
        loop.setUncaughtExceptionHandler((t, e) ->
        {
            failure = e;
            LockSupport.unpark(caller);
        });
        try (Watchdog ignored = faultSettings.batchDeadlineNs() > 0
            ? Watchdog.start("transnfv-watchdog", faultSettings.batchDeadlineNs(), new Watched(caller)) : null)
        {
            loop.start();
            while (!done && failure == null)
            {
                LockSupport.parkNanos(this, 100_000_000L);
            }
        }
        paramChanges.close();
        final Throwable t = failure;
        if (t == null)
        {
            snapshots.publishLast(new RunSnapshot(System.nanoTime(), true, stats.copyWith(), 0, new long[0], new long[0]));
            commands.close(state);
            return stats;
        }
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
        throw new RunFailedException("the serial executor stopped: " + t + "; fix: this is a bug in the engine or in a VNF;"
            + " report it with the chain and the traffic", t);
    }

    private void loop(final PacketSource source, final PacketListener listener) throws IOException
    {
        final PacketBuffer buffer = new PacketBuffer();
        long packets = checkpointer == null ? 0 : resume(source, buffer);
        final IdleStrategy idle = IdleSettings.newIdleStrategy();
        final QuietClock quiet = new QuietClock(source.live(), runtime.tickIntervalNs(), wallClockNs);
        // positions count from the traffic's first packet, also after a resume
        long read = packets;
        while (!control.stopRequested())
        {
            if (paramChanges.cutAt(read) <= read)
            {
                // between two packets nothing is in flight: packets from here on see the change
                paramChanges.apply(read);
            }
            // poll, not next: a live source with nothing to read must not keep a stop request waiting
            final int polled = source.poll(buffer);
            if (polled == PacketSource.END)
            {
                break;
            }
            if (polled == PacketSource.NOTHING_YET)
            {
                final long quietTimeNs = quiet.onNothingYet(clock.lastNs());
                if (quietTimeNs != QuietClock.NONE)
                {
                    onQuiet(quietTimeNs, listener);
                }
                serveSnapshot();
                idle.idle();
                continue;
            }
            read++;
            quiet.onPacket();
            idle.reset();
            failurePoint.check();
            // latency: from the hand-over (stamped by an ingress thread or a paced source) to here
            long ingressNs = buffer.ingressNs();
            if (ingressNs == 0 && EngineConfiguration.latencySampled(buffer.sequence()))
            {
                ingressNs = System.nanoTime();
            }
            process(buffer, listener);
            if (ingressNs != 0)
            {
                stats.recordLatencyNs(System.nanoTime() - ingressNs, record);
            }
            if ((buffer.sequence() & SNAPSHOT_CHECK_MASK) == 0)
            {
                serveSnapshot();
            }
            if (checkpointer != null && ++packets % checkpointBatchPackets == 0 && held.size() == 0
                && checkpointer.dueAfterBatch(clock.lastNs()))
            {
                // a cut with no fragment held aside: every packet read so far is in the state and the outputs
                checkpointer.take(state, packets, clock.lastNs(), runtime.checkpointCounters(stats.counters()));
            }
        }
        if (checkpointer != null && control.stopRequested())
        {
            finalCheckpoint(packets);
        }
        endOfInput(listener);
    }

    /**
     * Copies the counters for a reader off the data path, if one asked ({@link #snapshots()}), and
     * answers state lookups ({@link #commands()}): between two packets the state is whole.
     */
    private void serveSnapshot()
    {
        if (commands.pending())
        {
            commands.drain(state, stats.packetsFinished());
        }
        final long ticket = snapshots.pending();
        if (ticket != SnapshotExchange.NONE)
        {
            snapshots.publish(ticket, new RunSnapshot(System.nanoTime(), false, stats.copyWith(), 0, new long[0], new long[0]));
        }
    }

    /**
     * A stop before the end of the traffic: the checkpoint at the packet the run stopped after,
     * so that a resume goes on from there, unless fragments held aside make it no cut (the end of
     * the input, next, would time them out, which a resumed run must not repeat).
     */
    private void finalCheckpoint(final long packets) throws IOException
    {
        if (held.size() == 0)
        {
            checkpointer.takeFinal(state, packets, clock.lastNs(), runtime.checkpointCounters(stats.counters()));
        }
        else
        {
            checkpointer.skipFinal(held.size());
        }
    }

    /**
     * Restores the checkpoint the checkpointer loaded, if any, and skips the packets its state
     * holds, keeping packet time and the housekeeping ticks where they were.
     *
     * @return packets of the source the state holds.
     */
    private long resume(final PacketSource source, final PacketBuffer buffer) throws IOException
    {
        final long[] counters = checkpointer.restore(state);
        if (counters != null)
        {
            stats.addCounters(runtime.restoreCheckpointCounters(counters));
        }
        final long skip = checkpointer.resumeInputPackets();
        for (long i = 0; i < skip; i++)
        {
            if (!source.next(buffer))
            {
                throw new IOException("the source ended after " + i + " packets, but the checkpoint holds " + skip
                    + "\nfix: resume with the traffic the run was started with");
            }
            lastTimeNs = clock.onPacket(buffer.timestampNs());
            ticker.due(lastTimeNs, checkGroups.of(buffer));
        }
        if (checkpointer.resumeClockNs() != Long.MIN_VALUE)
        {
            lastTimeNs = clock.onPacket(checkpointer.resumeClockNs());
            ticker.due(lastTimeNs, checkGroups.withoutPacket());
        }
        checkpointer.resumed();
        return skip;
    }

    /**
     * The live source has been quiet for a tick interval: packet time moves on to
     * {@code quietTimeNs}, and the housekeeping tick it crossed, if any, runs now, named after
     * the last packet before it (as the engine's frame that carries only the tick), and then
     * the held IP fragments whose time is up by then are dropped as timed out (as that frame's
     * fragment stage does).
     */
    private void onQuiet(final long quietTimeNs, final PacketListener listener)
    {
        lastTimeNs = clock.onPacket(quietTimeNs);
        final long tick = ticker.dueWithoutPacket(lastTimeNs);
        if (tick == ExpiryTicker.NONE)
        {
            return;
        }
        PROGRESS.setRelease(this, progress + 1);
        try
        {
            currentSequence = lastSequence;
            runtime.expire(tick, ticker.sinceNs(), ticker.checkGroup(), state, expiryListener);
            long due;
            while ((due = held.dueDatagram(lastTimeNs, tracker.timeoutNs())) != HeldFragments.NONE_DUE)
            {
                timeOut(due, lastTimeNs, listener);
            }
        }
        finally
        {
            currentCallback = null;
            PROGRESS.setRelease(this, progress + 1);
        }
    }

    /**
     * Runs one packet through the chain: housekeeping if a tick is due (and the fragments it
     * timed out), the fragment tracker, then each VNF of its path. Every packet finished goes
     * to the listener with its record.
     */
    void process(final PacketBuffer buffer, final PacketListener listener)
    {
        PROGRESS.setRelease(this, progress + 1);
        try
        {
            track(buffer, listener);
        }
        finally
        {
            currentCallback = null;
            PROGRESS.setRelease(this, progress + 1);
        }
    }

    private void track(final PacketBuffer buffer, final PacketListener listener)
    {
        final long timeNs = clock.onPacket(buffer.timestampNs());
        lastTimeNs = timeNs;
        currentSequence = buffer.sequence();
        lastSequence = currentSequence;
        final long tick = ticker.due(timeNs, checkGroups.of(buffer));
        if (tick != ExpiryTicker.NONE)
        {
            runtime.expire(tick, ticker.sinceNs(), ticker.checkGroup(), state, expiryListener);
        }
        if (ticker.checkersDue())
        {
            // where the engine closes a batch for the checkers: between the same two packets
            runtime.runCheckers(state, currentSequence);
        }
        long due;
        while ((due = held.dueDatagram(timeNs, tracker.timeoutNs())) != HeldFragments.NONE_DUE)
        {
            timeOut(due, timeNs, listener);
        }
        record.reset(buffer.sequence(), timeNs);
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
        if (!packet.isValid())
        {
            record.dropAtIngress(packet.malformedReason());
            finish(buffer, timeNs, listener);
            return;
        }
        if (!FragmentTracker.tracks(packet))
        {
            chain(timeNs, buffer.sequence());
            finish(buffer, timeNs, listener);
            return;
        }
        log.clear();
        log.begin(timeNs, buffer.sequence(), packet);
        tracker.preProcess(packet, log);
        log.end();
        applier.apply(log, 0, state);
        actions.reset();
        tracker.postProcess(packet, log.view(0), actions);
        final int outcome = tracker.outcome(log.view(0));
        if (outcome == FragmentTracker.HELD)
        {
            held.holdCopy(FlowKeys.datagram(packet), buffer, timeNs);
            return;
        }
        if (outcome == FragmentTracker.OVERFLOW)
        {
            record.dropAtIngress(PacketRecord.FRAGMENT_OVERFLOW);
            finish(buffer, timeNs, listener);
            return;
        }
        final int released = outcome == FragmentTracker.FIRST ? tracker.released(log.view(0)) : 0;
        if (released > 0)
        {
            tracker.firstFields(log.view(0), firstFields);
        }
        final long datagram = released > 0 ? FlowKeys.datagram(packet) : 0;
        chain(timeNs, buffer.sequence());
        finish(buffer, timeNs, listener);
        if (released > 0)
        {
            final int n = held.select(datagram);
            for (int i = 0; i < n; i++)
            {
                // a released fragment goes on with the time of the first fragment that released it
                final PacketBuffer fragment = held.take(i, spare);
                releasedBuffer.copyFrom(fragment);
                spare = fragment;
                currentSequence = releasedBuffer.sequence();
                record.reset(releasedBuffer.sequence(), timeNs);
                packet.wrap(releasedBuffer.memory(), releasedBuffer.offset(), releasedBuffer.length(), releasedBuffer.originalLength(),
                    releasedBuffer.linkType());
                firstFields.giveTo(packet);
                chain(timeNs, releasedBuffer.sequence());
                finish(releasedBuffer, timeNs, listener);
            }
        }
    }

    /** The input has ended: every fragment still held times out, after the last packet. */
    void endOfInput(final PacketListener listener)
    {
        while (held.size() > 0)
        {
            timeOut(held.oldestDatagram(), lastTimeNs, listener);
        }
    }

    /** Times out {@code datagram}: its held fragments are dropped, in arrival order. */
    private void timeOut(final long datagram, final long timeNs, final PacketListener listener)
    {
        tracker.timeOut(datagram, state);
        final int n = held.select(datagram);
        for (int i = 0; i < n; i++)
        {
            final PacketBuffer fragment = held.take(i, spare);
            releasedBuffer.copyFrom(fragment);
            spare = fragment;
            record.reset(releasedBuffer.sequence(), timeNs);
            packet.wrap(releasedBuffer.memory(), releasedBuffer.offset(), releasedBuffer.length(), releasedBuffer.originalLength(),
                releasedBuffer.linkType());
            record.dropAtIngress(PacketRecord.FRAGMENT_TIMEOUT);
            finish(releasedBuffer, timeNs, listener);
        }
    }

    /** The packet in {@link #packet} through each VNF of its path; VNF code that throws drops it there. */
    private void chain(final long timeNs, final long sequence)
    {
        int node = 0;
        while (node != ChainRuntime.EGRESS)
        {
            final Vnf vnf = runtime.instance(node).vnf();
            currentNode = node;
            final int outcome = runVnf(vnf, node, timeNs, sequence);
            if (outcome == VNF_FAULT)
            {
                record.fault(node, runtime.instance(node).vnfErrorReason());
                return;
            }
            if (outcome == VNF_STATE_FULL)
            {
                record.stateFull(node, runtime.instance(node).stateFullReason());
                return;
            }
            runtime.triggers().fire(node, log.view(0), actions);
            record.visit(node, log.view(0), actions);
            node = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(node, actions.output(), packet);
        }
    }

    /** A packet is finished: the error bound judges it, the counters and the listener see it. */
    private void finish(final PacketBuffer buffer, final long timeNs, final PacketListener listener)
    {
        if (errorBound.onPacket(timeNs, record.faulted()))
        {
            control.requestStop(RunControl.StopCause.ERROR_BOUND, errorBound.exceeded());
        }
        stats.onFinished(record, buffer.length());
        if (listener != null)
        {
            listener.onPacket(record, buffer, packet);
        }
    }

    /** Housekeeping faults: the VNF's housekeeping stops for this tick, the packet that crossed it names it. */
    private final class ExpiryFaults implements ChainRuntime.ExpiryListener
    {
        @Override
        public void expiring(final int instance)
        {
            currentNode = instance;
            currentCallback = instance < 0 ? null : FaultLog.Callback.EXPIRE;
        }

        @Override
        public void expiryFailed(final int instance, final Throwable thrown)
        {
            faults.record(instance, FaultLog.Callback.EXPIRE, currentSequence, thrown);
        }
    }

    /**
     * Runs one VNF on the packet: pre-processing, the transaction, post-processing.
     *
     * @return {@link #VNF_DONE}; {@link #VNF_FAULT} if its code threw (recorded): the packet is to
     *         be dropped as a VNF error; {@link #VNF_STATE_FULL} if its transaction was refused a
     *         new entry in a full table.
     */
    private int runVnf(final Vnf vnf, final int node, final long timeNs, final long sequence)
    {
        log.clear();
        log.begin(timeNs, sequence, packet);
        currentCallback = FaultLog.Callback.PRE_PROCESS;
        try
        {
            vnf.preProcess(packet, log);
            log.end();
        }
        catch (final Throwable t)
        {
            log.discardOpen();
            faults.record(node, FaultLog.Callback.PRE_PROCESS, sequence, t);
            return VNF_FAULT;
        }
        currentCallback = FaultLog.Callback.STATE_FUNCTION;
        final int aborted = applier.apply(log, 0, state);
        if (aborted == TransactionView.FAULT)
        {
            return VNF_FAULT;
        }
        if (aborted == TransactionView.STATE_FULL)
        {
            return VNF_STATE_FULL;
        }
        actions.reset();
        currentCallback = FaultLog.Callback.POST_PROCESS;
        try
        {
            vnf.postProcess(packet, log.view(0), actions);
        }
        catch (final Throwable t)
        {
            faults.record(node, FaultLog.Callback.POST_PROCESS, sequence, t);
            return VNF_FAULT;
        }
        return VNF_DONE;
    }

    /** What the batch deadline's watchdog sees: the packet in the chain and where it is. */
    private final class Watched implements Watchdog.Run
    {
        private final Thread caller;

        Watched(final Thread caller)
        {
            this.caller = caller;
        }

        @Override
        public long progress()
        {
            return progress;
        }

        @Override
        public boolean inFlight()
        {
            return (progress & 1) == 1;
        }

        @Override
        public String whereStuck()
        {
            final FaultLog.Callback callback = currentCallback;
            final int node = currentNode;
            return callback == null || node < 0 ? "no VNF code is running; the serial executor itself is stuck"
                : "VNF '" + runtime.instance(node).name() + "' " + callback.label() + " on packet #" + currentSequence
                    + " (transnfv-serial)";
        }

        @Override
        public void stuck(final String message)
        {
            failure = RunFailedException.stuck(message);
            LockSupport.unpark(caller);
        }
    }

    @Override
    public RunControl control()
    {
        return control;
    }

    @Override
    public int heldFragments()
    {
        return held.size();
    }

    @Override
    public Optional<StateReader> committedState()
    {
        return Optional.of(state);
    }

    @Override
    public FaultLog faults()
    {
        return faults;
    }

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
    public Optional<ParamChanges> paramChanges()
    {
        return Optional.of(paramChanges);
    }

    @Override
    public Optional<CommandQueue> commands()
    {
        return Optional.of(commands);
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

    /** @return the oracle's committed state. */
    public MapStateStore state()
    {
        return state;
    }

    @Override
    public ChainRuntime runtime()
    {
        return runtime;
    }

    @Override
    public String describe()
    {
        return "serial";
    }

    @Override
    public void close()
    {
        log.clear();
    }
}
