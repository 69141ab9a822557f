package io.transnfv.scheduler;

import java.util.Arrays;

/**
 * The feedback mode: a contextual bandit over the 12 static policies that converges on the
 * cheapest policy for the current workload, with the heuristic as its prior.
 *
 * <p><b>Context.</b> A coarse signature of the batch's measured statistics — contended chain
 * length (5 logarithmic buckets), recent abort ratio (3), parametric share (2), one or more
 * executors (2) — so a workload that changes phase finds again what it learnt for a phase it
 * has seen.
 *
 * <p><b>Estimates.</b> The machine's speed drifts (other processes, frequency scaling), so a
 * batch's ns per operation is recorded relative to the context's current <em>level</em>: what
 * a policy of relative cost 1 costs now, the median of the last {@link #LEVEL_BATCHES}
 * batches, each divided by its policy's relative estimate. Per (context, policy) the estimate is the median of the last {@link #SAMPLES}
 * relative costs, ignoring those older than {@link #STALE_BATCHES} batches of the context
 * (when all are older, the newest stands alone). A policy explored while the machine was
 * slow is thus compared with what the incumbent did at the same time; the median shrugs off a
 * GC pause or a preempted thread; dropping stale samples lets one fresh sample speak for a
 * policy that has not run for a while.
 *
 * <p><b>Choice, per context.</b>
 * <pre>
 *  1. prior    the heuristic's policy, until it has a sample
 *  2. sweep    every policy until it has SWEEP_SAMPLES samples, fewest first
 *  3. exploit  the incumbent: the lowest estimate, replacing the previous incumbent only
 *              when lower by SWITCH_MARGIN and backed by MIN_EVIDENCE fresh samples
 *              (hysteresis against noise)
 *     explore  every EXPLORE_EVERY-th batch: the plausible policy (estimate within
 *              PLAUSIBLE_FACTOR of the incumbent's) chosen longest ago
 *     recheck  every RECHECK_EVERY-th batch: the implausible policy chosen longest ago
 * </pre>
 * A policy that became cheaper turns plausible at its next recheck and takes over after a few
 * explorations; a challenger that won on lucky samples is sampled every batch once it is the
 * incumbent, and loses its place within a few batches. The sweep costs 24 batches per context; then
 * at most 1/{@link #EXPLORE_EVERY} of the batches run a policy up to
 * {@link #PLAUSIBLE_FACTOR} dearer, and 1/{@link #RECHECK_EVERY} an implausible one.
 * Deterministic; allocation-free after construction; coordinating thread only.
 */
public final class FeedbackDecisionModel implements DecisionModel
{
    /** Samples every policy gets in a context before the model exploits. */
    public static final int SWEEP_SAMPLES = 2;
    /** Batches of a context between two explorations of a plausible policy. */
    public static final int EXPLORE_EVERY = 16;
    /** Batches of a context between two re-checks of an implausible policy. */
    public static final int RECHECK_EVERY = 128;
    /** A policy is plausible while its estimate is at most this factor of the incumbent's. */
    public static final double PLAUSIBLE_FACTOR = 1.25;
    /** A challenger replaces the incumbent when its estimate is lower by at least this share... */
    public static final double SWITCH_MARGIN = 0.05;
    /** ...and rests on at least this many fresh samples. */
    public static final int MIN_EVIDENCE = 3;
    /** Samples per (context, policy) the median is taken over. */
    public static final int SAMPLES = 16;
    /** Batches of a context after which a sample no longer counts (unless it is the policy's newest). */
    public static final int STALE_BATCHES = 256;
    /** Batches the context's level is the median of. */
    public static final int LEVEL_BATCHES = 9;

    private static final int POLICIES = SchedulingPolicy.STATIC_COUNT;
    private static final int CONTEXTS = 5 * 3 * 2 * 2;

    private final DecisionModel prior;
    private final double[] sample = new double[CONTEXTS * POLICIES * SAMPLES];
    private final long[] sampledAt = new long[CONTEXTS * POLICIES * SAMPLES];
    private final int[] samples = new int[CONTEXTS * POLICIES];
    private final long[] lastChosen = new long[CONTEXTS * POLICIES];
    private final long[] batchesSeen = new long[CONTEXTS];
    private final int[] incumbent = new int[CONTEXTS];
    private final double[] level = new double[CONTEXTS];
    private final double[] levelSample = new double[CONTEXTS * LEVEL_BATCHES];
    private final int[] levelSamples = new int[CONTEXTS];
    private final double[] levelScratch = new double[LEVEL_BATCHES];
    private final double[] estimate = new double[POLICIES];
    private final int[] evidence = new int[POLICIES];
    private final double[] scratch = new double[SAMPLES];
    private int lastContext;
    private long lastBatch;
    private boolean lastProbed;
    private String lastReason = "none";
    private int fresh;

