package io.transnfv.engine.control;

import io.transnfv.vnf.api.StateReader;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A read of committed state asked from outside the engine's threads ({@link CommandQueue}),
 * answered where no batch is in flight, so what it reads is the state after a whole number of
 * batches. Created by the asker; answered exactly once, by the engine at a batch boundary or,
 * once the run has ended, by whoever looks first at the final state. What is read is the
 * subclass's {@link #read}; its results may be read from any thread once {@link #answered()}.
 */
public abstract class StateCommand
{
    private static final int WAITING = 0;
    private static final int ANSWERING = 1;
    private static final int ANSWERED = 2;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private long packetsBefore;

    /**
     * Answers from {@code committed}, unless someone already did.
     *
     * @param committed     the committed state, with no batch in flight.
     * @param packetsBefore packets of the traffic whose transactions that state holds.
     */
    final void answer(final StateReader committed, final long packetsBefore)
    {
        if (state.compareAndSet(WAITING, ANSWERING))
        {
            read(committed);
            this.packetsBefore = packetsBefore;
            state.set(ANSWERED);
        }
    }

    /**
     * Reads what was asked; called once, on the engine's thread between two batches (or on the
     * final state), so it must be short: it holds up the data path while it runs.
     */
    protected abstract void read(StateReader committed);

    /** @return true once answered; then the results may be read from any thread. */
    public final boolean answered()
    {
        return state.get() == ANSWERED;
    }

    /** @return packets of the traffic read into the state answered from (a batch boundary), or -1 once the run has ended. */
    public final long packetsBefore()
    {
        return packetsBefore;
    }
}
