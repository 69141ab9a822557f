package io.transnfv.scheduler;

/**
 * The documented heuristic: one rule per dimension over the batch's measured statistics.
 * The thresholds come from the interleaved scheduling benchmark
 * ({@code experiments/.../scheduling/SchedulingBenchmark}, docs/PERFORMANCE.md "Scheduling");
 * docs/design/scheduling.md gives, for every rule, the measurement that justified it.
 *
 * <pre>
 *  abort        recent abort ratio ≤ LAZY_MAX_ABORT_RATIO                      → lazy   else eager
 *  granularity  contended chain ≥ GROUP_MIN_CHAIN and more than one executor    → group  else op
 *  exploration  group units                                                   → dfs    else bfs
 * </pre>
 */
public final class HeuristicDecisionModel implements DecisionModel
{
    /** Above this recent abort ratio, lazy's serial re-execution costs more than its earlier release saves ({@link SchedulerTuning}). */
    public static final double LAZY_MAX_ABORT_RATIO = SchedulerTuning.LAZY_MAX_ABORT_RATIO;
    /** From this contended chain length on (and with more than one executor), a key's chain as one unit pays ({@link SchedulerTuning}). */
    public static final double GROUP_MIN_CHAIN = SchedulerTuning.GROUP_MIN_CHAIN;

    private static final String[] REASONS = {
        "short-chains/rare-aborts", "short-chains/aborts", "long-chains/rare-aborts", "long-chains/aborts",
    };

    private String lastReason = "none";

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        return choose(stats.threads(), stats.contendedChainLength(), stats.recentAbortRatio());
    }

    /**
     * The rules over the three figures they read, as {@link BatchStatistics} measures them: what
     * the test against measured workloads ({@code HeuristicDecisionModelMeasuredTest}) feeds in.
     *
     * @param threads          executors the batch runs on.
     * @param contendedChain   the batch's contended chain length.
     * @param recentAbortRatio the recent abort ratio.
     */
    SchedulingPolicy choose(final int threads, final double contendedChain, final double recentAbortRatio)
    {
        final boolean lazy = recentAbortRatio <= LAZY_MAX_ABORT_RATIO;
        final boolean group = threads > 1 && contendedChain >= GROUP_MIN_CHAIN;
        // op units: breadth-first keeps the ready set wide; chains: depth-first follows the chain's own successors
        final int exploration = group ? 1 : 0;
        lastReason = REASONS[(group ? 2 : 0) + (lazy ? 0 : 1)];
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
