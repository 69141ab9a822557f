package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;

/**
 * The serial oracle: one thread, one packet at a time in arrival order, each packet through
 * every VNF of its path before the next packet enters, each transaction applied at once by
 * {@link SerialApplier}. Its per-packet records and final state define chain output
 * equivalence; every other executor is judged against it.
 */
public final class SerialChainExecutor implements ChainExecutor
{
    private final ChainRuntime runtime;
    private final MapStateStore state;
    private final RunStats stats;
    private final TransactionLog log = new TransactionLog(1, 64);
    private final SerialApplier applier = new SerialApplier();
    private final ActionRecorder actions = new ActionRecorder();
    private final PacketRecord record = new PacketRecord();
    private final PacketFlyweight packet = new PacketFlyweight();
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final int checkpointBatchPackets;
    private Checkpointer checkpointer;

    /** @param chain the chain to run; the executor builds its own runtime and state. */
    public SerialChainExecutor(final ChainSpec chain)
    {
        this.runtime = new ChainRuntime(chain);
        this.state = new MapStateStore(runtime.catalog());
        this.stats = new RunStats(runtime);
        this.ticker = new ExpiryTicker(runtime.expiryIntervalNs());
        this.checkpointBatchPackets = chain.settings().punctuationTransactions();
    }

    /** The oracle has no batches: for checkpoints, a batch is every punctuation-size run of packets. */
    @Override
    public void checkpointWith(final Checkpointer checkpointer)
    {
        this.checkpointer = checkpointer;
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        final PacketBuffer buffer = new PacketBuffer();
        final int sampleEvery = EngineConfiguration.LATENCY_SAMPLE_EVERY;
        long packets = checkpointer == null ? 0 : resume(source, buffer);
        while (source.next(buffer))
        {
            // latency: from the hand-over (stamped by an ingress thread or a paced source) to here
            long ingressNs = buffer.ingressNs();
            if (ingressNs == 0 && buffer.sequence() % sampleEvery == 0)
            {
                ingressNs = System.nanoTime();
            }
            process(buffer);
            if (ingressNs != 0)
            {
                stats.recordLatencyNs(System.nanoTime() - ingressNs);
            }
            if (listener != null)
            {
                listener.onPacket(record, buffer, packet);
            }
            if (checkpointer != null && ++packets % checkpointBatchPackets == 0 && checkpointer.dueAfterBatch(clock.lastNs()))
            {
                checkpointer.take(state, packets, clock.lastNs(), stats.counters());
            }
        }
        return stats;
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
            stats.addCounters(counters);
        }
        final long skip = checkpointer.resumeInputPackets();
        for (long i = 0; i < skip; i++)
        {
            if (!source.next(buffer))
            {
                throw new IOException("the source ended after " + i + " packets, but the checkpoint holds " + skip
                    + "\nfix: resume with the traffic the run was started with");
            }
            ticker.due(clock.onPacket(buffer.timestampNs()));
        }
        checkpointer.resumed();
        return skip;
    }

    /**
     * Runs one packet through the chain: housekeeping if a tick is due, then each VNF of
     * its path. The record and the counters are updated; the buffer holds the rewritten frame.
     */
    void process(final PacketBuffer buffer)
    {
        final long timeNs = clock.onPacket(buffer.timestampNs());
        final long tick = ticker.due(timeNs);
        if (tick != ExpiryTicker.NONE)
        {
            for (int i = 0; i < runtime.size(); i++)
            {
                runtime.instance(i).vnf().expire(tick, state);
            }
        }
        record.reset(buffer.sequence(), timeNs);
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length());
        if (!packet.isValid())
        {
            record.dropAtIngress(packet.malformedReason());
        }
        else
        {
            int node = 0;
            while (node != ChainRuntime.EGRESS)
            {
                final Vnf vnf = runtime.instance(node).vnf();
                log.clear();
                log.begin(timeNs, buffer.sequence(), packet);
                vnf.preProcess(packet, log);
                log.end();
                applier.apply(log, 0, state);
                actions.reset();
                vnf.postProcess(packet, log.view(0), actions);
                record.visit(node, log.view(0), actions);
                node = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(node, actions.output(), packet);
            }
        }
        stats.onFinished(record, buffer.length());
    }

    @Override
    public RunStats stats()
    {
        return stats;
    }

    @Override
    public String dumpState()
    {
        return StateDump.toString(runtime.catalog(), state);
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
