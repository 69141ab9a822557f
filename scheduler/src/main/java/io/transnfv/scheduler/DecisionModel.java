package io.transnfv.scheduler;

/**
 * Chooses the scheduling policy of each batch from the batch's measured statistics, and
 * learns from how long batches took. Called by the coordinating thread once per batch:
 * {@link #choose} after sealing, {@link #observe} after the batch. Implementations allocate
 * nothing per batch.
 */
public interface DecisionModel
{
    /** How an adaptive executor decides. */
    enum Mode
    {
        /** Documented rules over the batch's statistics ({@link HeuristicDecisionModel}). */
        HEURISTIC,
        /** A bandit over the 12 policies with the heuristic as prior ({@link FeedbackDecisionModel}). */
        FEEDBACK
    }

    /** @return the policy for the batch {@code stats} describes. */
    SchedulingPolicy choose(BatchStatistics stats);

    /**
     * Reports how the batch went.
     *
     * @param policy  the policy {@link #choose} returned for it.
     * @param batchNs wall time of the whole batch (build to collapse).
     */
    void observe(BatchStatistics stats, SchedulingPolicy policy, long batchNs);

    /** @return the rule or reason behind the last choice (a constant string, for counters). */
    String lastReason();

    /** @return the model's name: a policy name, {@code adaptive} or {@code adaptive-feedback}. */
    String name();

    /**
     * @return true if the executor may choose for itself where the model has nothing to choose:
     *         a batch that runs on one worker then runs in serial order, in place, with no graph
     *         (the graph's only use is to share a batch among workers). A static policy says
     *         false: every batch runs its graph under that policy.
     */
    default boolean adaptive()
    {
        return true;
    }

    /** @return a model that always answers {@code policy}. */
    static DecisionModel fixed(final SchedulingPolicy policy)
    {
        return new FixedDecisionModel(policy);
    }

    /** @return a new adaptive model in {@code mode}. */
    static DecisionModel adaptive(final Mode mode)
    {
        return mode == Mode.HEURISTIC ? new HeuristicDecisionModel() : new FeedbackDecisionModel(new HeuristicDecisionModel());
    }
}
