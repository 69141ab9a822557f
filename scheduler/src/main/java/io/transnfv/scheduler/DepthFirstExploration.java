package io.transnfv.scheduler;

/**
 * Structured depth-first exploration: each executor takes the unit it made ready last (LIFO),
 * so a dependent runs right after the operation that released it, on the same thread, while
 * the values it reads are still in cache; an idle executor steals the oldest unit of its
 * neighbours (the root of the largest remaining subgraph).
 */
public final class DepthFirstExploration implements Exploration
{
    @Override
    public int poll(final ReadyDeques deques, final int e)
    {
        final int own = deques.takeBottom(e);
        if (own != ReadyDeques.EMPTY)
        {
            return own;
        }
        return Exploration.stealSweep(deques, e, e + 1);
    }

    @Override
    public String shortName()
    {
        return "dfs";
    }

    @Override
    public int id()
    {
        return 1;
    }

    @Override
    public String toString()
    {
        return "depth-first";
    }
}
