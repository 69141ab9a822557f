package io.transnfv.engine.ingress;

/**
 * Places housekeeping ({@code Vnf.expire}) in packet time: ticks fall on multiples of the
 * interval, and the first packet at or after a tick triggers it, before that packet's own
 * transactions. The oracle and every engine use this same rule, so housekeeping happens at
 * the same point of the serial order everywhere. One thread.
 */
public final class ExpiryTicker
{
    /** {@link #due} result when no housekeeping is due. */
    public static final long NONE = Long.MIN_VALUE;

    private final long intervalNs;
    private long nextTickNs = Long.MIN_VALUE;

    /** @param intervalNs the tick period; 0 disables housekeeping. */
    public ExpiryTicker(final long intervalNs)
    {
        if (intervalNs < 0)
        {
            throw new IllegalArgumentException("interval must be >= 0: " + intervalNs);
        }
        this.intervalNs = intervalNs;
    }

    /**
     * @param packetTimeNs the next packet's time (non-decreasing across calls).
     * @return the tick time to run housekeeping at before this packet, or {@link #NONE}.
     */
    public long due(final long packetTimeNs)
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
        nextTickNs = tick + intervalNs;
        return tick;
    }
}
