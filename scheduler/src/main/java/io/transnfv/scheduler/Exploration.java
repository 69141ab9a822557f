package io.transnfv.scheduler;

/**
 * In which order executors explore ready operations: the first scheduling dimension. An
 * implementation is an immutable strategy that creates the frontier executors share.
 */
public interface Exploration
{
    /**
     * @param executors the number of executor threads that will share the frontier.
     * @return a new, empty frontier; allocated once per executor pool, reused per batch.
     */
    ReadyFrontier newFrontier(int executors);
}
