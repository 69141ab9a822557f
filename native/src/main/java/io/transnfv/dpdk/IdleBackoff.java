package io.transnfv.dpdk;

import java.util.concurrent.locks.LockSupport;

/**
 * What a polling thread does when it found no work: spin, then yield, then park for a
 * growing while (1 µs doubling to 100 µs). {@link #reset()} when work is found. Owned by
 * one thread. (Agrona's {@code BackoffIdleStrategy} in miniature.)
 */
final class IdleBackoff
{
    private static final int SPINS = 64;
    private static final int YIELDS = 64;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = 100_000;

    private int idleCount;
    private long parkNs = MIN_PARK_NS;

    void idle()
    {
        if (idleCount < SPINS)
        {
            idleCount++;
            Thread.onSpinWait();
        }
        else if (idleCount < SPINS + YIELDS)
        {
            idleCount++;
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
        }
    }

    void reset()
    {
        idleCount = 0;
        parkNs = MIN_PARK_NS;
    }
}
