package io.transnfv.engine.control;

/**
 * A run's stop request: any thread may ask the run to stop; the thread that reads the source
 * sees it between two packets, ends the input there, and the run finishes what it has read as
 * it would at the end of the traffic. The first request wins; later ones are ignored. One per
 * executor.
 */
public final class RunControl
{
    /** Why a run was asked to stop. */
    public enum StopCause
    {
        /** Not asked to stop. */
        NONE(0),
        /** SIGINT (Ctrl-C): exit status 130. */
        INTERRUPT(130),
        /** SIGTERM: exit status 143. */
        TERMINATE(143),
        /** Faulted packets over the error bound: the run failed, exit status 1. */
        ERROR_BOUND(1);

        private final int exitStatus;

        StopCause(final int exitStatus)
        {
            this.exitStatus = exitStatus;
        }

        /** @return the command's exit status for a run that stopped for this cause. */
        public int exitStatus()
        {
            return exitStatus;
        }
    }

    private volatile StopCause cause = StopCause.NONE;
    private volatile String message;

    /** @return true once a stop was requested: read once per packet or batch by the source's reader. */
    public boolean stopRequested()
    {
        return cause != StopCause.NONE;
    }

    /**
     * Asks the run to stop reading and finish what it read.
     *
     * @param why     the cause.
     * @param because what to tell the user.
     * @return true if this was the first request.
     */
    public synchronized boolean requestStop(final StopCause why, final String because)
    {
        if (why == StopCause.NONE)
        {
            throw new IllegalArgumentException("a stop needs a cause");
        }
        if (cause != StopCause.NONE)
        {
            return false;
        }
        message = because;
        cause = why;
        return true;
    }

    /** @return why the run was asked to stop, {@link StopCause#NONE} if it was not. */
    public StopCause stopCause()
    {
        return cause;
    }

    /** @return what the stop request said, or null. */
    public String message()
    {
        return message;
    }
}
