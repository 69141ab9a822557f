package io.transnfv.engine.state.store;

/**
 * A state store failed: it could not be opened, or it stopped answering (a lost Redis
 * connection, a Chronicle Map past its size). The message says which store, which table and
 * what to do; the run stops, so state never silently differs from what the store holds.
 */
public final class StateStoreException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** @param message what failed and, on a {@code fix:} line, what to do. */
    public StateStoreException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /** @param message what failed and, on a {@code fix:} line, what to do. */
    public StateStoreException(final String message)
    {
        super(message);
    }
}
