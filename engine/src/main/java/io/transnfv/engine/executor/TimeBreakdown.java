package io.transnfv.engine.executor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the executor's time goes, per operation, in the categories of the TStream/MorphStream
 * breakdown (Fig. 3c of the TransNFV paper): useful, sync, lock, construct, explore, others.
 * Totals of executor-thread nanoseconds, taken at phase and idle transitions only (a handful
 * of {@code System.nanoTime()} calls per executor per batch, never one per operation), so it
 * stays on by default. Written and read by the coordinating thread.
 *
 * <pre>
 *  construct  coordinator: TPG build + seal, statistics, decision, version binding, units, seeding
 *  useful     executors: running units (functions, state access, releasing dependents)
 *  explore    executors: idle streaks that ended by finding work (searching, stealing)
 *  sync       executors: idle streaks that parked or ran into the end of the batch (waiting
 *             on dependencies), and the coordinator's wait for the last executor
 *  lock       always 0: no locks on the path (lock-free deques and state machine)
 *  others     coordinator: lazy-abort resolution and re-execution, collapse, results
 * </pre>
 */
public final class TimeBreakdown
{
    private long operations;
    private long usefulNs;
    private long syncNs;
    private long lockNs;
    private long constructNs;
    private long exploreNs;
    private long othersNs;

    void add(final long ops, final long useful, final long sync, final long construct, final long explore, final long others)
    {
        operations += ops;
        usefulNs += useful;
        syncNs += sync;
        constructNs += construct;
        exploreNs += explore;
        othersNs += others;
    }

    /** @return operations accounted so far. */
    public long operations()
    {
        return operations;
    }

    /** @return total useful nanoseconds. */
    public long usefulNs()
    {
        return usefulNs;
    }

    /** @return total sync nanoseconds. */
    public long syncNs()
    {
        return syncNs;
    }

    /** @return total lock nanoseconds (0: nothing locks). */
    public long lockNs()
    {
        return lockNs;
    }

    /** @return total construct nanoseconds. */
    public long constructNs()
    {
        return constructNs;
    }

    /** @return total explore nanoseconds. */
    public long exploreNs()
    {
        return exploreNs;
    }

    /** @return total others nanoseconds. */
    public long othersNs()
    {
        return othersNs;
    }

    /** @return category → nanoseconds per operation, in the paper's order (allocates: reporting only). */
    public Map<String, Double> nsPerOperation()
    {
        final Map<String, Double> m = new LinkedHashMap<>();
        final double ops = Math.max(1, operations);
        m.put("useful", usefulNs / ops);
        m.put("sync", syncNs / ops);
        m.put("lock", lockNs / ops);
        m.put("construct", constructNs / ops);
        m.put("explore", exploreNs / ops);
        m.put("others", othersNs / ops);
        return m;
    }

    @Override
    public String toString()
    {
        return "nsPerOp" + nsPerOperation();
    }
}
