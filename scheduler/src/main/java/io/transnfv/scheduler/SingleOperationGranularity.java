package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;

/** Every operation is its own unit: the finest granularity, the most scheduling overhead. */
public final class SingleOperationGranularity implements Granularity
{
    @Override
    public int partition(final TaskPrecedenceGraph graph, final int[] unitOfOperation)
    {
        final int n = graph.operationCount();
        for (int o = 0; o < n; o++)
        {
            unitOfOperation[o] = o;
        }
        return n;
    }

    @Override
    public String toString()
    {
        return "single-operation";
    }
}
