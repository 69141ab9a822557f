package io.transnfv.scheduler;

import java.util.Arrays;

/**
 * The feedback mode: a contextual bandit over the 12 static policies that converges on the
 * cheapest policy for the current workload, with the heuristic as its prior.
 *
 * <p><b>Context.</b> A coarse signature of the batch's measured statistics — contended chain
 * length (5 logarithmic buckets), recent abort ratio (3), parametric share (2), one or more
 * executors (2) and the batch's table set ({@link BatchStatistics#signature()}, 8 slots: the
 * VNFs of a chain share one executor) — so a workload that changes phase finds again what it
 * learnt for a phase it has seen, and one VNF's costs are never compared with another's.
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
 *              when lower by SWITCH_CONFIDENCE standard errors (from the samples' spread;
 *              at least SWITCH_MARGIN) on MIN_EVIDENCE fresh samples: the noisier the
 *              batches, the surer the model must be before it moves
 *     explore  every EXPLORE_EVERY-th batch: the plausible policy (estimate within
 *              PLAUSIBLE_FACTOR of the incumbent's) chosen longest ago
 *     recheck  every RECHECK_EVERY-th batch: the implausible policy chosen longest ago
 * </pre>
 * A policy that became cheaper turns plausible at its next recheck and takes over after a few
 * explorations; a challenger that won on lucky samples is sampled every batch once it is the
 * incumbent, and loses its place within a few batches. The sweep costs 24 batches per context; then
 * at most 1/{@link #EXPLORE_EVERY} of the batches run a policy up to
 * {@link #PLAUSIBLE_FACTOR} dearer, and 1/{@link #RECHECK_EVERY} an implausible one.
 * Deterministic; allocates only when it meets a context for the first time (at most
 * {@value #CONTEXTS} times); coordinating thread only.
 */
public final class FeedbackDecisionModel implements DecisionModel
{
    /** {@link SchedulerTuning#FEEDBACK_SWEEP_SAMPLES}. */
    public static final int SWEEP_SAMPLES = SchedulerTuning.FEEDBACK_SWEEP_SAMPLES;
    /** {@link SchedulerTuning#FEEDBACK_EXPLORE_EVERY}. */
    public static final int EXPLORE_EVERY = SchedulerTuning.FEEDBACK_EXPLORE_EVERY;
    /** {@link SchedulerTuning#FEEDBACK_RECHECK_EVERY}. */
    public static final int RECHECK_EVERY = SchedulerTuning.FEEDBACK_RECHECK_EVERY;
    /** {@link SchedulerTuning#FEEDBACK_PLAUSIBLE_FACTOR}. */
    public static final double PLAUSIBLE_FACTOR = SchedulerTuning.FEEDBACK_PLAUSIBLE_FACTOR;
    /** {@link SchedulerTuning#FEEDBACK_SWITCH_MARGIN}. */
    public static final double SWITCH_MARGIN = SchedulerTuning.FEEDBACK_SWITCH_MARGIN;
    /** {@link SchedulerTuning#FEEDBACK_SWITCH_CONFIDENCE}. */
    public static final double SWITCH_CONFIDENCE = SchedulerTuning.FEEDBACK_SWITCH_CONFIDENCE;
    /** {@link SchedulerTuning#FEEDBACK_MIN_EVIDENCE}. */
    public static final int MIN_EVIDENCE = SchedulerTuning.FEEDBACK_MIN_EVIDENCE;
    /** {@link SchedulerTuning#FEEDBACK_SAMPLES}. */
    public static final int SAMPLES = SchedulerTuning.FEEDBACK_SAMPLES;
    /** {@link SchedulerTuning#FEEDBACK_STALE_BATCHES}. */
    public static final int STALE_BATCHES = SchedulerTuning.FEEDBACK_STALE_BATCHES;
    /** {@link SchedulerTuning#FEEDBACK_LEVEL_BATCHES}. */
    public static final int LEVEL_BATCHES = SchedulerTuning.FEEDBACK_LEVEL_BATCHES;
    /** {@link SchedulerTuning#FEEDBACK_REFRESH_EVERY}. */
    public static final int REFRESH_EVERY = SchedulerTuning.FEEDBACK_REFRESH_EVERY;
    /** Contexts: chain buckets × abort buckets × PD buckets × executor buckets × table-set slots. */
    public static final int CONTEXTS = 5 * 3 * 2 * 2 * BatchStatistics.SIGNATURES;

    private static final int POLICIES = SchedulingPolicy.STATIC_COUNT;

