package io.transnfv.engine.ingress;

import java.util.function.LongSupplier;

/**
 * Packet time while a live source is quiet. Packet time comes from packets, so when a live port
 * stops delivering, it stands still and no housekeeping tick falls: idle flows would never
 * expire. Once the source has had nothing for at least one tick interval of wall time, this
 * gives the packet time to advance to: the last packet's time plus the wall time since the
 * source went quiet (its first empty poll after that packet). The executor advances its
 * {@link PacketClock} to it, which keeps time non-decreasing and clamps a later packet stamped
 * behind it, and asks its {@link ExpiryTicker} whether a tick is due.
 *
 * <pre>
 *  packet ──► quiet over          empty poll ──► quiet since now (first one after a packet)
 *                                 empty poll ──► quiet for >= interval? last packet's time + quiet time
 * </pre>
 *
 * <p>A replayable source gets none of this (its clock is {@linkplain #QuietClock(boolean, long,
 * LongSupplier) not live} and never reads the wall clock): its packet time, and so where its
 * ticks fall, is a function of its packets alone, the same for the serial oracle and the engine.
 * Nothing is read per packet; the wall clock is read only on empty polls. One thread (the
 * executor's reader: the serial oracle's loop, the engine's IO role).
 */
public final class QuietClock
{
    /** {@link #onNothingYet} result: packet time stays where it is. */
    public static final long NONE = Long.MIN_VALUE;

    private final boolean live;
    private final long intervalNs;
    private final LongSupplier wallClockNs;
    private long quietSinceWallNs = NONE;
    private long quietFromTimeNs;

    /**
     * @param live        true for a live source ({@code PacketSource.live()}); false: never advances.
     * @param intervalNs  wall time of quiet before packet time moves: the tick interval; 0: never advances.
     * @param wallClockNs the wall clock, in nanoseconds ({@code System::nanoTime}; tests drive their own).
     */
    public QuietClock(final boolean live, final long intervalNs, final LongSupplier wallClockNs)
    {
        if (intervalNs < 0)
        {
            throw new IllegalArgumentException("interval must be >= 0: " + intervalNs);
        }
        this.live = live && intervalNs > 0;
        this.intervalNs = intervalNs;
        this.wallClockNs = wallClockNs;
    }

    /** @return true if this clock may advance packet time (a live source and a tick interval). */
    public boolean live()
    {
        return live;
    }

    /** A packet arrived: the source is not quiet. */
    public void onPacket()
    {
        quietSinceWallNs = NONE;
    }

    /**
     * The source had no packet on this poll.
     *
     * @param packetTimeNs packet time now ({@link PacketClock#lastNs()}), {@link Long#MIN_VALUE}
     *                     before the first packet (then nothing advances).
     * @return the packet time to advance to (at least one interval past the last packet's), or
     *         {@link #NONE} while the source has been quiet for less than one interval.
     */
    public long onNothingYet(final long packetTimeNs)
    {
        if (!live || packetTimeNs == Long.MIN_VALUE)
        {
            return NONE;
        }
        final long nowNs = wallClockNs.getAsLong();
        if (quietSinceWallNs == NONE)
        {
            quietSinceWallNs = nowNs;
            quietFromTimeNs = packetTimeNs;
            return NONE;
        }
        final long quietNs = nowNs - quietSinceWallNs;
        return quietNs < intervalNs ? NONE : quietFromTimeNs + quietNs;
    }
}
