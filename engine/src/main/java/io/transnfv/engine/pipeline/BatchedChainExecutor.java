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
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;
import java.util.function.Function;

/**
 * The transactional engine: packets are gathered into batches closed by punctuations, and
 * each batch goes through the chain stage by stage — for each VNF in topological order,
 * the transactions of every packet of the batch that reached it form one task precedence
 * graph, executed in parallel by a {@link BatchExecutor} on the multi-version state table;
 * then post-processing routes each packet to its next VNF.
 *
 * <pre>
 *  source ─► batch (N packets or T of packet time, or an expiry tick)
 *              │
 *              ├─► stage 1: preProcess all ─► TPG execute ─► postProcess all ─► route
 *              ├─► stage 2: (packets routed here) ...
 *              └─► egress: records and counters in arrival order
 * </pre>
 *
 * <p>Why this equals the serial oracle: every state table belongs to one VNF, so a table
 * sees exactly the transactions of the packets that reached its VNF, in (time, arrival)
 * order, batch after batch — the order the oracle applies them in. Housekeeping ticks
 * close the batch before the packet that triggers them, as in the oracle. See
 * {@code docs/design/chains.md}.
 *
 * <p>Driven by the one thread that calls {@link #run}; the batch executor's workers run
 * the transactions.
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

    private final PacketBuffer[] buffers;
    private final PacketFlyweight[] packets;
    private final PacketRecord[] records;
    private final int[] position;
    private final int[] transaction;
    private final long[] ingressNs;
    private final TransactionLog[] logs;
    private final TransactionLog.Cursor[] views;
    private final ActionRecorder actions = new ActionRecorder();
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final String description;
    private long batches;

    /**
     * @param chain            the chain; its settings give the punctuation.
     * @param executorFactory  creates the batch executor for the resolved thread count.
     * @param description      a short description of the executor for reports.
     */
    public BatchedChainExecutor(
        final ChainSpec chain, final Function<Integer, BatchExecutor> executorFactory, final String description)
    {
        final RunSettings settings = chain.settings();
        this.runtime = new ChainRuntime(chain);
        this.state = new MultiVersionStateTable(runtime.catalog());
        this.executor = executorFactory.apply(settings.resolvedExecutorThreads());
        this.stats = new RunStats(runtime);
        this.batchCapacity = settings.punctuationTransactions();
        this.intervalNs = settings.punctuationIntervalNs();
        this.stageOrder = runtime.topologicalOrder();
        this.ticker = new ExpiryTicker(runtime.expiryIntervalNs());
        this.description = description;
        buffers = new PacketBuffer[batchCapacity];
        packets = new PacketFlyweight[batchCapacity];
        records = new PacketRecord[batchCapacity];
        for (int i = 0; i < batchCapacity; i++)
        {
            buffers[i] = new PacketBuffer();
            packets[i] = new PacketFlyweight();
            records[i] = new PacketRecord();
        }
        position = new int[batchCapacity];
        transaction = new int[batchCapacity];
        ingressNs = new long[batchCapacity];
        logs = new TransactionLog[runtime.size()];
        views = new TransactionLog.Cursor[runtime.size()];
        for (int v = 0; v < logs.length; v++)
        {
            logs[v] = new TransactionLog(Math.min(batchCapacity, 1 << 16), Math.min(batchCapacity * 4, 1 << 18));
            views[v] = logs[v].newCursor();
        }
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        int count = 0;
        long batchStartNs = 0;
        while (source.next(buffers[count]))
        {
            final PacketBuffer buffer = buffers[count];
            final long timeNs = clock.onPacket(buffer.timestampNs());
            final long tick = ticker.due(timeNs);
            if (count > 0 && (tick != ExpiryTicker.NONE || timeNs - batchStartNs >= intervalNs))
            {
                // punctuation before this packet: run the batch, then the packet opens the next one
                processBatch(count, listener);
                buffers[count] = buffers[0];
                buffers[0] = buffer;
                count = 0;
            }
            expireIfDue(tick);
            if (count == 0)
            {
                batchStartNs = timeNs;
            }
            admit(count, buffer, timeNs);
            count++;
            if (count == batchCapacity)
            {
                processBatch(count, listener);
                count = 0;
            }
        }
        if (count > 0)
        {
            processBatch(count, listener);
        }
        return stats;
    }

    private void expireIfDue(final long tick)
    {
        if (tick != ExpiryTicker.NONE)
        {
            for (int v = 0; v < runtime.size(); v++)
            {
                runtime.instance(v).vnf().expire(tick, state);
            }
        }
    }

    private void admit(final int slot, final PacketBuffer buffer, final long timeNs)
    {
        ingressNs[slot] = System.nanoTime();
        records[slot].reset(buffer.sequence(), timeNs);
        final PacketFlyweight packet = packets[slot];
        packet.wrap(buffer.data(), 0, buffer.length());
        if (packet.isValid())
        {
            position[slot] = 0;
        }
        else
        {
            records[slot].dropAtIngress(packet.malformedReason());
            position[slot] = ChainRuntime.EGRESS;
        }
    }

    private void processBatch(final int count, final PacketListener listener)
    {
        batches++;
        for (final int v : stageOrder)
        {
            final Vnf vnf = runtime.instance(v).vnf();
            final TransactionLog log = logs[v];
            log.clear();
            boolean any = false;
            for (int i = 0; i < count; i++)
            {
                if (position[i] == v)
                {
                    final PacketRecord record = records[i];
                    transaction[i] = log.begin(record.timestampNs(), record.sequence(), packets[i]);
                    vnf.preProcess(packets[i], log);
                    log.end();
                    any = true;
                }
            }
            if (!any)
            {
                continue;
            }
            executor.execute(log, state);
            final TransactionLog.Cursor view = views[v];
            for (int i = 0; i < count; i++)
            {
                if (position[i] == v)
                {
                    view.bind(transaction[i]);
                    actions.reset();
                    vnf.postProcess(packets[i], view, actions);
                    records[i].visit(v, view, actions);
                    position[i] = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(v, actions.output(), packets[i]);
                    if (position[i] != ChainRuntime.EGRESS && runtime.stageOf(position[i]) <= runtime.stageOf(v))
                    {
                        throw new IllegalStateException("edge from " + v + " goes backwards");
                    }
                }
            }
        }
        final long doneNs = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            stats.recordLatencyNs(doneNs - ingressNs[i]);
            stats.onFinished(records[i], buffers[i].length());
            if (listener != null)
            {
                listener.onPacket(records[i], buffers[i], packets[i]);
            }
        }
        for (final TransactionLog log : logs)
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
    public java.util.Map<String, Object> executorSummary()
    {
        final java.util.Map<String, Object> summary = new java.util.LinkedHashMap<>();
        summary.put("batches", batches);
        summary.putAll(executor.summary());
        return summary;
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
        executor.close();
    }
}
