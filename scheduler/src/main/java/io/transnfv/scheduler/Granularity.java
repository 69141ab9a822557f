package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;

/**
 * What an executor takes from the frontier as one unit of work: the second scheduling
 * dimension. A unit's operations run in serial order on one executor.
 */
public interface Granularity
{
    /**
     * Groups the sealed graph's operations into units.
     *
     * @param graph            a sealed graph.
     * @param unitOfOperation  receives, for every operation, the unit it belongs to; at least
     *                         {@code graph.operationCount()} long.
     * @return the number of units.
     */
    int partition(TaskPrecedenceGraph graph, int[] unitOfOperation);
}
