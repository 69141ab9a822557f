package io.transnfv.engine.thread;

import java.util.concurrent.locks.LockSupport;

/**
 * What a polling thread does when it found no work: spin, then yield, then park for a
 * growing while (1 µs doubling to 100 µs). {@link #reset()} when work is found. Owned by
 * one thread. (Agrona's {@code BackoffIdleStrategy} in miniature.)
 */
public final class IdleBackoff
{
    private static final int SPINS = 64;
    private static final int YIELDS = 64;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = 100_000;

    private final int spins;
    private final int yields;
    private final long minParkNs;
    private final long maxParkNs;
    private int idleCount;
    private long parkNs;

    /** The default: 64 spins, 64 yields, then parks from 1 µs doubling to 100 µs. */
    public IdleBackoff()
    {
        this(SPINS, YIELDS, MIN_PARK_NS, MAX_PARK_NS);
    }

    /**
     * @param spins     busy spins before yielding.
     * @param yields    yields before parking.
     * @param minParkNs the first park.
     * @param maxParkNs the longest park (each park doubles the last, up to this).
     */
    public IdleBackoff(final int spins, final int yields, final long minParkNs, final long maxParkNs)
    {
        if (spins < 0 || yields < 0 || minParkNs < 1 || maxParkNs < minParkNs)
        {
            throw new IllegalArgumentException("spins " + spins + ", yields " + yields + ", park " + minParkNs + ".." + maxParkNs);
        }
        this.spins = spins;
        this.yields = yields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    /** Waits a little: the longer nothing has been found, the longer the wait. */
    public void idle()
    {
        if (idleCount < spins)
        {
            idleCount++;
            Thread.onSpinWait();
        }
        else if (idleCount < spins + yields)
        {
            idleCount++;
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    /** Work was found: the next wait starts short again. */
    public void reset()
    {
        idleCount = 0;
        parkNs = minParkNs;
    }
}
