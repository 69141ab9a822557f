package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.HeldFragments;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;

/**
 * The serial oracle: one thread, one packet at a time in arrival order, each packet through
 * every VNF of its path before the next packet enters, each transaction applied at once by
 * {@link SerialApplier}. Its per-packet records and final state define chain output
 * equivalence; every other executor is judged against it.
 *
 * <p>Before the entry VNF, a TCP/UDP fragment runs the chain's {@link FragmentTracker}
 * transaction. A fragment that comes before its datagram's first is held (copied aside, no
 * record yet) and goes through the chain right after that first fragment, with its time, or
 * is dropped as {@code ingress:fragment-timeout} before the first packet more than the
 * timeout after its datagram's first held fragment (or at the end of the input); one with no
 * room to be held is dropped as {@code ingress:fragment-overflow}. Records therefore come in the chain's output order,
 * which is arrival order except for held fragments.
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
    private final FragmentTracker tracker;
    private final HeldFragments held;
    private final PacketBuffer releasedBuffer = new PacketBuffer();
    private final PacketBuffer spareBuffer = new PacketBuffer();
    private PacketBuffer spare = spareBuffer;
    private long lastTimeNs;

    /** @param chain the chain to run; the executor builds its own runtime and state. */
    public SerialChainExecutor(final ChainSpec chain)
    {
        this.runtime = new ChainRuntime(chain);
        this.state = new MapStateStore(runtime.catalog());
        this.stats = new RunStats(runtime);
        this.ticker = new ExpiryTicker(runtime.tickIntervalNs());
        this.tracker = runtime.tracker();
        this.held = new HeldFragments(tracker.maxHeld(), PacketBuffer.DEFAULT_CAPACITY);
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        final PacketBuffer buffer = new PacketBuffer();
        final int sampleEvery = EngineConfiguration.LATENCY_SAMPLE_EVERY;
        while (source.next(buffer))
        {
            // latency: from the hand-over (stamped by an ingress thread or a paced source) to here
            long ingressNs = buffer.ingressNs();
            if (ingressNs == 0 && buffer.sequence() % sampleEvery == 0)
            {
                ingressNs = System.nanoTime();
            }
            process(buffer, listener);
            if (ingressNs != 0)
            {
                stats.recordLatencyNs(System.nanoTime() - ingressNs);
            }
        }
        endOfInput(listener);
        return stats;
    }

    /**
     * Runs one packet through the chain: housekeeping if a tick is due (and the fragments it
     * timed out), the fragment tracker, then each VNF of its path. Every packet finished goes
     * to the listener with its record.
     */
    void process(final PacketBuffer buffer, final PacketListener listener)
    {
        final long timeNs = clock.onPacket(buffer.timestampNs());
        lastTimeNs = timeNs;
        final long tick = ticker.due(timeNs);
        if (tick != ExpiryTicker.NONE)
        {
            runtime.expire(tick, state);
        }
        long due;
        while ((due = held.dueDatagram(timeNs, tracker.timeoutNs())) != HeldFragments.NONE_DUE)
        {
            timeOut(due, timeNs, listener);
        }
        record.reset(buffer.sequence(), timeNs);
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length());
        if (!packet.isValid())
        {
            record.dropAtIngress(packet.malformedReason());
            finish(buffer, listener);
            return;
        }
        if (!FragmentTracker.tracks(packet))
        {
            chain(timeNs, buffer.sequence());
            finish(buffer, listener);
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
            finish(buffer, listener);
            return;
        }
        final int released = outcome == FragmentTracker.FIRST ? tracker.released(log.view(0)) : 0;
        final int srcPort = released > 0 ? tracker.firstSourcePort(log.view(0)) : 0;
        final int dstPort = released > 0 ? tracker.firstDestinationPort(log.view(0)) : 0;
        final long datagram = released > 0 ? FlowKeys.datagram(packet) : 0;
        chain(timeNs, buffer.sequence());
        finish(buffer, listener);
        if (released > 0)
        {
            final int n = held.select(datagram);
            for (int i = 0; i < n; i++)
            {
                // a released fragment goes on with the time of the first fragment that released it
                final PacketBuffer fragment = held.take(i, spare);
                releasedBuffer.copyFrom(fragment);
                spare = fragment;
                record.reset(releasedBuffer.sequence(), timeNs);
                packet.wrap(releasedBuffer.memory(), releasedBuffer.offset(), releasedBuffer.length());
                packet.recoverPorts(srcPort, dstPort);
                chain(timeNs, releasedBuffer.sequence());
                finish(releasedBuffer, listener);
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
            packet.wrap(releasedBuffer.memory(), releasedBuffer.offset(), releasedBuffer.length());
            record.dropAtIngress(PacketRecord.FRAGMENT_TIMEOUT);
            finish(releasedBuffer, listener);
        }
    }

    /** The packet in {@link #packet} through each VNF of its path. */
    private void chain(final long timeNs, final long sequence)
    {
        int node = 0;
        while (node != ChainRuntime.EGRESS)
        {
            final Vnf vnf = runtime.instance(node).vnf();
            log.clear();
            log.begin(timeNs, sequence, packet);
            vnf.preProcess(packet, log);
            log.end();
            applier.apply(log, 0, state);
            actions.reset();
            vnf.postProcess(packet, log.view(0), actions);
            record.visit(node, log.view(0), actions);
            node = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(node, actions.output(), packet);
        }
    }

    private void finish(final PacketBuffer buffer, final PacketListener listener)
    {
        stats.onFinished(record, buffer.length());
        if (listener != null)
        {
            listener.onPacket(record, buffer, packet);
        }
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
