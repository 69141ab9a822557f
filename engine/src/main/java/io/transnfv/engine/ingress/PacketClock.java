package io.transnfv.engine.ingress;

/**
 * Packet time as VNFs see it: the source's timestamps, held non-decreasing. A packet
 * stamped earlier than its predecessor (real traces have them) takes its predecessor's
 * time, so that arrival order and time order agree and every executor, which orders
 * transactions by (time, arrival), reaches the oracle's result. One thread.
 */
public final class PacketClock
{
    private long lastNs = Long.MIN_VALUE;

    /**
     * @param sourceTimestampNs the timestamp the source gave the packet.
     * @return the packet's time: the largest timestamp seen so far.
     */
    public long onPacket(final long sourceTimestampNs)
    {
        if (sourceTimestampNs > lastNs)
        {
            lastNs = sourceTimestampNs;
        }
        return lastNs;
    }

    /** @return the time of the last packet, or {@link Long#MIN_VALUE} before the first. */
    public long lastNs()
    {
        return lastNs;
    }
}
