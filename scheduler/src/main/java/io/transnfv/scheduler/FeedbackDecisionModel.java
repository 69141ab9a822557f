package io.transnfv.scheduler;

/**
 * The feedback mode: a contextual ε-greedy bandit over the 12 static policies. The context is
 * a coarse signature of the batch's statistics (contended chain length, recent abort ratio,
 * parametric share, one or more executors: 4 × 3 × 2 × 2 buckets), so a workload that changes
 * phase finds the estimates it learnt for that phase again. Per context, each policy's cost is
 * a moving average of ns per operation of the batches it ran; the heuristic's choice is the
 * prior (tried first, and kept until something measured beats it). With probability
 * {@link #EXPLORE_PERCENT}% a batch tries another policy, the one tried least in the context.
 * Deterministic (its own xorshift generator); allocation-free after construction.
 */
public final class FeedbackDecisionModel implements DecisionModel
{
    /** Share of batches spent trying a policy other than the best known, in percent. */
    public static final int EXPLORE_PERCENT = 5;

    private static final int CONTEXTS = 4 * 3 * 2 * 2;
    private static final double COST_WEIGHT = 0.3;

    private final DecisionModel prior;
    private final double[] cost = new double[CONTEXTS * SchedulingPolicy.STATIC_COUNT];
    private final int[] tries = new int[CONTEXTS * SchedulingPolicy.STATIC_COUNT];
    private long random = 0x2545F4914F6CDD1DL;
    private int lastContext;
    private String lastReason = "none";

    /** @param prior the model whose choice is tried first in every context. */
    public FeedbackDecisionModel(final DecisionModel prior)
    {
        this.prior = prior;
    }

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        final int context = context(stats);
        lastContext = context;
        final int base = context * SchedulingPolicy.STATIC_COUNT;
        final SchedulingPolicy guess = prior.choose(stats);
        if (tries[base + guess.index()] == 0)
        {
            lastReason = "prior";
            return guess;
        }
        if (nextRandom() % 100 < EXPLORE_PERCENT)
        {
            int least = 0;
            for (int i = 1; i < SchedulingPolicy.STATIC_COUNT; i++)
            {
                if (tries[base + i] < tries[base + least])
                {
                    least = i;
                }
            }
            lastReason = "explore";
            return SchedulingPolicy.ofIndex(least);
        }
        int best = guess.index();
        for (int i = 0; i < SchedulingPolicy.STATIC_COUNT; i++)
        {
            if (tries[base + i] > 0 && cost[base + i] < cost[base + best])
            {
                best = i;
            }
        }
        lastReason = best == guess.index() ? "exploit-prior" : "exploit-learnt";
        return SchedulingPolicy.ofIndex(best);
    }

    @Override
    public void observe(final BatchStatistics stats, final SchedulingPolicy policy, final long batchNs)
    {
        if (stats.operations() == 0)
        {
            return;
        }
        final int i = lastContext * SchedulingPolicy.STATIC_COUNT + policy.index();
        final double nsPerOp = (double)batchNs / stats.operations();
        cost[i] = tries[i]++ == 0 ? nsPerOp : cost[i] + COST_WEIGHT * (nsPerOp - cost[i]);
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

    /** @return the learnt cost (ns/op) of {@code policy} in the last batch's context, NaN if untried. */
    public double learntCost(final SchedulingPolicy policy)
    {
        final int i = lastContext * SchedulingPolicy.STATIC_COUNT + policy.index();
        return tries[i] == 0 ? Double.NaN : cost[i];
    }

    private static int context(final BatchStatistics stats)
    {
        final double chain = stats.contendedChainLength();
        final int c = chain < 1.5 ? 0 : chain < 4 ? 1 : chain < 32 ? 2 : 3;
        final double aborts = stats.recentAbortRatio();
        final int a = aborts <= 0.005 ? 0 : aborts <= 0.05 ? 1 : 2;
        final int p = stats.parametricShare() < 0.25 ? 0 : 1;
        final int t = stats.threads() == 1 ? 0 : 1;
        return ((c * 3 + a) * 2 + p) * 2 + t;
    }

    private int nextRandom()
    {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int)((x >>> 33) & 0x7FFFFFFF);
    }
}
