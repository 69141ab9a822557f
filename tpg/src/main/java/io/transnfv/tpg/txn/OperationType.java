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
    DEFER,
    /**
     * Reads the target's committed value as of the batch start (a chain's {@code consistency:
     * {stale-reads: <bound>}}): it sees none of the batch's updates of its key and takes no part
     * in the graph. Every transactional access to its table must be a STALE_READ, a
     * {@link #STALE_CHOOSE} or an {@link #ADD}, so that the table's committed values do not change
     * until the batch commits. Applied one transaction at a time (the serial oracle) it reads the
     * current value.
     */
    STALE_READ,
    /**
     * Picks one of several candidate keys by their committed values as of the batch start, as a
     * {@link #STALE_READ} reads them, then adds to the picked one a delta computed as an
     * {@link #ADD}'s is (its function is given 0); the delta reaches the state when the batch
     * commits. Takes no part in the graph. Its result is {@code before} 0, {@code after} the
     * delta, {@code chosen} the pick.
     */
    STALE_CHOOSE;

    /**
     * @param type an operation type's ordinal.
     * @return true if operations of that type pick among candidates ({@link #CHOOSE},
     *         {@link #STALE_CHOOSE}).
     */
    public static boolean picksCandidate(final int type)
    {
        return type == CHOOSE.ordinal() || type == STALE_CHOOSE.ordinal();
    }

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
