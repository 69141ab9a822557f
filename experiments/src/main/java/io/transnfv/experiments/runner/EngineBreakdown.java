package io.transnfv.experiments.runner;

import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.thread.TimeCategory;

import java.util.Arrays;

/**
 * Where the engine's time went in a run, per packet, by {@link TimeCategory} (worker-thread
 * nanoseconds summed over every worker, measured on the thread where they were spent).
 * {@link #NONE} (all {@code NaN}) for executors without one.
 *
 * @param nsPerPacket one figure per category, in {@link TimeCategory} order.
 */
public record EngineBreakdown(double[] nsPerPacket)
{
    /** No breakdown. */
    public static final EngineBreakdown NONE = new EngineBreakdown(nan());

    /** Category names, in {@link TimeCategory} order. */
    public static final String[] CATEGORIES = labels();

    /** The categories of the state access phase (graph, scheduling, execution, state). */
    private static final TimeCategory[] STATE_ACCESS = {
        TimeCategory.GATHER, TimeCategory.BUILD, TimeCategory.SEAL, TimeCategory.EXECUTE, TimeCategory.TRANSITION, TimeCategory.COLLAPSE,
    };

    /** @return the engine's breakdown of its last run. */
    public static EngineBreakdown of(final BatchedChainExecutor engine)
    {
        return new EngineBreakdown(engine.timeNsPerPacket());
    }

    /** @return the categories' values in {@link #CATEGORIES} order. */
    public double[] values()
    {
        return nsPerPacket.clone();
    }

    /** @return the figure of {@code category}. */
    public double nsPerPacket(final TimeCategory category)
    {
        return nsPerPacket[category.ordinal()];
    }

    /** @return whether there is a breakdown. */
    public boolean present()
    {
        return !Double.isNaN(nsPerPacket[0]);
    }

    /** @return the share of the workers' time spent in the state access phase (NaN without a breakdown). */
    public double stateAccessShare()
    {
        double all = 0;
        for (final double v : nsPerPacket)
        {
            all += v;
        }
        double access = 0;
        for (final TimeCategory c : STATE_ACCESS)
        {
            access += nsPerPacket[c.ordinal()];
        }
        return all == 0 ? Double.NaN : access / all;
    }

    private static double[] nan()
    {
        final double[] values = new double[TimeCategory.values().length];
        Arrays.fill(values, Double.NaN);
        return values;
    }

    private static String[] labels()
    {
        final TimeCategory[] all = TimeCategory.values();
        final String[] names = new String[all.length];
        for (int i = 0; i < all.length; i++)
        {
            names[i] = all[i].label();
        }
        return names;
    }
}
