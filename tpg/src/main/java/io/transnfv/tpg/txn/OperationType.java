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
    ADD,
    /**
     * Replaces the target's value by a function of it, of the packet and of its transaction's
     * earlier results, as a {@link #READ_MODIFY} does, but nobody waits for it (a chain's
     * {@code consistency: fire-and-forget}): its result is {@code before} 0, {@code after} 0
     * wherever it runs, it takes no part in the graph, and the updates of the transactions that
     * commit are applied in serial order by the end of the batch. A function that aborts or
     * throws drops the update only; its transaction goes on. Every transactional access to the
     * target's table must be a DEFER, so that no read inside a batch could tell when the updates
     * were applied; housekeeping, checks and dumps, between batches, see the serial-order value.
     */
    DEFER;

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
