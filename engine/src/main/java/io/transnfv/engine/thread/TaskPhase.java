package io.transnfv.engine.thread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A phase of {@code tasks} independent tasks numbered from 0, each claimed by exactly one
 * worker. Tasks have a home: with {@code n} workers allowed in, task {@code t} belongs to
 * worker {@code t mod n}, which claims its own tasks first and then helps with the others'.
 * The same task number (a key shard, a chunk of transactions) so lands on the same worker
 * batch after batch and phase after phase, and its data stays in that core's cache, while a
 * worker that is late or busy elsewhere still gets its tasks done by the others. Complete once
 * every task is claimed (a claimed task is done by the time its worker leaves).
 *
 * <pre>
 *  3 workers, 8 tasks:   home 0: 0 3 6   home 1: 1 4 7   home 2: 2 5
 *  worker w claims from home w, then from w + 1, w + 2, ... (one cursor per home)
 * </pre>
 */
public final class TaskPhase extends Phase
{
    /** The work of one task. */
    @FunctionalInterface
    public interface Body
    {
        /**
         * @param task   the task's number.
         * @param worker the worker running it.
         */
        void run(int task, int worker);
    }

    private static final VarHandle UNCLAIMED;
    private static final VarHandle CURSORS = MethodHandles.arrayElementVarHandle(int[].class);
    /** Ints between two homes' cursors: two cache lines. */
    private static final int PAD = 32;

    static
    {
        try
        {
            UNCLAIMED = MethodHandles.lookup().findVarHandle(TaskPhase.class, "unclaimed", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Body body;
    private volatile int unclaimed;
    private int tasks;
    private int homes = 1;
    private int[] cursors = new int[2 * PAD];

    /**
     * @param category where the time is counted.
     * @param body     runs one task.
     */
    public TaskPhase(final TimeCategory category, final Body body)
    {
        super(category);
        this.body = body;
    }

    /**
     * Re-arms the phase with {@code tasks} tasks; then {@link #open} it.
     *
     * @return this phase.
     */
    public TaskPhase tasks(final int tasks)
    {
        this.tasks = tasks;
        UNCLAIMED.setRelease(this, tasks);
        return this;
    }

    @Override
    protected void opened(final int maxWorkers)
    {
        homes = maxWorkers;
        if (cursors.length < (maxWorkers + 1) * PAD)
        {
            cursors = new int[(maxWorkers + 1) * PAD];
        }
        for (int h = 0; h < maxWorkers; h++)
        {
            CURSORS.setRelease(cursors, (h + 1) * PAD, 0);
        }
    }

    /** @return the number of tasks of the current round. */
    public int taskCount()
    {
        return tasks;
    }

    @Override
    protected boolean work(final int worker)
    {
        final int homes = this.homes;
        final int own = worker % homes;
        boolean did = false;
        for (int i = 0; i < homes; i++)
        {
            final int home = own + i < homes ? own + i : own + i - homes;
            while (true)
            {
                final int t = claim(home, homes);
                if (t < 0)
                {
                    break;
                }
                body.run(t, worker);
                did = true;
            }
            if (unclaimed <= 0)
            {
                break;
            }
        }
        return did;
    }

    /** @return the next unclaimed task of {@code home}, or -1. */
    private int claim(final int home, final int homes)
    {
        final int index = (home + 1) * PAD;
        if (home + (int)CURSORS.getOpaque(cursors, index) * homes >= tasks)
        {
            return -1;
        }
        final int t = home + (int)CURSORS.getAndAdd(cursors, index, 1) * homes;
        if (t >= tasks)
        {
            return -1;
        }
        UNCLAIMED.getAndAdd(this, -1);
        return t;
    }

    @Override
    protected boolean isComplete()
    {
        return unclaimed <= 0;
    }

    @Override
    protected boolean hasClaimableWork()
    {
        return unclaimed > 0;
    }
}
