package io.transnfv.engine.ingress;

/**
 * Places housekeeping ({@code Vnf.expire}) in packet time: ticks fall on multiples of the
 * interval, and the first packet at or after a tick triggers it, before that packet's own
 * transactions. Between ticks, every {@code checkEvery}-th packet triggers a capacity check
 * ({@link #CHECK}) the same way. The oracle and every engine use this same rule, so
 * housekeeping and capacity checks happen at the same points of the serial order everywhere.
 * The chain's state checkers, when it runs them during the run ({@link #checkersEvery}), are
 * placed by the same rule: before the first packet at or after each multiple of their period in
 * packet time, or before every {@code everyPackets}-th packet ({@link #checkersDue}).
 * One thread.
 */
public final class ExpiryTicker
{
    /** {@link #due} result when no housekeeping is due. */
    public static final long NONE = Long.MIN_VALUE;
    /** {@link #due} result when only a capacity check is due (no housekeeping tick). */
    public static final long CHECK = Long.MIN_VALUE + 1;

    private final long intervalNs;
    private final long checkEvery;
    private long nextTickNs = Long.MIN_VALUE;
    private long sinceNs = Long.MIN_VALUE;
    private long packets;
    private boolean checking;
    private long checkEveryNs;
    private long checkEveryPackets;
    private long nextCheckNs = Long.MIN_VALUE;
    private long checkPackets;
    private boolean checkDue;

    /** @param intervalNs the tick period; 0 disables housekeeping (and capacity checks). */
    public ExpiryTicker(final long intervalNs)
    {
        this(intervalNs, 0);
    }

    /**
     * @param intervalNs the tick period; 0 disables housekeeping.
     * @param checkEvery packets between two capacity checks; 0 for none between ticks.
     */
    public ExpiryTicker(final long intervalNs, final long checkEvery)
    {
        if (intervalNs < 0 || checkEvery < 0)
        {
            throw new IllegalArgumentException("interval and check period must be >= 0: " + intervalNs + ", " + checkEvery);
        }
        this.intervalNs = intervalNs;
        this.checkEvery = checkEvery;
    }

    /**
     * Places state checks: before the first packet at or after each multiple of {@code everyNs}
     * in packet time, or before every packet whose index (from 0) is a positive multiple of
     * {@code everyPackets}; both 0 for none (the default, which costs one branch per packet).
     * Call before the first {@link #due}.
     */
    public void checkersEvery(final long everyNs, final long everyPackets)
    {
        if (everyNs < 0 || everyPackets < 0)
        {
            throw new IllegalArgumentException("checker periods must be >= 0: " + everyNs + " ns, " + everyPackets + " packets");
        }
        checkEveryNs = everyNs;
        checkEveryPackets = everyPackets;
        checking = everyNs > 0 || everyPackets > 0;
    }

    /** @return true if the state checkers run before the packet of the last {@link #due} call (after its housekeeping). */
    public boolean checkersDue()
    {
        return checkDue;
    }

    /**
     * @param packetTimeNs the next packet's time (non-decreasing across calls).
     * @return the tick time to run housekeeping at before this packet (a capacity check
     *         included), {@link #CHECK} for a capacity check alone, or {@link #NONE}.
     */
    public long due(final long packetTimeNs)
    {
        final long tick = dueWithoutPacket(packetTimeNs);
        if (checking)
        {
            checkDue = checkerDue(packetTimeNs);
        }
        if (checkEvery > 0 && ++packets % checkEvery == 0 && tick == NONE)
        {
            return CHECK;
        }
        return tick;
    }

    /**
     * Like {@link #due}, for packet time moving on without a packet (a quiet live source): only
     * a housekeeping tick can fall due, and the packets between capacity checks do not count it.
     */
    public long dueWithoutPacket(final long packetTimeNs)
    {
        if (intervalNs == 0)
        {
            return NONE;
        }
        if (nextTickNs == Long.MIN_VALUE)
        {
            nextTickNs = Math.floorDiv(packetTimeNs, intervalNs) * intervalNs + intervalNs;
            return NONE;
        }
        if (packetTimeNs < nextTickNs)
        {
            return NONE;
        }
        final long tick = Math.floorDiv(packetTimeNs, intervalNs) * intervalNs;
        sinceNs = nextTickNs - intervalNs;
        nextTickNs = tick + intervalNs;
        return tick;
    }

    /**
     * @return the tick before the one {@link #due} or {@link #dueWithoutPacket} returned last (or
     *         the multiple of the interval at or before the first packet, for the first tick): that
     *         tick's housekeeping covers packet time after this and up to it. A VNF whose own
     *         expiry period is a multiple of the interval has a tick of its own in that span
     *         exactly when it would have had one with its own period alone
     *         ({@code ChainRuntime#expire}).
     */
    public long sinceNs()
    {
        return sinceNs;
    }

    private boolean checkerDue(final long packetTimeNs)
    {
        if (checkEveryPackets > 0)
        {
            final long index = checkPackets++;
            return index > 0 && index % checkEveryPackets == 0;
        }
        final long next = Math.floorDiv(packetTimeNs, checkEveryNs) * checkEveryNs + checkEveryNs;
        if (nextCheckNs == Long.MIN_VALUE)
        {
            nextCheckNs = next;
            return false;
        }
        if (packetTimeNs < nextCheckNs)
        {
            return false;
        }
        nextCheckNs = next;
        return true;
    }
}
