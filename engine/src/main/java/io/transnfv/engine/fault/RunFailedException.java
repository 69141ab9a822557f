package io.transnfv.engine.fault;

/**
 * A run that could not go on, for a reason its message tells the user: a function past the
 * batch deadline, an engine thread that died. Not a bug report: the command prints the message
 * without a stack trace and exits with status 1.
 */
public final class RunFailedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened, and a {@code fix:} line.
     * @param cause   what was thrown, if anything.
     */
    public RunFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * @param where what the {@link Watchdog} saw running past the batch deadline.
     * @return the failure of a run stuck there, with what to do about it.
     */
    public static RunFailedException stuck(final String where)
    {
        return new RunFailedException("stuck: " + where + "; fix: a VNF function must return (look for a loop that"
            + " never ends), or raise the batch deadline (settings.faults.batch_deadline, --batch-deadline)", null);
    }
}
