package io.transnfv.engine.thread;

import io.transnfv.vnf.instance.CounterStripe;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A thread of the engine's worker pool. It owns a stripe of every VNF counter for as long as it
 * lives, so that counting on it takes a plain store ({@link CounterStripe}); when all stripes
 * are taken it counts through the shared fallback like any other thread.
 */
public final class WorkerThread extends Thread implements CounterStripe
{
    private static final AtomicLong STRIPES_TAKEN = new AtomicLong();
    private static final int NO_STRIPE = -1;

    private final int stripe;

    /**
     * @param body the thread's work.
     * @param name the thread's name.
     */
    public WorkerThread(final Runnable body, final String name)
    {
        super(body, name);
        setDaemon(true);
        this.stripe = takeStripe();
    }

    @Override
    public int counterStripe()
    {
        return stripe;
    }

    @Override
    public void run()
    {
        try
        {
            super.run();
        }
        finally
        {
            releaseStripe(stripe);
        }
    }

    /** @return true if this thread has a stripe of its own (false once all are taken). */
    public boolean hasStripe()
    {
        return stripe != NO_STRIPE;
    }

    private static int takeStripe()
    {
        while (true)
        {
            final long taken = STRIPES_TAKEN.get();
            final long free = ~taken;
            if (free == 0)
            {
                return NO_STRIPE;
            }
            final int s = Long.numberOfTrailingZeros(free);
            if (STRIPES_TAKEN.compareAndSet(taken, taken | 1L << s))
            {
                return s;
            }
        }
    }

    private static void releaseStripe(final int s)
    {
        if (s != NO_STRIPE)
        {
            STRIPES_TAKEN.getAndUpdate(taken -> taken & ~(1L << s));
        }
    }
}
