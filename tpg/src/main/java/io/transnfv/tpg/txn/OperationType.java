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
    CHOOSE,
    /**
     * Adds to the target a delta computed from its own transaction (its operand, packet time,
     * earlier operations' results), never from the target's value: adds to one key commute, so
     * the graph does not order them. The target takes no part in the graph; the deltas of the
     * transactions that commit reach the state by the end of the batch. Every transactional
     * access to the target's table must be an ADD (a chain's {@code consistency: commutative}), so that no
     * read inside a batch could tell the order of the adds; housekeeping, checks and dumps,
     * between batches, see the serial-order sum.
     */
    ADD;

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
