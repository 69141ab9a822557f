package io.transnfv.engine.thread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A step of a batch that any number of workers may work on at once (up to a bound), and that
 * one worker closes. A worker {@linkplain #tryEnter enters}, {@linkplain #work works} until
 * nothing is left to claim, and {@linkplain #leave leaves}; the last worker to leave once the
 * phase {@linkplain #isComplete is complete} closes it and runs the {@link Transition} to the
 * next phase on its own thread. Nobody waits at a barrier for a worker that is busy elsewhere
 * (reading packets, say): a phase completes when its work is done, not when every worker has
 * passed.
 *
 * <pre>
 *  gate (one int):  bit 30 closed | bit 29 pending | workers inside
 *   open      pending: armed, not yet enterable
 *   release   pending cleared by the publisher, once the phase is the group's current one
 *   tryEnter  inside + 1, unless closed, pending or full
 *   leave     inside - 1; the leaver that brings it to 0 when the work is complete sets the
 *             closed bit in the same compare-and-set, and runs the transition
 * </pre>
 *
 * <p>Because entering and closing go through the one gate word, a worker can never enter a
 * phase that another worker has closed and is transitioning away from, and whatever the
 * workers did inside happens-before the transition. Instances are reused batch after batch:
 * {@link #open} re-arms one. A re-armed phase stays pending until {@link WorkerGroup#publish}
 * has made it current: a worker still holding the same object from an earlier round could
 * otherwise enter it, finish it and publish its successor before the publisher's write of
 * the group's current phase, which would then replace that successor with a closed phase.
 */
public abstract class Phase
{
    /** What follows a phase: its next phase, or null. Runs on the worker that closed it. */
    @FunctionalInterface
    public interface Transition
    {
        /**
         * @param worker the worker that closed the phase.
         * @return the phase to open next, already opened, or null if the job has none now.
         */
        Phase next(int worker);
    }

    private static final int CLOSED = 1 << 30;
    private static final int PENDING = 1 << 29;
    private static final VarHandle GATE;

    static
    {
        try
        {
            GATE = MethodHandles.lookup().findVarHandle(Phase.class, "gate", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final TimeCategory category;
    private volatile int gate = CLOSED;
    private int maxWorkers;
    private Transition transition;

    /** @param category where the time workers spend in this phase is counted. */
    protected Phase(final TimeCategory category)
    {
        this.category = category;
    }

    /** @return where the time spent working in this phase is counted. */
    public final TimeCategory category()
    {
        return category;
    }

    /**
     * Re-arms the phase. Called by one thread before it publishes the phase to workers.
     *
     * @param maxWorkers most workers inside at once (1 for work that must stay on one thread).
     * @param then       what follows the phase.
     * @return this phase.
     */
    public final Phase open(final int maxWorkers, final Transition then)
    {
        if (maxWorkers < 1)
        {
            throw new IllegalArgumentException("maxWorkers must be >= 1: " + maxWorkers);
        }
        this.maxWorkers = maxWorkers;
        this.transition = then;
        opened(maxWorkers);
        GATE.setRelease(this, PENDING);
        return this;
    }

    /** Lets workers in: called by the publisher once the phase is the group's current one. */
    final void release()
    {
        GATE.compareAndSet(this, PENDING, 0);
    }

    /**
     * Called by {@link #open} before the phase is published: a subclass re-arms what depends
     * on how many workers may come in.
     */
    protected void opened(final int maxWorkers)
    {
    }

    /**
     * @return true if the caller is now inside and must call {@link #work} then {@link #leave};
     *         false if the phase is closed, full, or has nothing left to claim (entering then would
     *         only keep the workers still inside from closing it).
     */
    final boolean tryEnter()
    {
        if (!hasClaimableWork())
        {
            return false;
        }
        while (true)
        {
            final int g = gate;
            if (g >= maxWorkers || (g & (CLOSED | PENDING)) != 0)
            {
                return false;
            }
            if (GATE.compareAndSet(this, g, g + 1))
            {
                return true;
            }
        }
    }

    @Override
    public String toString()
    {
        final int g = gate;
        return getClass().getSimpleName() + "{" + category + ", inside=" + (g & ~(CLOSED | PENDING))
            + ((g & CLOSED) != 0 ? ", closed" : "") + ((g & PENDING) != 0 ? ", pending" : "")
            + ", max=" + maxWorkers + ", claimable=" + hasClaimableWork() + ", complete=" + isComplete() + "}";
    }

    /**
     * Closes a phase that is about to be published and has nothing to do (no tasks, say).
     *
     * @return its transition if the caller closed it, else null.
     */
    final Transition closeIfEmpty()
    {
        if (gate == PENDING && !hasClaimableWork() && isComplete() && GATE.compareAndSet(this, PENDING, CLOSED))
        {
            return transition;
        }
        return null;
    }

    /**
     * @return the transition to run if the caller closed the phase (it was the last inside and
     *         the work is complete), else null.
     */
    final Transition leave()
    {
        while (true)
        {
            final int g = gate;
            final int inside = g - 1;
            if (inside == 0 && isComplete())
            {
                if (GATE.compareAndSet(this, g, CLOSED))
                {
                    return transition;
                }
            }
            else if (GATE.compareAndSet(this, g, inside))
            {
                return null;
            }
        }
    }

    /**
     * Claims and runs work until none is left to claim now, then returns. Called by any number
     * of workers at once.
     *
     * @param worker the calling worker's index.
     * @return true if it did any work (false: the caller idles before trying again).
     */
    protected abstract boolean work(int worker);

    /**
     * @return true once every piece of work is done; called only by a worker leaving when
     *         nobody else is inside, so work claimed by workers that have left is done.
     */
    protected abstract boolean isComplete();

    /**
     * @return true if work may be claimable now: a hint, read before entering and before
     *         parking. Work already claimed is finished by the workers inside, the last of whom
     *         closes the phase; work that appears later (released by a worker inside) comes with
     *         a wake-up ({@link WorkerGroup#wakeOne()}).
     */
    protected abstract boolean hasClaimableWork();

    /** @return true if the phase is open and may have work to claim now (for idle workers). */
    final boolean offersWork()
    {
        return (gate & (CLOSED | PENDING)) == 0 && hasClaimableWork();
    }
}