    /** @param prior the model whose choice is tried first in every context. */
    public FeedbackDecisionModel(final DecisionModel prior)
    {
        this.prior = prior;
        Arrays.fill(incumbent, -1);
    }

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        final int context = context(stats);
        final int base = context * POLICIES;
        final long n = batchesSeen[context]++;
        final int guess = prior.choose(stats).index();
        lastProbed = false;
        final int policy;
        if (samples[base + guess] == 0)
        {
            lastReason = "prior";
            policy = guess;
        }
        else
        {
            final int unswept = fewestSamples(base);
            if (samples[base + unswept] < SWEEP_SAMPLES)
            {
                lastReason = "sweep";
                policy = unswept;
            }
            else
            {
                policy = afterSweep(context, n, guess);
            }
        }
        lastContext = context;
        lastBatch = n;
        lastChosen[base + policy] = n;
        return SchedulingPolicy.ofIndex(policy);
    }

    private int afterSweep(final int context, final long n, final int guess)
    {
        final int base = context * POLICIES;
        for (int i = 0; i < POLICIES; i++)
        {
            estimate[i] = estimate(base + i, n);
            evidence[i] = fresh;
        }
        int current = incumbent[context] < 0 ? guess : incumbent[context];
        int best = current;
        for (int i = 0; i < POLICIES; i++)
        {
            best = evidence[i] >= MIN_EVIDENCE && estimate[i] < estimate[best] ? i : best;
        }
        if (estimate[best] < estimate[current] * (1 - SWITCH_MARGIN))
        {
            current = best;
        }
        incumbent[context] = current;
        final double plausible = estimate[current] * PLAUSIBLE_FACTOR;
        if (n % EXPLORE_EVERY == 0)
        {
            final int p = chosenLongestAgo(base, current, plausible, true);
            if (p >= 0)
            {
                lastReason = "explore";
                lastProbed = true;
                return p;
            }
        }
        else if (n % RECHECK_EVERY == EXPLORE_EVERY / 2)
        {
            final int p = chosenLongestAgo(base, current, plausible, false);
            if (p >= 0)
            {
                lastReason = "recheck";
                lastProbed = true;
                return p;
            }
        }
        lastReason = current == guess ? "exploit-prior" : "exploit-learnt";
        return current;
    }

    /** @return the median of the fresh samples of (context, policy) {@code i} at context batch {@code now}. */
    private double estimate(final int i, final long now)
    {
        final int held = Math.min(samples[i], SAMPLES);
        final int first = i * SAMPLES;
        int fresh = 0;
        long newestAt = -1;
        double newest = Double.NaN;
        for (int j = 0; j < held; j++)
        {
            if (now - sampledAt[first + j] <= STALE_BATCHES)
            {
                scratch[fresh++] = sample[first + j];
            }
            if (sampledAt[first + j] > newestAt)
            {
                newestAt = sampledAt[first + j];
                newest = sample[first + j];
            }
        }
        this.fresh = fresh;
        if (fresh == 0)
        {
            return held == 0 ? Double.POSITIVE_INFINITY : newest;
        }
        Arrays.sort(scratch, 0, fresh);
        return (fresh & 1) == 1 ? scratch[fresh / 2] : (scratch[fresh / 2 - 1] + scratch[fresh / 2]) / 2;
    }

    /** @return the policy other than {@code current} chosen longest ago whose plausibility is {@code wanted}, or -1. */
    private int chosenLongestAgo(final int base, final int current, final double plausible, final boolean wanted)
    {
        int found = -1;
        for (int i = 0; i < POLICIES; i++)
        {
            if (i != current && (estimate[i] <= plausible) == wanted &&
                (found < 0 || lastChosen[base + i] < lastChosen[base + found]))
            {
                found = i;
            }
        }
        return found;
    }

    private int fewestSamples(final int base)
    {
        int fewest = 0;
        for (int i = 1; i < POLICIES; i++)
        {
            fewest = samples[base + i] < samples[base + fewest] ? i : fewest;
        }
        return fewest;
    }

    @Override
    public void observe(final BatchStatistics stats, final SchedulingPolicy policy, final long batchNs)
    {
        if (stats.operations() == 0)
        {
            return;
        }
        final int i = lastContext * POLICIES + policy.index();
        final double nsPerOp = (double)batchNs / stats.operations();
        final double current = level[lastContext];
        final double relative = samples[i] == 0 ? Double.NaN : estimate(i, lastBatch);
        final int slot = i * SAMPLES + samples[i] % SAMPLES;
        sample[slot] = current == 0 ? 1 : nsPerOp / current;
        sampledAt[slot] = lastBatch;
        samples[i]++;
        // the level is what a policy of relative cost 1 costs now: each batch of a policy with an
        // estimate says so (explorations and rechecks excepted: they are what is being measured)
        if (current == 0)
        {
            addLevelSample(lastContext, nsPerOp);
        }
        else if (!lastProbed && relative > 0 && relative < Double.POSITIVE_INFINITY)
        {
            addLevelSample(lastContext, nsPerOp / relative);
        }
    }

    private void addLevelSample(final int context, final double value)
    {
        final int first = context * LEVEL_BATCHES;
        levelSample[first + levelSamples[context]++ % LEVEL_BATCHES] = value;
        final int held = Math.min(levelSamples[context], LEVEL_BATCHES);
        System.arraycopy(levelSample, first, levelScratch, 0, held);
        Arrays.sort(levelScratch, 0, held);
        level[context] = levelScratch[held / 2];
    }

    @Override
    public String lastReason()
    {
        return lastReason;
    }

    @Override
    public String name()
    {
        return "adaptive-feedback";
    }

    /**
     * @return the learnt cost of {@code policy} in the last batch's context, relative to the
     *         context's current level (1 = as fast as the recent batches), NaN if never run there.
     */
    public double learntCost(final SchedulingPolicy policy)
    {
        final int i = lastContext * POLICIES + policy.index();
        return samples[i] == 0 ? Double.NaN : estimate(i, batchesSeen[lastContext]);
    }

    /** @return the context (0 .. 59) {@code stats} falls in. */
    static int context(final BatchStatistics stats)
    {
        final double chain = stats.contendedChainLength();
        final int c = chain < 2 ? 0 : chain < 8 ? 1 : chain < 64 ? 2 : chain < 512 ? 3 : 4;
        final double aborts = stats.recentAbortRatio();
        final int a = aborts <= 0.005 ? 0 : aborts <= 0.05 ? 1 : 2;
        final int p = stats.parametricShare() < 0.25 ? 0 : 1;
        final int t = stats.threads() == 1 ? 0 : 1;
        return ((c * 3 + a) * 2 + p) * 2 + t;
    }
}
