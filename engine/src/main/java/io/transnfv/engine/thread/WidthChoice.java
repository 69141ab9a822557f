package io.transnfv.engine.thread;

import io.transnfv.engine.EngineConfiguration;

import java.util.Arrays;

/**
 * A measured choice between a wide way of running a step (spread over every worker) and a
 * narrow one (one worker), for steps where both give the same result and only the cost
 * differs, such as the executor's task precedence graph (every worker) against its serial
 * schedule (one worker).
 *
 * <p>Which one wins depends on the machine (how dear a cache line moving between cores is)
 * and the workload, so this class measures both: each way's wall time per unit of work is
 * the median of its last {@link #SAMPLES} samples; the first {@link #WARM_UP} decisions
 * alternate (and go on alternating until both ways have a sample), then the cheaper way
 * runs and the other is tried again every so many decisions, so that a change in the
 * workload is noticed. The wide way occupies every worker, so it may be asked to win by a
 * margin.
 *
 * <p>Confined to one thread at a time (the one that starts the steps, one after another).
 */
public final class WidthChoice
{
    /** Decisions at the start, alternating, before the estimates are trusted. */
    public static final int WARM_UP = EngineConfiguration.WIDTH_WARM_UP;
    /** Samples per way the estimate is the median of: one outlier (a GC pause) does not move it. */
    static final int SAMPLES = EngineConfiguration.WIDTH_SAMPLES;
    private static final int NARROW = 0;
    private static final int WIDE = 1;

    private final double margin;
    private final int reprobeEvery;
    private final double[][] samples = new double[2][SAMPLES];
    private final int[] count = new int[2];
    private final double[] sorted = new double[SAMPLES];
    private final double[] estimate = {Double.NaN, Double.NaN};
    private long decided;
    private boolean lastWide;

    /**
     * @param margin       how much faster (wall time) the wide way must be to be chosen, at least 1.
     * @param reprobeEvery decisions between two tries of the way not chosen, at least 2: fewer
     *                     find a change sooner, more waste less time on the worse way.
     */
    public WidthChoice(final double margin, final int reprobeEvery)
    {
        if (!(margin >= 1.0))
        {
            throw new IllegalArgumentException("margin must be >= 1: " + margin);
        }
        if (reprobeEvery < 2)
        {
            throw new IllegalArgumentException("reprobeEvery must be >= 2: " + reprobeEvery);
        }
        this.margin = margin;
        this.reprobeEvery = reprobeEvery;
    }

    /** @return true to run the next step the wide way (every worker), false the narrow way (one). */
    public boolean wide()
    {
        final long n = decided++;
        final boolean wide;
        if (n < WARM_UP || Double.isNaN(estimate[NARROW]) || Double.isNaN(estimate[WIDE]))
        {
            // alternate until both ways have been measured
            wide = (n & 1) == 0;
        }
        else
        {
            final boolean wideCheaper = estimate[WIDE] * margin < estimate[NARROW];
            wide = n % reprobeEvery == 0 ? !wideCheaper : wideCheaper;
        }
        lastWide = wide;
        return wide;
    }

    /** Records the wall time of the step {@link #wide()} was last asked for, over its units of work. */
    public void observe(final long ns, final int work)
    {
        if (work <= 0)
        {
            return;
        }
        final int way = lastWide ? WIDE : NARROW;
        final int n = count[way]++;
        samples[way][n % SAMPLES] = (double)ns / work;
        final int k = Math.min(n + 1, SAMPLES);
        System.arraycopy(samples[way], 0, sorted, 0, k);
        Arrays.sort(sorted, 0, k);
        estimate[way] = (k & 1) == 1 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
    }

    /** @return the narrow way's estimated wall time per unit of work (median of its last samples), NaN before a sample. */
    public double narrowNsPerWork()
    {
        return estimate[NARROW];
    }

    /** @return the wide way's estimated wall time per unit of work (median of its last samples), NaN before a sample. */
    public double wideNsPerWork()
    {
        return estimate[WIDE];
    }
}
