package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.executor.BatchExecutor;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.thread.IdleBackoff;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * The transactional engine: packets are gathered into batches closed by punctuations, and
 * each batch goes through the chain stage by stage — for each VNF in topological order,
 * the transactions of every packet of the batch that reached it form one task precedence
 * graph, executed in parallel by a {@link BatchExecutor} on the multi-version state table;
 * then post-processing routes each packet to its next VNF.
 *
 * <pre>
 *  driver thread                               engine thread (+ executor workers)
 *  ─────────────                               ──────────────────────────────────
 *  read, admit, pre-process entry VNF,     batch k: seal entry TPG ─► run ─► post
 *  insert its operations in the TPG ─► batch k+1
 *  (fills one frame while the engine runs the other)         ─► for each later VNF: pre ─► TPG ─► post
 *  emit batch k-1: records, counters, listener ◄────────────── done
 * </pre>
 *
 * <p>A batch closes after N transactions at the entry VNF, after T of packet time, or before
 * a packet that crosses an expiry tick. With two or more threads the driver and the engine
 * work on two batches at once (a two-stage pipeline: pre-processing is stateless, so
 * declaring batch k+1 while batch k executes changes nothing); with one thread, the driver
 * does everything.
 *
 * <p>Why this equals the serial oracle: every state table belongs to one VNF, so a table
 * sees exactly the transactions of the packets that reached its VNF, in (time, arrival)
 * order, batch after batch — the order the oracle applies them in. Housekeeping runs only
 * when no batch is in flight, before the packet that crosses its tick, as in the oracle.
 * See {@code docs/design/chains.md}.
 */
public final class BatchedChainExecutor implements ChainExecutor
{
    private final ChainRuntime runtime;
    private final MultiVersionStateTable state;
    private final BatchExecutor executor;
    private final RunStats stats;
    private final int batchCapacity;
    private final long intervalNs;
    private final int[] stageOrder;
    private final int entry;
    private final Frame[] frames;
    private final boolean pipelined;
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final String description;

    private final Thread engineThread;
    private volatile Frame submitted;
    private volatile boolean closed;
    private volatile Throwable engineFailure;
    private volatile Thread driver;
    private final IdleBackoff driverBackoff = new IdleBackoff();
    private Frame inFlight;
    private long batches;

    /**
     * @param chain           the chain; its settings give the punctuation and the threads.
     * @param executorFactory creates the batch executor for a number of threads; with N
     *                        threads in the settings, the engine uses N - 1 of them for the
     *                        batch executor and one as the driver (N = 1: no pipeline).
     * @param description     a short description of the executor for reports.
     */
    public BatchedChainExecutor(
        final ChainSpec chain, final IntFunction<BatchExecutor> executorFactory, final String description)
    {
        final RunSettings settings = chain.settings();
        this.runtime = new ChainRuntime(chain);
        this.state = new MultiVersionStateTable(runtime.catalog());
        final int threads = settings.resolvedExecutorThreads();
        this.pipelined = threads >= 2;
        this.executor = executorFactory.apply(pipelined ? threads - 1 : threads);
        this.stats = new RunStats(runtime);
        this.batchCapacity = settings.punctuationTransactions();
        this.intervalNs = settings.punctuationIntervalNs();
        this.stageOrder = runtime.topologicalOrder();
        this.entry = stageOrder[0];
        this.ticker = new ExpiryTicker(runtime.expiryIntervalNs());
        this.description = description + (pipelined ? " (pipelined: driver + " + (threads - 1) + " executor threads)" : "");
        this.frames = new Frame[pipelined ? 2 : 1];
        for (int f = 0; f < frames.length; f++)
        {
            frames[f] = new Frame(batchCapacity, runtime.size());
        }
        if (pipelined)
        {
            engineThread = new Thread(this::engineLoop, "transnfv-engine");
            engineThread.setDaemon(true);
            engineThread.start();
        }
        else
        {
            engineThread = null;
        }
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        driver = Thread.currentThread();
        PacketBuffer incoming = new PacketBuffer();
        Frame filling = frames[0];
        while (source.next(incoming))
        {
            final long timeNs = clock.onPacket(incoming.timestampNs());
            final long tick = ticker.due(timeNs);
            if (filling.count > 0 && (tick != ExpiryTicker.NONE || timeNs - filling.startNs >= intervalNs))
            {
                filling = close(filling, listener);
            }
            if (tick != ExpiryTicker.NONE)
            {
                drain(listener);
                for (int v = 0; v < runtime.size(); v++)
                {
                    runtime.instance(v).vnf().expire(tick, state);
                }
            }
            final int slot = filling.count;
            if (slot == 0)
            {
                filling.startNs = timeNs;
            }
            final PacketBuffer admitted = filling.buffers[slot];
            filling.buffers[slot] = incoming;
            incoming = admitted;
            admit(filling, slot, timeNs);
            filling.count = slot + 1;
            if (filling.count == batchCapacity)
            {
                filling = close(filling, listener);
            }
        }
        if (filling.count > 0)
        {
            close(filling, listener);
        }
        drain(listener);
        return stats;
    }

