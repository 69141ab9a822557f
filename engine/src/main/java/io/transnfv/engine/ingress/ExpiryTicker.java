package io.transnfv.engine.ingress;

import java.util.Arrays;

/**
 * Places housekeeping ({@code Vnf.expire}) in packet time: ticks fall on multiples of the
 * interval, and the first packet at or after a tick triggers it, before that packet's own
 * transactions. Between ticks, capacity checks ({@link #CHECK}) fall the same way, counted per
 * <em>check group</em>: each packet counts for one group (or none), and every
 * {@code checkEvery[g]}-th packet of group {@code g} triggers that group's check
 * ({@link #checkGroup}). A chain without tenants has one group that counts every packet; a
 * chain of tenants one per tenant, counting that tenant's packets only
 * ({@code io.transnfv.engine.chain.CheckGroups}). The oracle and every engine use this same rule, so
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
    /** {@link #checkGroup} when no group's capacity check is due. */
    public static final int NO_GROUP = -1;

    private final long[] checkEvery;
    /** Per check group, its packets so far. */
    private final long[] packets;
    private int checkGroup = NO_GROUP;
    private long nextTickNs = Long.MIN_VALUE;
    private long sinceNs = Long.MIN_VALUE;
    private boolean checking;
    private long checkEveryNs;
    private long checkEveryPackets;
    private long nextCheckNs = Long.MIN_VALUE;
    private long checkPackets;
    private boolean checkDue;

    /** @param intervalNs the tick period; 0 disables housekeeping (and capacity checks). */
    public ExpiryTicker(final long intervalNs)
    {
        this(intervalNs, new long[] {0});
    }

    /**
     * @param intervalNs the tick period; 0 disables housekeeping.
     * @param checkEvery packets between two capacity checks; 0 for none between ticks. One check
     *                   group, 0, which {@link #due(long)} counts every packet for.
     */
    public ExpiryTicker(final long intervalNs, final long checkEvery)
    {
        this(intervalNs, new long[] {checkEvery});
    }

    /**
     * @param intervalNs the tick period; 0 disables housekeeping.
     * @param checkEvery per check group, its packets between two of its capacity checks; 0 for
     *                   none between ticks. At least one group.
     */
    public ExpiryTicker(final long intervalNs, final long[] checkEvery)
    {
        if (intervalNs < 0 || checkEvery.length == 0)
        {
            throw new IllegalArgumentException("interval must be >= 0 and there must be a check group: " + intervalNs + ", "
                + checkEvery.length + " groups");
        }
        for (final long every : checkEvery)
        {
            if (every < 0)
            {
                throw new IllegalArgumentException("check periods must be >= 0: " + Arrays.toString(checkEvery));
            }
        }
        this.intervalNs = intervalNs;
        this.checkEvery = checkEvery.clone();
        this.packets = new long[checkEvery.length];
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
     * {@link #due(long, int)} for a packet of check group 0 (a chain without tenants: every packet).
     */
    public long due(final long packetTimeNs)
    {
        return due(packetTimeNs, 0);
    }

    /**
     * @param packetTimeNs the next packet's time (non-decreasing across calls).
     * @param group        the check group the packet counts for, or {@link #NO_GROUP} for none.
     * @return the tick time to run housekeeping at before this packet (its capacity checks
     *         included), {@link #CHECK} for a capacity check alone, or {@link #NONE}; in both of
     *         the first, {@link #checkGroup} says whether the packet's group's own check is due too.
     */
    public long due(final long packetTimeNs, final int group)
    {
        final long tick = dueWithoutPacket(packetTimeNs);
        if (checking)
        {
            checkDue = checkerDue(packetTimeNs);
        }
        if (group >= 0 && checkEvery[group] > 0 && ++packets[group] % checkEvery[group] == 0)
        {
            checkGroup = group;
            return tick == NONE ? CHECK : tick;
        }
        return tick;
    }

    /**
     * @return the check group whose capacity check is due before the packet of the last
     *         {@link #due} call (every {@code checkEvery[group]}-th packet of that group), or
     *         {@link #NO_GROUP}.
     */
    public int checkGroup()
    {
        return checkGroup;
    }

    /**
     * Like {@link #due}, for packet time moving on without a packet (a quiet live source): only
     * a housekeeping tick can fall due, and the packets between capacity checks do not count it.
     */
    public long dueWithoutPacket(final long packetTimeNs)
    {
        checkGroup = NO_GROUP;
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
