package io.transnfv.experiments.baselines;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.ingress.CheckGroups;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What every parallel baseline shares: packets are read in batches (the chain's punctuation
 * size, so the baselines hand work out in the same units as the engine), each batch is split
 * among {@code workers} worker threads, and every worker runs whole packets through the chain
 * exactly as the serial oracle does — pre-processing, one transaction applied at once by
 * {@link SerialApplier}, post-processing, routing — against the store its baseline gives it.
 * Subclasses decide which worker gets a packet and what a transaction's state access is.
 *
 * <pre>
 *  run() thread ─► read batch ─► post ──► worker 0 (itself) ─┐
 *                                    └──► worker 1..N-1 ─────┴─► wait ─► finish packets in
 *                                                                       arrival order
 * </pre>
 *
 * <p>Housekeeping ticks close the batch before the packet that triggers them and run on the
 * {@code run()} thread while the workers wait, as in the oracle. Helper threads start in the
 * subclass constructor ({@link #start()}) and stop in {@link #close()}.
 */
public abstract class ParallelChainExecutor implements ChainExecutor
{
    private static final int NOBODY = -2;
    private static final long STOP = -1L;
    private static final int SPINS_BEFORE_YIELD = 2_000;
    // A parked helper wakes up tens of microseconds late, longer than a batch's work; yielding
    // keeps it ready for the next batch for about a millisecond and still gives the core away.
    private static final int YIELDS_BEFORE_PARK = 20_000;
    private static final long PARK_NS = 50_000L;

    private final IdleStrategy coordinatorBackoff = newBackoff();

    /** The chain this executor runs. */
    protected final ChainRuntime runtime;
    /** Worker threads, counting the thread that calls {@link #run}. */
    protected final int workers;
    private final RunStats stats;
    private final int batchCapacity;
    private final PacketBuffer[] buffers;
    private final PacketFlyweight[] packets;
    private final PacketRecord[] records;
    private final long[] ingressNs;
    private final int[] owner;
    private final Worker[] contexts;
    private final Thread[] helpers;
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final CheckGroups checkGroups;
    private final String description;
    private final AtomicInteger finished = new AtomicInteger();

    private final RunControl control = new RunControl();
    private final FaultLog faults;
    private volatile long posted;
    private volatile Throwable failure;
    private boolean byRange;
    private int postedCount;
    private long generation;
    private long syncNs;
    private long batches;

    /** A baseline does not isolate faults: a VNF's eviction that throws fails the run, as its expiry does. */
    private static final ChainRuntime.ExpiryListener NO_EXPIRY_FAULTS = new ChainRuntime.ExpiryListener()
    {
        @Override
        public void expiring(final int instance)
        {
        }

        @Override
        public void expiryFailed(final int instance, final Throwable thrown)
        {
            throw thrown instanceof RuntimeException e ? e : new IllegalStateException(thrown);
        }
    };

    /**
     * @param chain       the chain; its punctuation size is the batch size.
     * @param workers     worker threads, at least 1, counting the caller of {@link #run}.
     * @param description what {@link #describe()} says.
     */
    protected ParallelChainExecutor(final ChainSpec chain, final int workers, final String description)
    {
        if (workers < 1)
        {
            throw new IllegalArgumentException("workers must be >= 1: " + workers);
        }
        // the baselines order accesses within one VNF's table only, never one VNF's against another's
        chain.refuseSharedTables("the " + description + " baseline");
        this.runtime = new ChainRuntime(chain);
        this.workers = workers;
        this.stats = new RunStats(runtime);
        this.batchCapacity = chain.settings().punctuationTransactions();
        this.ticker = runtime.newTicker();
        this.checkGroups = runtime.checkGroups();
        this.description = description;
        final List<String> names = new ArrayList<>();
        for (int v = 0; v < runtime.size(); v++)
        {
            names.add(runtime.instance(v).name());
        }
        // a baseline does not isolate faults: VNF code that throws fails its run, so this stays empty
        this.faults = new FaultLog(names);
        buffers = new PacketBuffer[batchCapacity];
        packets = new PacketFlyweight[batchCapacity];
        records = new PacketRecord[batchCapacity];
        for (int i = 0; i < batchCapacity; i++)
        {
            buffers[i] = new PacketBuffer();
            packets[i] = new PacketFlyweight();
            records[i] = new PacketRecord();
        }
        ingressNs = new long[batchCapacity];
        owner = new int[batchCapacity];
        contexts = new Worker[workers];
        helpers = new Thread[workers - 1];
    }

    /**
     * Creates each worker's store and starts the helper threads; the subclass constructor
     * calls it last, once the stores it hands out exist.
     */
    protected final void start()
    {
        byRange = splitsByRange();
        for (int w = 0; w < workers; w++)
        {
            contexts[w] = new Worker(w, storeOf(w));
        }
        for (int h = 0; h < helpers.length; h++)
        {
            final Worker context = contexts[h + 1];
            helpers[h] = new Thread(() -> helperLoop(context), "baseline-worker-" + (h + 1));
            helpers[h].setDaemon(true);
            helpers[h].start();
        }
    }

    /** @return the store worker {@code worker}'s transactions run against. */
    protected abstract StateStore storeOf(int worker);

    /** @return the worker that handles {@code packet}; unused when {@link #splitsByRange()}. */
    protected abstract int ownerOf(PacketFlyweight packet);

    /** @return whether a batch is cut into contiguous ranges, one per worker, instead of by owner. */
    protected boolean splitsByRange()
    {
        return false;
    }

    /** @return the committed state, for dumps and housekeeping, read only between batches. */
    protected abstract StateMaintenance stateView();

    /**
     * Runs the one transaction of {@code log} against {@code worker}'s store and records its
     * results in the log. The default applies it with no synchronisation at all.
     */
    protected void access(final Worker worker, final TransactionLog log)
    {
        worker.applier.apply(log, 0, worker.store);
    }

    /**
     * Housekeeping at {@code tickNs} ({@link ExpiryTicker#CHECK}: a capacity check alone), between
     * batches. The default runs every VNF's expiry, if any VNF asked for it, then the capacity
     * check of the tables it judges ({@code checkGroup}: {@link ExpiryTicker#checkGroup}), on
     * {@link #stateView()}: the tables the oracle finds full at the same packets refuse new
     * entries here too.
     */
    protected void expire(final long tickNs, final long sinceNs, final int checkGroup)
    {
        final StateMaintenance state = stateView();
        if (tickNs != ExpiryTicker.CHECK && runtime.expiryIntervalNs() > 0)
        {
            for (int v = 0; v < runtime.size(); v++)
            {
                final long own = runtime.vnfTickNs(v, tickNs, sinceNs);
                if (own != ExpiryTicker.NONE)
                {
                    runtime.instance(v).vnf().expire(own, state);
                }
            }
        }
        runtime.capacities().check(state, NO_EXPIRY_FAULTS, tickNs, sinceNs, checkGroup);
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        int count = 0;
        final IdleStrategy idle = newBackoff();
        while (true)
        {
            final int read = control.stopRequested() ? PacketSource.END : source.poll(buffers[count]);
            if (read == PacketSource.END)
            {
                break;
            }
            if (read == PacketSource.NOTHING_YET)
            {
                // an idle input closes the batch, as the engine's punctuation does: under a paced
                // replay a batch never waits for packets that have not arrived
                if (count > 0)
                {
                    runBatch(count, listener);
                    count = 0;
                }
                idle.idle();
                continue;
            }
            idle.reset();
            final PacketBuffer buffer = buffers[count];
            final long timeNs = clock.onPacket(buffer.timestampNs());
            final long tick = ticker.due(timeNs, checkGroups.of(buffer));
            if (tick != ExpiryTicker.NONE)
            {
                if (count > 0)
                {
                    runBatch(count, listener);
                    buffers[count] = buffers[0];
                    buffers[0] = buffer;
                    count = 0;
                }
                expire(tick, ticker.sinceNs(), ticker.checkGroup());
            }
            admit(count, buffer, timeNs);
            count++;
            if (count == batchCapacity)
            {
                runBatch(count, listener);
                count = 0;
            }
        }
        if (count > 0)
        {
            runBatch(count, listener);
        }
        return stats;
    }

    private void admit(final int slot, final PacketBuffer buffer, final long timeNs)
    {
        // a paced replay stamps the packet's scheduled arrival: the time it waited counts
        final long given = buffer.ingressNs();
        ingressNs[slot] = given != 0 ? given : System.nanoTime();
        records[slot].reset(buffer.sequence(), timeNs);
        final PacketFlyweight packet = packets[slot];
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
        if (packet.isValid())
        {
            owner[slot] = byRange ? 0 : ownerOf(packet);
        }
        else
        {
            records[slot].dropAtIngress(packet.malformedReason());
            owner[slot] = NOBODY;
        }
    }

    private void runBatch(final int count, final PacketListener listener)
    {
        batches++;
        finished.set(0);
        postedCount = count;
        posted = ++generation;
        processShare(contexts[0], count);
        final long waitStartNs = System.nanoTime();
        final IdleStrategy backoff = coordinatorBackoff;
        while (finished.get() != helpers.length)
        {
            backoff.idle();
        }
        backoff.reset();
        syncNs += System.nanoTime() - waitStartNs;
        final Throwable failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException("a baseline worker failed", failed);
        }
        final long doneNs = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            stats.recordLatencyNs(doneNs - ingressNs[i], records[i]);
            stats.onFinished(records[i], buffers[i].length());
            if (listener != null)
            {
                listener.onPacket(records[i], buffers[i], packets[i]);
            }
        }
    }

    private void helperLoop(final Worker context)
    {
        long seen = 0;
        final IdleStrategy backoff = newBackoff();
        while (true)
        {
            long g;
            while ((g = posted) == seen)
            {
                backoff.idle();
            }
            backoff.reset();
            if (g == STOP)
            {
                return;
            }
            seen = g;
            try
            {
                processShare(context, postedCount);
            }
            catch (final RuntimeException | Error e)
            {
                failure = e;
            }
            finished.incrementAndGet();
        }
    }

    private static IdleStrategy newBackoff()
    {
        return new BackoffIdleStrategy(SPINS_BEFORE_YIELD, YIELDS_BEFORE_PARK, PARK_NS, PARK_NS);
    }

    private void processShare(final Worker worker, final int count)
    {
        final int w = worker.index;
        if (byRange)
        {
            final int from = (int)((long)w * count / workers);
            final int to = (int)((long)(w + 1) * count / workers);
            for (int i = from; i < to; i++)
            {
                if (owner[i] != NOBODY)
                {
                    worker.process(i);
                }
            }
            return;
        }
        for (int i = 0; i < count; i++)
        {
            if (owner[i] == w)
            {
                worker.process(i);
            }
        }
    }

    @Override
    public RunStats stats()
    {
        return stats;
    }

    @Override
    public ChainRuntime runtime()
    {
        return runtime;
    }

    @Override
    public RunControl control()
    {
        return control;
    }

    @Override
    public FaultLog faults()
    {
        return faults;
    }

    @Override
    public String dumpState()
    {
        return StateDump.toString(runtime.catalog(), stateView());
    }

    @Override
    public void writeState(final Writer out) throws IOException
    {
        StateDump.write(runtime.catalog(), stateView(), out);
    }

    @Override
    public String describe()
    {
        return description;
    }

    /** @return nanoseconds the {@code run()} thread waited for the other workers at batch ends. */
    public long syncNs()
    {
        return syncNs;
    }

    /** @return batches run so far. */
    public long batches()
    {
        return batches;
    }

    /** @return times a worker found a lock held (0 for baselines without locks). */
    public long lockWaits()
    {
        long sum = 0;
        for (final Worker worker : contexts)
        {
            sum += worker.lockWaits;
        }
        return sum;
    }

    /** @return locks taken (0 for baselines without locks). */
    public long lockAcquisitions()
    {
        long sum = 0;
        for (final Worker worker : contexts)
        {
            sum += worker.lockAcquisitions;
        }
        return sum;
    }

    @Override
    public void close()
    {
        posted = STOP;
        for (final Thread helper : helpers)
        {
            if (helper != null)
            {
                LockSupport.unpark(helper);
                try
                {
                    helper.join(5_000);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * One worker's private machinery: its transaction log, applier, action recorder and store,
     * and its counters. Touched only by its own thread while a batch runs.
     */
    protected final class Worker
    {
        /** Index of this worker, 0 being the {@code run()} thread. */
        protected final int index;
        /** The store this worker's transactions run against. */
        protected final StateStore store;
        /** Applies a transaction with the oracle's semantics. */
        protected final SerialApplier applier = new SerialApplier();
        /** The logical clock of the packet being processed: its arrival sequence. */
        protected long clock;
        /** Lock stripes of the current transaction (CHC-style), sorted. */
        protected int[] stripes = new int[16];
        /** Times this worker found a lock held. */
        protected long lockWaits;
        /** Locks this worker took. */
        protected long lockAcquisitions;
        private final TransactionLog log = new TransactionLog(1, 64);
        private final ActionRecorder actions = new ActionRecorder();

        Worker(final int index, final StateStore store)
        {
            this.index = index;
            this.store = store;
            applier.admission(runtime.capacities().admission());
        }

        void process(final int slot)
        {
            final PacketFlyweight packet = packets[slot];
            final PacketRecord record = records[slot];
            final long timeNs = record.timestampNs();
            final long sequence = record.sequence();
            clock = sequence;
            int node = 0;
            while (node != ChainRuntime.EGRESS)
            {
                final Vnf vnf = runtime.instance(node).vnf();
                log.clear();
                log.begin(timeNs, sequence, packet);
                vnf.preProcess(packet, log);
                log.end();
                access(this, log);
                if (log.abortReason(0) == TransactionView.STATE_FULL)
                {
                    record.stateFull(node, runtime.instance(node).stateFullReason());
                    break;
                }
                actions.reset();
                vnf.postProcess(packet, log.view(0), actions);
                runtime.triggers().fire(node, log.view(0), actions);
                record.visit(node, log.view(0), actions);
                node = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(node, actions.output(), packet);
            }
        }
    }
}
