package io.transnfv.engine.executor;

/**
 * Whether a batch that several workers could share runs on the task precedence graph or in
 * serial order on one worker, decided by measurement rather than by a guess.
 *
 * <p>Both schedules give the serial result; they differ only in cost. A graph spends time on
 * building, sealing and hand-offs between cores to let several workers apply operations at
 * once; on few cores, or on batches whose keys bounce between cores, that costs more than it
 * saves. Which one wins depends on the machine and the workload, so this class measures both:
 * it keeps a moving average of each schedule's wall time per unit of work (operations plus
 * transactions), runs the cheaper one, and tries the other again every {@link #REPROBE_EVERY}
 * batches so that a change in the workload is noticed.
 *
 * <p>The graph occupies every worker for its wall time, the serial schedule one worker, which
 * leaves the others free for ingress, egress and the next batch's pre-processing. So the graph
 * is chosen only when its wall time is below the serial one divided by {@code margin}.
 *
 * <p>Confined to the thread that starts batches (one at a time).
 */
final class ScheduleChoice
{
    /** Batches each schedule runs, alternating, before the averages are trusted (JIT warm-up). */
    static final int WARM_UP = 16;
    /** Batches between two probes of the schedule not chosen. */
    static final int REPROBE_EVERY = 64;
    private static final double ALPHA = 0.25;

    private final double margin;
    private double serialNsPerWork = Double.NaN;
    private double graphNsPerWork = Double.NaN;
    private long decided;
    private boolean lastGraph;

    /** @param margin how much faster (wall time) the graph must be to be chosen, at least 1. */
    ScheduleChoice(final double margin)
    {
        if (!(margin >= 1.0))
        {
            throw new IllegalArgumentException("margin must be >= 1: " + margin);
        }
        this.margin = margin;
    }

    /** @return true to run the next batch on the graph, false to run it in serial order. */
    boolean graph()
    {
        final long n = decided++;
        final boolean graph;
        if (n < WARM_UP)
        {
            graph = (n & 1) == 0;
        }
        else
        {
            final boolean graphCheaper = graphNsPerWork * margin < serialNsPerWork;
            graph = n % REPROBE_EVERY == 0 ? !graphCheaper : graphCheaper;
        }
        lastGraph = graph;
        return graph;
    }

    /** Records the wall time of the batch {@link #graph()} was last asked for. */
    void observe(final long batchNs, final int work)
    {
        if (work <= 0)
        {
            return;
        }
        final double perWork = (double)batchNs / work;
        if (lastGraph)
        {
            graphNsPerWork = average(graphNsPerWork, perWork);
        }
        else
        {
            serialNsPerWork = average(serialNsPerWork, perWork);
        }
    }

    private static double average(final double current, final double sample)
    {
        return Double.isNaN(current) ? sample : current + ALPHA * (sample - current);
    }

    /** @return the serial schedule's average wall time per unit of work, NaN before a sample. */
    double serialNsPerWork()
    {
        return serialNsPerWork;
    }

    /** @return the graph's average wall time per unit of work, NaN before a sample. */
    double graphNsPerWork()
    {
        return graphNsPerWork;
    }
}
