package io.transnfv.scheduler;

/**
 * The operations that are READY and not yet taken by an executor. Each operation is offered
 * at most once per batch, so a frontier sized with {@link #reset(int)} never overflows.
 * {@link #reset(int)} is called by the coordinating thread between batches; {@link #offer}
 * and {@link #poll} by any executor thread concurrently, lock-free.
 */
public interface ReadyFrontier
{
    /** Returned by {@link #poll(int)} when nothing is ready right now. */
    int EMPTY = -1;

    /** Empties the frontier and sizes it for {@code capacity} offers in the coming batch. */
    void reset(int capacity);

    /**
     * Makes {@code unit} available.
     *
     * @param executor the offering executor's index (0 .. executors - 1).
     */
    void offer(int executor, int unit);

    /**
     * @param executor the polling executor's index.
     * @return a ready unit, or {@link #EMPTY}.
     */
    int poll(int executor);
}
