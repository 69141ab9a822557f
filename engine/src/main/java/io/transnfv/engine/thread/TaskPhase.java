package io.transnfv.engine.thread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A phase of {@code tasks} independent tasks numbered from 0, claimed one at a time with a
 * shared counter: whoever is inside takes the next one. Complete once every task is claimed
 * (a claimed task is done by the time its worker leaves).
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

    private static final VarHandle NEXT;

    static
    {
        try
        {
            NEXT = MethodHandles.lookup().findVarHandle(TaskPhase.class, "next", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Body body;
    private volatile int next;
    private int tasks;

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
        NEXT.setRelease(this, 0);
        return this;
    }

    /** @return the number of tasks of the current round. */
    public int taskCount()
    {
        return tasks;
    }

    @Override
    protected boolean work(final int worker)
    {
        final int tasks = this.tasks;
        boolean did = false;
        while (true)
        {
            final int t = (int)NEXT.getAndAdd(this, 1);
            if (t >= tasks)
            {
                return did;
            }
            body.run(t, worker);
            did = true;
        }
    }

    @Override
    protected boolean isComplete()
    {
        return next >= tasks;
    }

    @Override
    protected boolean hasClaimableWork()
    {
        return next < tasks;
    }
}