    private final DecisionModel prior;
    private final Context[] contexts = new Context[CONTEXTS];
    private final double[] scratch = new double[Math.max(SAMPLES, LEVEL_BATCHES)];
    private Context last;
    private long lastBatch;
    private boolean lastProbed;
    private String lastReason = "none";

    /** @param prior the model whose choice is tried first in every context. */
    public FeedbackDecisionModel(final DecisionModel prior)
    {
        this.prior = prior;
    }

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        final int index = context(stats);
        Context context = contexts[index];
        if (context == null)
        {
            context = new Context();
            contexts[index] = context;
        }
        final long n = context.batchesSeen++;
        final int guess = prior.choose(stats).index();
        lastProbed = false;
        final int policy;
        if (context.samples[guess] == 0)
        {
            lastReason = "prior";
            policy = guess;
        }
        else
        {
            final int unswept = context.fewestSamples();
            if (context.samples[unswept] < SWEEP_SAMPLES)
            {
                lastReason = "sweep";
                policy = unswept;
            }
            else
            {
                policy = afterSweep(context, n, guess);
            }
        }
        last = context;
        lastBatch = n;
        context.lastChosen[policy] = n;
        return SchedulingPolicy.ofIndex(policy);
    }

    private int afterSweep(final Context context, final long n, final int guess)
    {
        if (n % REFRESH_EVERY == 0)
        {
            // samples age out of the window even when their policy does not run
            for (int i = 0; i < POLICIES; i++)
            {
                refresh(context, i, n);
            }
        }
        final double[] estimate = context.estimate;
        final int[] evidence = context.evidence;
        int current = context.incumbent < 0 ? guess : context.incumbent;
        int best = current;
        for (int i = 0; i < POLICIES; i++)
        {
            best = evidence[i] >= MIN_EVIDENCE && estimate[i] < estimate[best] ? i : best;
        }
        if (best != current && estimate[best] < estimate[current] * (1 - switchThreshold(context, best, current)))
        {
            current = best;
        }
        context.incumbent = current;
        final double plausible = estimate[current] * PLAUSIBLE_FACTOR;
        if (n % EXPLORE_EVERY == 0)
        {
            final int p = chosenLongestAgo(context, current, plausible, true);
            if (p >= 0)
            {
                lastReason = "explore";
                lastProbed = true;
                return p;
            }
        }
        else if (n % RECHECK_EVERY == EXPLORE_EVERY / 2)
        {
            final int p = chosenLongestAgo(context, current, plausible, false);
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

    /** @return how much cheaper {@code challenger} must look than {@code incumbent}, as a share. */
    private static double switchThreshold(final Context context, final int challenger, final int incumbent)
    {
        final double[] spread = context.spread;
        final int[] evidence = context.evidence;
        // a median's standard error is about 1.25 sigma / sqrt(n)
        final double c = spread[challenger] * spread[challenger] / Math.max(1, evidence[challenger]);
        final double i = spread[incumbent] * spread[incumbent] / Math.max(1, evidence[incumbent]);
        return Math.max(SWITCH_MARGIN, SWITCH_CONFIDENCE * 1.25 * Math.sqrt(c + i));
    }

    /**
     * Recomputes what {@code context} knows of {@code policy} at context batch {@code now}:
     * the median of its fresh samples ({@code estimate}), their number ({@code evidence}) and
     * their relative standard deviation from the interquartile range ({@code spread}, 0 with
     * fewer than 2). Called when the policy gets a sample and every {@link #REFRESH_EVERY}
     * batches, so choosing a policy does not sort anything.
     *
     * @return the new estimate.
     */
    private double refresh(final Context context, final int policy, final long now)
    {
        final int held = Math.min(context.samples[policy], SAMPLES);
        final int first = policy * SAMPLES;
        int fresh = 0;
        long newestAt = -1;
        double newest = Double.POSITIVE_INFINITY;
        for (int j = 0; j < held; j++)
        {
            final long at = context.sampledAt[first + j];
            if (now - at <= STALE_BATCHES)
            {
                scratch[fresh++] = context.sample[first + j];
            }
            if (at > newestAt)
            {
                newestAt = at;
                newest = context.sample[first + j];
            }
        }
        context.evidence[policy] = fresh;
        if (fresh == 0)
        {
            context.spread[policy] = 0;
            context.estimate[policy] = newest;
            return newest;
        }
        final double median = median(fresh);
        context.spread[policy] = fresh < 2 || median <= 0 ? 0 : (quantile(fresh, 0.75) - quantile(fresh, 0.25)) / 1.349 / median;
        context.estimate[policy] = median;
        return median;
    }

    /** @return the {@code q} quantile of the sorted {@code scratch[0 .. n)}, interpolated. */
    private double quantile(final int n, final double q)
    {
        final double at = q * (n - 1);
        final int lo = (int)at;
        final int hi = Math.min(n - 1, lo + 1);
        return scratch[lo] + (at - lo) * (scratch[hi] - scratch[lo]);
    }

    /** @return the median of {@code scratch[0 .. n)}, which it sorts. */
    private double median(final int n)
    {
        Arrays.sort(scratch, 0, n);
        return (n & 1) == 1 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
    }

    /** @return the policy other than {@code current} chosen longest ago whose plausibility is {@code wanted}, or -1. */
    private static int chosenLongestAgo(final Context context, final int current, final double plausible, final boolean wanted)
    {
        final double[] estimate = context.estimate;
        int found = -1;
        for (int i = 0; i < POLICIES; i++)
        {
            if (i != current && (estimate[i] <= plausible) == wanted &&
                (found < 0 || context.lastChosen[i] < context.lastChosen[found]))
            {
                found = i;
            }
        }
        return found;
    }

    @Override
    public void observe(final BatchStatistics stats, final SchedulingPolicy policy, final long batchNs)
    {
        final Context context = last;
        if (stats.operations() == 0 || context == null)
        {
            return;
        }
        final int i = policy.index();
        final double nsPerOp = (double)batchNs / stats.operations();
        final double current = context.level;
        final double relative = context.samples[i] == 0 ? Double.NaN : context.estimate[i];
        final int slot = i * SAMPLES + context.samples[i] % SAMPLES;
        context.sample[slot] = current == 0 ? 1 : nsPerOp / current;
        context.sampledAt[slot] = lastBatch;
        context.samples[i]++;
        refresh(context, i, lastBatch);
        // the level is what a policy of relative cost 1 costs now: each batch of a policy with an
        // estimate says so (explorations and rechecks excepted: they are what is being measured)
        if (current == 0)
        {
            addLevelSample(context, nsPerOp);
        }
        else if (!lastProbed && relative > 0 && relative < Double.POSITIVE_INFINITY)
        {
            addLevelSample(context, nsPerOp / relative);
        }
    }

    private void addLevelSample(final Context context, final double value)
    {
        context.levelSample[context.levelSamples++ % LEVEL_BATCHES] = value;
        final int held = Math.min(context.levelSamples, LEVEL_BATCHES);
        System.arraycopy(context.levelSample, 0, scratch, 0, held);
        context.level = median(held);
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

    /** @return the context (0 .. {@link #CONTEXTS} - 1) {@code stats} falls in. */
    static int context(final BatchStatistics stats)
    {
        final double chain = stats.contendedChainLength();
        final int c = chain < SchedulerTuning.FEEDBACK_CHAIN_EDGE_SINGLE ? 0 : chain < SchedulerTuning.FEEDBACK_CHAIN_EDGE_SHORT ? 1
            : chain < SchedulerTuning.FEEDBACK_CHAIN_EDGE_MEDIUM ? 2 : chain < SchedulerTuning.FEEDBACK_CHAIN_EDGE_LONG ? 3 : 4;
        final double aborts = stats.recentAbortRatio();
        final int a = aborts <= SchedulerTuning.FEEDBACK_ABORTS_RARE ? 0 : aborts <= SchedulerTuning.FEEDBACK_ABORTS_FEW ? 1 : 2;
        final int p = stats.parametricShare() < SchedulerTuning.FEEDBACK_PARAMETRIC_SHARE ? 0 : 1;
        final int t = stats.threads() == 1 ? 0 : 1;
        return (((c * 3 + a) * 2 + p) * 2 + t) * BatchStatistics.SIGNATURES + stats.signature();
    }

    /** What the model learnt in one context. */
    private static final class Context
    {
        final double[] sample = new double[POLICIES * SAMPLES];
        final long[] sampledAt = new long[POLICIES * SAMPLES];
        final int[] samples = new int[POLICIES];
        final long[] lastChosen = new long[POLICIES];
        final double[] levelSample = new double[LEVEL_BATCHES];
        final double[] estimate = new double[POLICIES];
        final int[] evidence = new int[POLICIES];
        final double[] spread = new double[POLICIES];
        int levelSamples;
        double level;
        long batchesSeen;
        int incumbent = -1;

        int fewestSamples()
        {
            int fewest = 0;
            for (int i = 1; i < POLICIES; i++)
            {
                fewest = samples[i] < samples[fewest] ? i : fewest;
            }
            return fewest;
        }
    }
}
