package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;

/**
 * What an executor takes from a deque as one unit of work: the second scheduling dimension.
 * A unit's operations run in serial order on one executor; when it reaches an operation whose
 * dependencies are not resolved it parks there and is resumed by the executor that resolves
 * the last one (see {@link io.transnfv.tpg.graph.OperationStateMachine}), so units never wait
 * for each other and dependency cycles among units cannot deadlock. Immutable.
 */
public interface Granularity
{
    /**
     * Groups the sealed graph's scheduled operations (those of dependent transactions) into
     * units.
     *
     * @param graph a sealed graph.
     * @param units receives the layout; reset by this call.
     */
    void partition(TaskPrecedenceGraph graph, WorkUnits units);

    /**
     * @return true if every operation is a unit of its own: then every operation heads a unit
     *         and {@link #partition} lays nothing out.
     */
    boolean oneOperationPerUnit();

    /** @return the short name used in policy names ({@code op}, {@code group}). */
    String shortName();

    /** @return a dense id (0, 1) used to index the policy space. */
    int id();
}
