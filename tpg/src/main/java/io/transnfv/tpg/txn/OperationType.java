package io.transnfv.tpg.txn;

/**
 * The kinds of state access an operation performs on its target.
 *
 * <p>{@link #CHOOSE} targets one key picked at run time among declared candidates (the
 * load balancer's least-loaded of d servers). For dependency purposes it reads and may
 * write every candidate.
 */
public enum OperationType
{
    /** Reads the target's value. */
    READ,
    /** Writes a constant value, known when the transaction was declared. */
    WRITE,
    /** Replaces the target's value by a function of it, of parameter keys and of the packet. */
    READ_MODIFY,
    /** Picks one of several candidate keys by their values, then modifies the picked one. */
    CHOOSE;

    private static final OperationType[] VALUES = values();

    /**
     * @param ordinal an ordinal as stored in a {@link TransactionLog}.
     * @return the type with that ordinal.
     */
    public static OperationType fromOrdinal(final int ordinal)
    {
        return VALUES[ordinal];
    }
}
