package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;

/**
 * Every operation is its own unit: the finest granularity, the most parallelism and the most
 * hand-overs (every operation made ready goes through a deque).
 */
public final class SingleOperationGranularity implements Granularity
{
    @Override
    public void partition(final TaskPrecedenceGraph graph, final WorkUnits units)
    {
        units.singleOperations(graph.operationCount());
    }

    @Override
    public boolean oneOperationPerUnit()
    {
        return true;
    }

    @Override
    public String shortName()
    {
        return "op";
    }

    @Override
    public int id()
    {
        return 0;
    }

    @Override
    public String toString()
    {
        return "single-operation";
    }
}