    /** Admits the packet in {@code slot}: ingress checks, then the entry VNF's pre-processing. */
    private void admit(final Frame frame, final int slot, final long timeNs)
    {
        final PacketBuffer buffer = frame.buffers[slot];
        final PacketRecord record = frame.records[slot];
        final PacketFlyweight packet = frame.packets[slot];
        frame.ingressNs[slot] = System.nanoTime();
        record.reset(buffer.sequence(), timeNs);
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length());
        if (!packet.isValid())
        {
            record.dropAtIngress(packet.malformedReason());
            frame.position[slot] = ChainRuntime.EGRESS;
            return;
        }
        frame.position[slot] = entry;
        final TransactionLog log = frame.logs[entry];
        if (!frame.entryGraphBegun)
        {
            frame.entryGraph.beginBatch(log);
            frame.entryGraphBegun = true;
        }
        final int t = log.begin(timeNs, buffer.sequence(), packet);
        frame.transaction[slot] = t;
        runtime.instance(entry).vnf().preProcess(packet, log);
        log.end();
        frame.entryGraph.addTransaction(t);
    }

    /** Hands a full frame to the engine (or runs it here) and returns the frame to fill next. */
    private Frame close(final Frame frame, final PacketListener listener)
    {
        batches++;
        if (!pipelined)
        {
            execute(frame, frame.actions);
            emit(frame, listener);
            return frame;
        }
        drain(listener);
        frame.done = false;
        inFlight = frame;
        submitted = frame;
        LockSupport.unpark(engineThread);
        return frame == frames[0] ? frames[1] : frames[0];
    }

    /** Waits for the batch in flight, if any, and emits it. */
    private void drain(final PacketListener listener)
    {
        final Frame frame = inFlight;
        if (frame == null)
        {
            return;
        }
        final IdleBackoff backoff = driverBackoff;
        while (!frame.done)
        {
            backoff.idle();
        }
        backoff.reset();
        inFlight = null;
        final Throwable failure = engineFailure;
        if (failure != null)
        {
            throw new IllegalStateException("engine failed: " + failure, failure);
        }
        emit(frame, listener);
    }

    private void engineLoop()
    {
        final IdleBackoff backoff = new IdleBackoff();
        while (!closed)
        {
            final Frame frame = submitted;
            if (frame == null)
            {
                backoff.idle();
                continue;
            }
            backoff.reset();
            submitted = null;
            try
            {
                execute(frame, frame.actions);
            }
            catch (final Throwable t)
            {
                engineFailure = t;
            }
            frame.done = true;
            LockSupport.unpark(driver);
        }
    }

    /** Runs a batch through every stage: the entry VNF's transactions are already declared. */
    private void execute(final Frame frame, final ActionRecorder actions)
    {
        final int count = frame.count;
        for (final int v : stageOrder)
        {
            final Vnf vnf = runtime.instance(v).vnf();
            final TransactionLog log = frame.logs[v];
            if (v != entry)
            {
                for (int i = 0; i < count; i++)
                {
                    if (frame.position[i] == v)
                    {
                        final PacketRecord record = frame.records[i];
                        frame.transaction[i] = log.begin(record.timestampNs(), record.sequence(), frame.packets[i]);
                        vnf.preProcess(frame.packets[i], log);
                        log.end();
                    }
                }
            }
            if (log.transactionCount() == 0)
            {
                continue;
            }
            if (v == entry)
            {
                executor.execute(log, frame.entryGraph, state);
            }
            else
            {
                executor.execute(log, state);
            }
            final TransactionLog.Cursor view = frame.views[v];
            for (int i = 0; i < count; i++)
            {
                if (frame.position[i] == v)
                {
                    final PacketFlyweight packet = frame.packets[i];
                    view.bind(frame.transaction[i]);
                    actions.reset();
                    vnf.postProcess(packet, view, actions);
                    frame.records[i].visit(v, view, actions);
                    final int next = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(v, actions.output(), packet);
                    if (next != ChainRuntime.EGRESS && runtime.stageOf(next) <= runtime.stageOf(v))
                    {
                        throw new IllegalStateException("edge from " + runtime.instance(v).name() + " goes backwards");
                    }
                    frame.position[i] = next;
                }
            }
        }
    }

    /** Counts and reports a finished batch in arrival order, then recycles its frame. */
    private void emit(final Frame frame, final PacketListener listener)
    {
        final long doneNs = System.nanoTime();
        for (int i = 0; i < frame.count; i++)
        {
            stats.recordLatencyNs(doneNs - frame.ingressNs[i]);
            stats.onFinished(frame.records[i], frame.buffers[i].length());
            if (listener != null)
            {
                listener.onPacket(frame.records[i], frame.buffers[i], frame.packets[i]);
            }
        }
        frame.count = 0;
        frame.entryGraphBegun = false;
        for (final TransactionLog log : frame.logs)
        {
            log.clear();
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
    public String dumpState()
    {
        return StateDump.toString(runtime.catalog(), state);
    }

    @Override
    public Optional<SchedulerReport> executorSummary()
    {
        return executor.summary().map(report -> report.toBuilder().batches(batches).pipelined(pipelined).build());
    }

    /** @return batches executed so far. */
    public long batches()
    {
        return batches;
    }

    @Override
    public String describe()
    {
        return description;
    }

    @Override
    public void close()
    {
        closed = true;
        if (engineThread != null)
        {
            LockSupport.unpark(engineThread);
            try
            {
                engineThread.join(5_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        executor.close();
    }

    /**
     * One batch's packets and transactions. Written by the driver while it fills, then by
     * the engine while it runs (the handoff through {@code submitted} and {@code done} orders
     * the two), then read by the driver when it emits.
     */
    private static final class Frame
    {
        final PacketBuffer[] buffers;
        final PacketFlyweight[] packets;
        final PacketRecord[] records;
        final int[] position;
        final int[] transaction;
        final long[] ingressNs;
        final TransactionLog[] logs;
        final TransactionLog.Cursor[] views;
        final ActionRecorder actions = new ActionRecorder();
        /** The entry VNF's graph, built by the driver as packets are admitted. */
        final TaskPrecedenceGraph entryGraph = new TaskPrecedenceGraph();
        boolean entryGraphBegun;
        int count;
        long startNs;
        volatile boolean done;

        Frame(final int capacity, final int vnfs)
        {
            buffers = new PacketBuffer[capacity];
            packets = new PacketFlyweight[capacity];
            records = new PacketRecord[capacity];
            for (int i = 0; i < capacity; i++)
            {
                buffers[i] = new PacketBuffer();
                packets[i] = new PacketFlyweight();
                records[i] = new PacketRecord();
            }
            position = new int[capacity];
            transaction = new int[capacity];
            ingressNs = new long[capacity];
            logs = new TransactionLog[vnfs];
            views = new TransactionLog.Cursor[vnfs];
            for (int v = 0; v < vnfs; v++)
            {
                logs[v] = new TransactionLog(Math.min(capacity, 1 << 16), Math.min(capacity * 4, 1 << 18));
                views[v] = logs[v].newCursor();
            }
        }
    }
}
