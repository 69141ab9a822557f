package io.transnfv.vnf.builtin;

/**
 * Packet-time arithmetic shared by the built-in VNFs. State stores times in milliseconds
 * of packet time; a <em>stamp</em> is such a time plus one, so that a stamp is never 0,
 * the initial value that means "absent". Stateless; any thread may call it.
 */
public final class PacketClock
{
    /** Nanoseconds per millisecond. */
    public static final long NS_PER_MS = 1_000_000L;

    private PacketClock()
    {
    }

    /** @return packet time {@code timeNs} in whole milliseconds. */
    public static long millis(final long timeNs)
    {
        return timeNs / NS_PER_MS;
    }

    /**
     * An entry last seen at {@code lastSeenMs} is idle at {@code nowMs} when more than
     * {@code timeoutMs} passed; the expiry sweep and packets use this same test.
     *
     * @return true if the entry is idle (logically expired).
     */
    public static boolean idle(final long lastSeenMs, final long nowMs, final long timeoutMs)
    {
        return nowMs - lastSeenMs > timeoutMs;
    }

    /** @return the stamp of packet time {@code timeNs}: its milliseconds plus one, never 0. */
    public static long stamp(final long timeNs)
    {
        return millis(timeNs) + 1;
    }

    /** @return the milliseconds a non-zero stamp stands for. */
    public static long stampMillis(final long stamp)
    {
        return stamp - 1;
    }

    /** @return true if {@code stamp} is present (non-zero) and not idle at {@code nowMs}. */
    public static boolean live(final long stamp, final long nowMs, final long timeoutMs)
    {
        return stamp != 0 && !idle(stamp - 1, nowMs, timeoutMs);
    }
}
