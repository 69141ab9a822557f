package io.transnfv.engine.control;

import io.transnfv.vnf.api.StateReader;
import org.jctools.queues.MpscArrayQueue;

/**
 * Commands from outside the engine's threads (the HTTP control plane's state lookups) on their
 * way to the engine: any thread offers, the engine drains where no batch is in flight.
 *
 * <pre>
 *  askers (any thread) ──offer──► MpscArrayQueue ──drain──► engine, between two batches
 *                                 (JCTools, lock-free)      (a batch's start, or the IO role
 *                                                            while the engine is idle)
 *  after the run: close(final state) ──► every query, queued or late, answered from it
 * </pre>
 *
 * <p>The data path pays one read of the queue's indices per batch when nothing is queued.
 */
public final class CommandQueue
{
    /** Queries waiting at once, beyond which {@link #offer} refuses (the asker says: busy, try again). */
    public static final int CAPACITY = 64;

    private final MpscArrayQueue<StateCommand> queries = new MpscArrayQueue<>(CAPACITY);
    private volatile StateReader finalState;

    /**
     * Queues {@code query}; any thread.
     *
     * @return false if the queue is full.
     */
    public boolean offer(final StateCommand query)
    {
        final StateReader ended = finalState;
        if (ended != null)
        {
            query.answer(ended, -1);
            return true;
        }
        return queries.offer(query);
    }

    /** @return true if a query waits: the engine's cheap check before it drains. */
    public boolean pending()
    {
        return !queries.isEmpty();
    }

    /**
     * Engine only, with no batch in flight: answers every queued query from the committed state.
     *
     * @param committed     the committed state.
     * @param packetsBefore packets of the traffic that state holds.
     */
    public void drain(final StateReader committed, final long packetsBefore)
    {
        StateCommand query;
        while ((query = queries.relaxedPoll()) != null)
        {
            query.answer(committed, packetsBefore);
        }
    }

    /**
     * The run has ended and its threads are done: answers what is queued from the final state,
     * and every later query at once. Called by the run's own thread, after the engine's.
     */
    public void close(final StateReader committed)
    {
        finalState = committed;
        drain(committed, -1);
    }

    /**
     * Answers {@code query} from the final state if the run has ended (a query offered while the
     * run was ending may have missed the last drain); any thread.
     */
    public void answerIfEnded(final StateCommand query)
    {
        final StateReader ended = finalState;
        if (ended != null)
        {
            query.answer(ended, -1);
        }
    }
}
