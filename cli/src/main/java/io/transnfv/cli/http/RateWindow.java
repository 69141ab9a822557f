package io.transnfv.cli.http;

import java.util.function.LongSupplier;

/**
 * Rates over the last second and the last minute, from a count sampled once a second: a ring of
 * 61 samples (count, time). Sampled and read on one thread (the control plane's event loop).
 */
final class RateWindow
{
    private static final int SLOTS = 61;

    private final LongSupplier count;
    private final LongSupplier clockNs;
    private final long[] counts = new long[SLOTS];
    private final long[] timesNs = new long[SLOTS];
    private int newest = -1;
    private int samples;

    /**
     * @param count   the monotonic count to take rates of, read from any thread.
     * @param clockNs the clock samples are timed with.
     */
    RateWindow(final LongSupplier count, final LongSupplier clockNs)
    {
        this.count = count;
        this.clockNs = clockNs;
    }

    /** Takes a sample; call once a second. */
    void sample()
    {
        newest = (newest + 1) % SLOTS;
        counts[newest] = count.getAsLong();
        timesNs[newest] = clockNs.getAsLong();
        samples = Math.min(SLOTS, samples + 1);
    }

    /** @return the count per second over the last {@code seconds} samples' span, or 0 before two samples. */
    double perSecond(final int seconds)
    {
        if (samples < 2)
        {
            return 0;
        }
        final int back = Math.min(seconds, samples - 1);
        final int older = Math.floorMod(newest - back, SLOTS);
        final long ns = timesNs[newest] - timesNs[older];
        return ns <= 0 ? 0 : (counts[newest] - counts[older]) * 1e9 / ns;
    }
}
