package io.transnfv.scheduler;

/**
 * The documented heuristic: three independent rules over the batch's measured statistics,
 * one per dimension. The thresholds come from the scheduling benchmark
 * ({@code experiments/.../scheduling/SchedulingBenchmark}, docs/PERFORMANCE.md "Scheduling");
 * docs/design/scheduling.md gives, for every rule, the measurement that justified it.
 *
 * <pre>
 *  abort        recent abort ratio ≤ LAZY_MAX_ABORT_RATIO        → lazy   else eager
 *  granularity  contended chain length ≥ GROUP_MIN_CHAIN          → group  else op
 *  exploration  one executor                                      → dfs
 *               parametric share ≥ RANDOM_MIN_PD_SHARE (threads>1) → random
 *               otherwise                                         → bfs
 * </pre>
 */
public final class HeuristicDecisionModel implements DecisionModel
{
    /** Above this recent abort ratio, lazy's re-execution costs more than it saves. */
    public static final double LAZY_MAX_ABORT_RATIO = 0.02;
    /** From this contended chain length on, running a key's chain as one unit pays. */
    public static final double GROUP_MIN_CHAIN = 3.0;
    /** From this parametric share on, random stealing balances cross-chain waits best. */
    public static final double RANDOM_MIN_PD_SHARE = 2.0;

    private String lastReason = "none";

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        final boolean lazy = stats.recentAbortRatio() <= LAZY_MAX_ABORT_RATIO;
        final boolean group = stats.contendedChainLength() >= GROUP_MIN_CHAIN;
        final int exploration;
        if (stats.threads() == 1)
        {
            exploration = 1;
            lastReason = lazy ? (group ? "1t/chain/rare-aborts" : "1t/flat/rare-aborts") : (group ? "1t/chain/aborts" : "1t/flat/aborts");
        }
        else if (stats.parametricShare() >= RANDOM_MIN_PD_SHARE)
        {
            exploration = 2;
            lastReason = lazy ? (group ? "pd/chain/rare-aborts" : "pd/flat/rare-aborts") : (group ? "pd/chain/aborts" : "pd/flat/aborts");
        }
        else
        {
            exploration = 0;
            lastReason = lazy ? (group ? "chain/rare-aborts" : "flat/rare-aborts") : (group ? "chain/aborts" : "flat/aborts");
        }
        return SchedulingPolicy.ofIndex(exploration * 4 + (group ? 2 : 0) + (lazy ? 1 : 0));
    }

    @Override
    public void observe(final BatchStatistics stats, final SchedulingPolicy policy, final long batchNs)
    {
    }

    @Override
    public String lastReason()
    {
        return lastReason;
    }

    @Override
    public String name()
    {
        return "adaptive";
    }
}
