package io.transnfv.scheduler;

/**
 * Structured breadth-first exploration: each executor takes its oldest ready unit first
 * (FIFO), so the graph is executed front by front (units made ready earlier run before the
 * units they enable) without a global barrier between levels; an idle executor steals the
 * oldest unit of its neighbours in round-robin order.
 */
public final class BreadthFirstExploration implements Exploration
{
    @Override
    public int poll(final ReadyDeques deques, final int e)
    {
        final int own = Exploration.takeOwnTop(deques, e);
        if (own != ReadyDeques.EMPTY)
        {
            return own;
        }
        return Exploration.stealSweep(deques, e, e + 1);
    }

    @Override
    public String shortName()
    {
        return "bfs";
    }

    @Override
    public int id()
    {
        return 0;
    }

    @Override
    public String toString()
    {
        return "breadth-first";
    }
}
