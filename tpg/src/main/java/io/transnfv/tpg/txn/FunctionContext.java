package io.transnfv.tpg.txn;

/**
 * What a {@link StateFunction} or {@link ChooseFunction} may look at while it runs.
 * Implemented by each executor; valid only during the call, on the calling thread.
 */
public interface FunctionContext
{
    /** @return the transaction's timestamp (packet time), which defines its order. */
    long timestampNs();

    /** @return the constant the operation was declared with (e.g. the packet's length). */
    long operand();

    /** @return the object the transaction was declared with (e.g. the packet's view). */
    Object attachment();

    /** @return how many parameter keys the operation declared. */
    int paramCount();

    /**
     * @param index the parameter's position in declaration order.
     * @return the parameter key's value at this operation's point in the serial order.
     */
    long param(int index);

    /** @return how many candidates a {@link OperationType#CHOOSE} operation declared. */
    int candidateCount();

    /**
     * @param index the candidate's position in declaration order.
     * @return that candidate's key.
     */
    long candidateKey(int index);

    /**
     * @param index the candidate's position in declaration order.
     * @return that candidate's value at this operation's point in the serial order.
     */
    long candidateValue(int index);

    /** @return while a CHOOSE's update function runs, the picked candidate's index. */
    int chosen();

    /**
     * @param operation an earlier operation of the same transaction (index within it).
     * @return its target's value before it ran.
     */
    long before(int operation);

    /**
     * @param operation an earlier operation of the same transaction (index within it).
     * @return its target's value after it ran.
     */
    long after(int operation);

    /**
     * @param operation an earlier operation of the same transaction (index within it).
     * @return the candidate an earlier CHOOSE picked, or {@link ChooseFunction#NONE}.
     */
    int chosenBy(int operation);

    /**
     * Aborts the whole transaction: none of its operations take effect.
     *
     * @param reason a positive, VNF-defined reason code reported to post-processing.
     */
    void abort(int reason);
}
