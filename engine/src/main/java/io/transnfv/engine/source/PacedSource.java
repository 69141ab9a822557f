package io.transnfv.engine.source;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.thread.IdleSettings;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.LongSupplier;

/**
 * A paced replay: offers another source's packets in wall time, at a fixed rate or at a
 * capture's own timing, through a virtual receive ring of a fixed number of slots, as a NIC
 * offers a port's packets. A packet that arrives while the ring is full is dropped and
 * counted ({@link #rxMissed()}, a NIC's {@code rx_missed}); nothing queues without bound.
 *
 * <pre>
 *  source ──► packet j, due at start + offset(j) ──► ring full at due(j)? ── yes ─► rx missed
 *                                                                        └─ no ──► delivered when
 *                                                                                 polled: sequence =
 *                                                                                 delivered so far,
 *                                                                                 ingressNs = due(j)
 * </pre>
 *
 * <p>The ring is virtual: the source is read lazily, one packet ahead at most, and the ring's
 * occupancy at any instant is recovered from the take times of the last {@code slots} packets
 * delivered (a long each). At packet j's due time the ring holds every delivered packet that
 * was due before it and taken after it; it is full, and j is missed, exactly when the packet
 * delivered {@code slots} deliveries ago was taken after due(j). A take and an arrival at the
 * same instant count the take first. So the drops are those of a tail-drop ring of
 * {@code slots} descriptors whose consumer took packets at the instants this source was polled.
 *
 * <p>Latency: every delivered packet carries its scheduled arrival as
 * {@link PacketBuffer#ingressNs()}, so the time it waited in the ring counts. Delivered packets
 * are numbered 0, 1, 2, ... again: a missed packet is not part of the run's input, for the
 * engine as for the serial oracle it is compared with.
 *
 * <p>One thread at a time ({@link #poll} never waits; {@link #next} waits for the next packet
 * with the engine's idle strategy). The wall clock is a supplier of nanoseconds
 * ({@code System::nanoTime} outside tests), so that tests drive it by hand.
 */
public final class PacedSource extends ForwardingPacketSource
{
    /** Slots of the virtual receive ring by default: a common NIC receive ring. */
    public static final int DEFAULT_RX_RING_SLOTS = EngineConfiguration.PACED_RX_RING_SLOTS;

    private final PacingRate rate;
    private final LongSupplier clockNs;
    private final long[] takeNs;
    private final int mask;
    private final double periodNs;
    private final PacketBuffer staged;
    private final IdleStrategy idle = IdleSettings.newIdleStrategy();
    private boolean started;
    private boolean holding;
    private boolean ended;
    private long startNs;
    private long firstTimestampNs;
    private long lastOffsetNs;
    private long heldDueNs;
    private long offered;
    private long delivered;
    private long rxMissed;

    /**
     * @param source  the packets to offer; owned by this source from now on.
     * @param rate    how fast.
     * @param slots   the virtual receive ring's slots, a power of two.
     * @param clockNs the wall clock in nanoseconds ({@code System::nanoTime} outside tests).
     */
    public PacedSource(final PacketSource source, final PacingRate rate, final int slots, final LongSupplier clockNs)
    {
        super(source);
        if (slots < 1 || Integer.bitCount(slots) != 1)
        {
            throw new IllegalArgumentException("receive ring slots must be a power of two >= 1: " + slots);
        }
        this.rate = rate;
        this.clockNs = clockNs;
        this.takeNs = new long[slots];
        this.mask = slots - 1;
        this.periodNs = rate.original() ? 0 : 1e9 / rate.packetsPerSecond();
        this.staged = new PacketBuffer(Math.max(PacketBuffer.MIN_CAPACITY,
            Integer.highestOneBit(Math.max(1, source.maxFrameBytes() - 1)) << 1));
    }

    @Override
    public int poll(final PacketBuffer dst) throws SourceException
    {
        final long nowNs = clockNs.getAsLong();
        if (!started)
        {
            started = true;
            startNs = nowNs;
        }
        final long dueNs;
        if (holding)
        {
            if (heldDueNs > nowNs)
            {
                return NOTHING_YET;
            }
            holding = false;
            dst.copyFrom(staged);
            dueNs = heldDueNs;
        }
        else
        {
            dueNs = readArrivedSlowPath(dst, nowNs);
            if (dueNs == Long.MIN_VALUE)
            {
                return ended ? END : NOTHING_YET;
            }
        }
        takeNs[(int)delivered & mask] = nowNs;
        dst.sequence(delivered++);
        dst.ingressNs(dueNs);
        return PACKET;
    }

    /**
     * Reads packets until one is due and finds room in the ring (counting those that did not)
     * or one is not due yet (held for a later poll).
     *
     * @return the due time of the packet now in {@code dst}, or {@link Long#MIN_VALUE} if none.
     */
    private long readArrivedSlowPath(final PacketBuffer dst, final long nowNs) throws SourceException
    {
        while (!ended)
        {
            if (!source.next(dst))
            {
                ended = true;
                return Long.MIN_VALUE;
            }
            final long dueNs = startNs + offsetNs(offered++, dst.timestampNs());
            if (dueNs > nowNs)
            {
                staged.copyFrom(dst);
                heldDueNs = dueNs;
                holding = true;
                return Long.MIN_VALUE;
            }
            if (delivered > mask && takeNs[(int)(delivered - takeNs.length) & mask] > dueNs)
            {
                rxMissed++;
                continue;
            }
            return dueNs;
        }
        return Long.MIN_VALUE;
    }

    /** @return packet {@code index}'s arrival after the start: index periods, or its timestamp's distance from the first. */
    private long offsetNs(final long index, final long timestampNs)
    {
        if (!rate.original())
        {
            return (long)(index * periodNs);
        }
        if (index == 0)
        {
            firstTimestampNs = timestampNs;
        }
        // a capture's timestamps may step back; arrivals do not
        lastOffsetNs = Math.max(lastOffsetNs, timestampNs - firstTimestampNs);
        return lastOffsetNs;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        while (true)
        {
            final int result = poll(dst);
            if (result != NOTHING_YET)
            {
                idle.reset();
                return result == PACKET;
            }
            idle.idle();
        }
    }

    /** @return packets that arrived so far: delivered, missed, and one held until it is due. */
    public long offered()
    {
        return offered;
    }

    /** @return packets delivered so far. */
    public long delivered()
    {
        return delivered;
    }

    /** @return packets that arrived while the receive ring was full, and were dropped. */
    public long rxMissed()
    {
        return rxMissed;
    }

    /** @return the virtual receive ring's slots. */
    public int rxRingSlots()
    {
        return takeNs.length;
    }

    /** @return the pacing. */
    public PacingRate rate()
    {
        return rate;
    }

    @Override
    public String describe()
    {
        return source.describe() + ", paced at " + rate.describe() + " through a " + takeNs.length + "-slot receive ring";
    }
}
