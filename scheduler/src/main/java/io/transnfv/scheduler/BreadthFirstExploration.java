package io.transnfv.scheduler;

/**
 * Structured breadth-first exploration: ready operations are taken in the order they became
 * ready, through one shared FIFO frontier, so the graph is executed front by front (every
 * operation of depth d is offered before any operation it enables) without a global
 * barrier between levels.
 */
public final class BreadthFirstExploration implements Exploration
{
    @Override
    public ReadyFrontier newFrontier(final int executors)
    {
        return new FifoReadyFrontier();
    }

    @Override
    public String toString()
    {
        return "breadth-first";
    }
}
