package io.transnfv.engine.batch;

import io.transnfv.engine.report.SchedulerReport;

/**
 * How many workers the load needs, read from how batches close: all of them as soon as packets
 * wait (a batch closed full, or early for idle workers while the input had more, or with a
 * quarter of its limit), one once batches have held a packet or two for a while (the input
 * keeps running dry between packets). As a NIC driver moves between polling and interrupts,
 * or a core allocator (Shenango, Caladan) grants cores on queueing delay, the engine spins on
 * one core at low load and leaves the other to the JIT, the collector and the operating system;
 * on a machine with as many cores as workers, a spinning worker that one of them preempts stalls
 * its batch for a whole scheduler slice. Which workers run a batch never changes its outputs.
 *
 * <pre>
 *  closed at the size limit, for idle workers (input not dry) or with ≥ limit / 4 packets ─► all workers, at once
 *  narrowAfter batches in a row of at most smallBatch packets                            ─► one worker
 *  anything between                                                                     ─► as it is</pre>
 *
 * <p>The gap between the two is the hysteresis: near one worker's capacity batches hold several
 * packets, so the engine stays wide rather than narrowing, falling behind and widening again.
 * <pre>
 * </pre>
 *
 * <p>Decided by the IO role (one thread at a time) after each batch it closes.
 */
public final class Engagement
{
    private final int workers;
    private final boolean adaptive;
    private final int narrowAfter;
    private final int smallBatch;
    private int engaged;
    private int smallStreak;
    private long widened;
    private long narrowed;
    private long batchesOnOne;
    private long batches;

    /**
     * @param workers     the workers of the run, at least 1.
     * @param adaptive    false to keep every worker engaged whatever the load.
     * @param narrowAfter small batches in a row after which one worker is enough, at least 1.
     * @param smallBatch  the most packets a small batch holds, at least 1.
     */
    public Engagement(final int workers, final boolean adaptive, final int narrowAfter, final int smallBatch)
    {
        if (workers < 1 || narrowAfter < 1 || smallBatch < 1)
        {
            throw new IllegalArgumentException("workers " + workers + ", narrow after " + narrowAfter + ", small batch " + smallBatch);
        }
        this.smallBatch = smallBatch;
        this.workers = workers;
        this.adaptive = adaptive && workers > 1;
        this.narrowAfter = narrowAfter;
        this.engaged = workers;
    }

    /**
     * Counts a closed batch and decides the workers for what follows.
     *
     * @param reason  why it closed ({@link Punctuation#SIZE}, ...).
     * @param packets the batch's packets.
     * @param limit   the batch limit it closed under.
     * @return the workers to engage now.
     */
    public int onClosed(final int reason, final int packets, final int limit)
    {
        batches++;
        if (engaged == 1)
        {
            batchesOnOne++;
        }
        if (!adaptive)
        {
            return engaged;
        }
        // a batch closed for idle workers had more packets behind it: with one worker engaged, that
        // worker is the idle one whenever it reads, so its batches close there, never at the size limit
        if (reason == Punctuation.SIZE || reason == Punctuation.ENGINE_IDLE || 4L * packets >= limit)
        {
            smallStreak = 0;
            if (engaged != workers)
            {
                engaged = workers;
                widened++;
            }
        }
        else if (packets > smallBatch)
        {
            smallStreak = 0;
        }
        else if (++smallStreak >= narrowAfter && engaged != 1)
        {
            engaged = 1;
            narrowed++;
        }
        return engaged;
    }

    /** @return the workers engaged now. */
    public int engaged()
    {
        return engaged;
    }

    /** @return what the engagement did, for the run report. */
    public SchedulerReport.EngagementReport report()
    {
        return new SchedulerReport.EngagementReport(workers, adaptive, batches == 0 ? 0.0 : (double)batchesOnOne / batches, widened, narrowed);
    }
}
