package io.transnfv.experiments.runner;

import io.transnfv.engine.executor.TimeBreakdown;

/**
 * The engine's state access time per operation in the paper's Fig. 3c categories, as the
 * engine's {@link TimeBreakdown} reports them (executor-thread nanoseconds divided by the
 * operations executed). {@link #NONE} (all {@code NaN}) for executors without one.
 *
 * @param usefulNs    running operations.
 * @param syncNs      waiting on dependencies and at the batch end.
 * @param lockNs      holding or waiting for locks (0 in the engine: nothing locks).
 * @param constructNs building the TPG and binding versions.
 * @param exploreNs   looking for ready work.
 * @param othersNs    abort handling, collapse, results.
 */
public record EngineBreakdown(
    double usefulNs, double syncNs, double lockNs, double constructNs, double exploreNs, double othersNs)
{
    /** No breakdown. */
    public static final EngineBreakdown NONE =
        new EngineBreakdown(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** Category names, in the paper's order. */
    public static final String[] CATEGORIES = {"useful", "sync", "lock", "construct", "explore", "others"};

    /** @return {@code breakdown} per operation, or {@link #NONE} if it is null or empty. */
    public static EngineBreakdown perOperation(final TimeBreakdown breakdown)
    {
        if (breakdown == null || breakdown.operations() == 0)
        {
            return NONE;
        }
        final double ops = breakdown.operations();
        return new EngineBreakdown(breakdown.usefulNs() / ops, breakdown.syncNs() / ops, breakdown.lockNs() / ops,
            breakdown.constructNs() / ops, breakdown.exploreNs() / ops, breakdown.othersNs() / ops);
    }

    /** @return the categories' values in {@link #CATEGORIES} order. */
    public double[] values()
    {
        return new double[] {usefulNs, syncNs, lockNs, constructNs, exploreNs, othersNs};
    }

    /** @return whether there is a breakdown. */
    public boolean present()
    {
        return !Double.isNaN(usefulNs);
    }
}
