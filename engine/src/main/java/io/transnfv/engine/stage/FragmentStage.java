package io.transnfv.engine.stage;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.HeldFragments;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.fragment.FirstFragmentFields;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The engine's fragment stage, before the entry VNF: runs the chain's {@link FragmentTracker}
 * transactions of a batch on the worker that starts it, in serial order against the committed
 * state (the tracker's tables are its own, and fragments are few), then re-orders the batch's
 * slots as the serial oracle emits them: held fragments leave the batch, fragments a first
 * fragment lets go join right after it, and held fragments that waited longer than the timeout
 * join, dropped, before the first packet that finds them due. See {@code docs/design/fragments.md}.
 *
 * <p>Used by the one worker that starts a batch at a time; allocates nothing per batch.
 */
public final class FragmentStage
{
    private final FragmentTracker tracker;
    private final MultiVersionStateTable state;
    private final int frameCapacity;
    private final HeldFragments held;
    private final TransactionLog trackerLog = new TransactionLog(1, 16);
    private final FirstFragmentFields firstFields = new FirstFragmentFields();
    private final SerialApplier trackerApplier = new SerialApplier();
    private final ActionRecorder trackerActions = new ActionRecorder();
    private final PacketBuffer[] spliceBuffers;
    private final PacketFlyweight[] splicePackets;
    private final PacketRecord[] spliceRecords;
    private final long[] spliceTimeNs;
    private final long[] spliceOrder;
    private final long[] spliceIngressNs;
    private final int[] splicePosition;
    private final PacketBuffer[] freeBuffers;
    private final PacketFlyweight[] freePackets;
    private final PacketRecord[] freeRecords;
    private int spliceCount;

    /**
     * @param tracker        the chain's fragment tracker.
     * @param state          the committed state its tables live in.
     * @param frameCapacity  slots of a batch frame (its packets and the held fragments it may let go).
     * @param bufferCapacity bytes of a packet buffer, for the held copies.
     */
    public FragmentStage(final FragmentTracker tracker, final MultiVersionStateTable state, final int frameCapacity,
        final int bufferCapacity)
    {
        this.tracker = tracker;
        this.state = state;
        this.frameCapacity = frameCapacity;
        this.held = new HeldFragments(tracker.maxHeld(), bufferCapacity);
        this.spliceBuffers = new PacketBuffer[frameCapacity];
        this.splicePackets = new PacketFlyweight[frameCapacity];
        this.spliceRecords = new PacketRecord[frameCapacity];
        this.spliceTimeNs = new long[frameCapacity];
        this.spliceOrder = new long[frameCapacity];
        this.spliceIngressNs = new long[frameCapacity];
        this.splicePosition = new int[frameCapacity];
        this.freeBuffers = new PacketBuffer[frameCapacity];
        this.freePackets = new PacketFlyweight[frameCapacity];
        this.freeRecords = new PacketRecord[frameCapacity];
    }

    /**
     * The fragment stage of a batch, on the worker that starts it: the tracker's transactions
     * in arrival order against the committed state, then the slots re-ordered as the oracle
     * emits them. The caller then declares the entry VNF's transactions again for the new order.
     *
     * <pre>
     *  before:  a  F2(held)  b  F1(first, lets F0 go)  c        held: F0 (earlier batch), T (due at b)
     *  after:   a  T(timed out, dropped)  b  F1  F0  c            held: F2
     * </pre>
     *
     * @param frame the batch, about to start.
     * @param entry the entry VNF's index, where the tracked packets go on.
     * @param tools the starting worker's counters.
     */
    public void run(final BatchFrame frame, final int entry, final StageRunner.Worker tools)
    {
        final int count = frame.count;
        int free = 0;
        for (int i = count; i < frameCapacity; i++)
        {
            freeBuffers[free] = frame.buffers[i];
            freePackets[free] = frame.packets[i];
            freeRecords[free] = frame.records[i];
            free++;
        }
        int n = 0;
        for (int i = 0; i < count; i++)
        {
            final PacketBuffer buffer = frame.buffers[i];
            final PacketFlyweight packet = frame.packets[i];
            final PacketRecord record = frame.records[i];
            final long timeNs = frame.timeNs[i];
            final long sequence = frame.order[i];
            long due;
            while ((due = held.dueDatagram(timeNs, tracker.timeoutNs())) != HeldFragments.NONE_DUE)
            {
                free = timeOut(due, timeNs, n, free, tools);
                n = spliceCount;
            }
            if (frame.position[i] == ChainRuntime.EGRESS || !FragmentTracker.tracks(packet))
            {
                place(n++, buffer, packet, record, timeNs, sequence, frame.ingressNs[i], frame.position[i]);
                continue;
            }
            final TransactionLog log = trackerLog;
            log.clear();
            log.begin(timeNs, sequence, packet);
            tracker.preProcess(packet, log);
            log.end();
            trackerApplier.apply(log, 0, state);
            trackerActions.reset();
            tracker.postProcess(packet, log.view(0), trackerActions);
            final int outcome = tracker.outcome(log.view(0));
            if (outcome == FragmentTracker.HELD)
            {
                freeBuffers[free] = held.hold(FlowKeys.datagram(packet), buffer, timeNs);
                freePackets[free] = packet;
                freeRecords[free] = record;
                free++;
                continue;
            }
            if (outcome == FragmentTracker.OVERFLOW)
            {
                record.dropAtIngress(PacketRecord.FRAGMENT_OVERFLOW);
                tools.stats.count(record, buffer.length());
                place(n++, buffer, packet, record, timeNs, sequence, frame.ingressNs[i], ChainRuntime.EGRESS);
                continue;
            }
            place(n++, buffer, packet, record, timeNs, sequence, frame.ingressNs[i], entry);
            final int released = outcome == FragmentTracker.FIRST ? tracker.released(log.view(0)) : 0;
            if (released > 0)
            {
                tracker.firstFields(log.view(0), firstFields);
                final int m = held.select(FlowKeys.datagram(packet));
                for (int k = 0; k < m; k++)
                {
                    free--;
                    final PacketBuffer fragment = held.take(k, freeBuffers[free]);
                    final PacketFlyweight view = freePackets[free];
                    final PacketRecord fragmentRecord = freeRecords[free];
                    // with the first fragment's time and place in the serial order, right after it
                    fragmentRecord.reset(fragment.sequence(), timeNs);
                    view.wrap(fragment.memory(), fragment.offset(), fragment.length(), fragment.originalLength(), fragment.linkType());
                    firstFields.giveTo(view);
                    place(n++, fragment, view, fragmentRecord, timeNs, sequence, 0, entry);
                }
            }
        }
        if (count == 0 && frame.tickNs != ExpiryTicker.NONE)
        {
            // a quiet live port's tick: packet time moved on with the wall clock, held fragments time out by it
            long due;
            while ((due = held.dueDatagram(frame.firstPacketTimeNs, tracker.timeoutNs())) != HeldFragments.NONE_DUE)
            {
                free = timeOut(due, frame.firstPacketTimeNs, n, free, tools);
                n = spliceCount;
            }
        }
        if (frame.flush)
        {
            while (held.size() > 0)
            {
                free = timeOut(held.oldestDatagram(), frame.firstPacketTimeNs, n, free, tools);
                n = spliceCount;
            }
        }
        for (int j = 0; j < free; j++)
        {
            spliceBuffers[n + j] = freeBuffers[j];
            splicePackets[n + j] = freePackets[j];
            spliceRecords[n + j] = freeRecords[j];
        }
        System.arraycopy(spliceBuffers, 0, frame.buffers, 0, frameCapacity);
        System.arraycopy(splicePackets, 0, frame.packets, 0, frameCapacity);
        System.arraycopy(spliceRecords, 0, frame.records, 0, frameCapacity);
        System.arraycopy(spliceTimeNs, 0, frame.timeNs, 0, n);
        System.arraycopy(spliceOrder, 0, frame.order, 0, n);
        System.arraycopy(spliceIngressNs, 0, frame.ingressNs, 0, n);
        System.arraycopy(splicePosition, 0, frame.position, 0, n);
        frame.count = n;
    }

    /**
     * @param frame a batch about to start.
     * @return true if it needs the fragment stage: it has fragments, it is the end of the input's
     *         flush, or a held fragment times out by its last packet, or by a quiet live port's tick.
     */
    public boolean due(final BatchFrame frame)
    {
        return frame.fragments > 0 || frame.flush
            || frame.count > 0 && held.dueDatagram(frame.timeNs[frame.count - 1], tracker.timeoutNs()) != HeldFragments.NONE_DUE
            || frame.count == 0 && frame.tickNs != ExpiryTicker.NONE
                && held.dueDatagram(frame.firstPacketTimeNs, tracker.timeoutNs()) != HeldFragments.NONE_DUE;
    }

    /** @return fragments held aside now, waiting for their datagram's first fragment. */
    public int heldFragments()
    {
        return held.size();
    }

    /**
     * Times out {@code datagram} in the fragment stage: its held fragments take the next slots,
     * dropped, each with a free slot's view and record.
     *
     * @return the free slots left; {@code spliceCount} is the next slot.
     */
    private int timeOut(final long datagram, final long timeNs, final int slot, final int freeSlots, final StageRunner.Worker tools)
    {
        tracker.timeOut(datagram, state);
        int free = freeSlots;
        int n = slot;
        final int m = held.select(datagram);
        for (int k = 0; k < m; k++)
        {
            free--;
            final PacketBuffer buffer = held.take(k, freeBuffers[free]);
            final PacketFlyweight packet = freePackets[free];
            final PacketRecord record = freeRecords[free];
            record.reset(buffer.sequence(), timeNs);
            packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
            record.dropAtIngress(PacketRecord.FRAGMENT_TIMEOUT);
            tools.stats.count(record, buffer.length());
            place(n++, buffer, packet, record, timeNs, buffer.sequence(), 0, ChainRuntime.EGRESS);
        }
        spliceCount = n;
        return free;
    }

    private void place(
        final int slot, final PacketBuffer buffer, final PacketFlyweight packet, final PacketRecord record, final long timeNs,
        final long order, final long ingressNs, final int position)
    {
        spliceBuffers[slot] = buffer;
        splicePackets[slot] = packet;
        spliceRecords[slot] = record;
        spliceTimeNs[slot] = timeNs;
        spliceOrder[slot] = order;
        spliceIngressNs[slot] = ingressNs;
        splicePosition[slot] = position;
    }
}
