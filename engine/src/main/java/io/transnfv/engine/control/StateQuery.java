package io.transnfv.engine.control;

import io.transnfv.vnf.api.StateReader;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One committed-state lookup asked from outside the engine's threads ({@link CommandQueue}):
 * the value of a key in a table, read where no batch is in flight, so it is the state after a
 * whole number of batches. Created by the asker; answered exactly once, by the engine at a batch
 * boundary or, once the run has ended, by whoever looks first at the final state.
 */
public final class StateQuery
{
    private static final int WAITING = 0;
    private static final int ANSWERING = 1;
    private static final int ANSWERED = 2;

    private final int table;
    private final long key;
    private final AtomicInteger state = new AtomicInteger(WAITING);
    private long value;
    private long packetsBefore;

    /**
     * @param table the table's index in the chain's catalogue.
     * @param key   the key.
     */
    public StateQuery(final int table, final long key)
    {
        this.table = table;
        this.key = key;
    }

    /**
     * Answers from {@code committed}, unless someone already did.
     *
     * @param committed     the committed state, with no batch in flight.
     * @param packetsBefore packets of the traffic whose transactions that state holds.
     */
    void answer(final StateReader committed, final long packetsBefore)
    {
        if (state.compareAndSet(WAITING, ANSWERING))
        {
            value = committed.get(table, key);
            this.packetsBefore = packetsBefore;
            state.set(ANSWERED);
        }
    }

    /** @return true once answered; then {@link #value()} and the rest may be read from any thread. */
    public boolean answered()
    {
        return state.get() == ANSWERED;
    }

    /** @return the committed value (the table's initial value when the key has no entry). */
    public long value()
    {
        return value;
    }

    /** @return packets of the traffic read into the state answered from (a batch boundary), or -1 once the run has ended. */
    public long packetsBefore()
    {
        return packetsBefore;
    }
}
