package io.transnfv.tpg.txn;

/**
 * A transaction's outcome as post-processing sees it. Valid until the log it comes from
 * is cleared; read by the thread that post-processes the packet.
 */
public interface TransactionView
{
    /**
     * {@link #abortReason()} of a transaction aborted because one of its functions threw: the
     * VNF's code failed, not its logic. Post-processing never sees it; the packet is dropped
     * as a VNF error instead.
     */
    int FAULT = Integer.MIN_VALUE;

    /**
     * {@link #abortReason()} of a transaction aborted because it would have created an entry in a
     * table that was full at the last capacity check ({@link AdmissionGate}). Post-processing
     * never sees it; the packet is dropped as {@code <vnf>:state-full} instead.
     */
    int STATE_FULL = Integer.MIN_VALUE + 1;

    /** @return true if the transaction aborted: none of its operations took effect. */
    boolean aborted();

    /** @return the reason given to {@link FunctionContext#abort(int)}, or 0 if committed. */
    int abortReason();

    /** @return the number of operations declared. */
    int operationCount();

    /** @return operation {@code operation}'s target value before it ran. */
    long before(int operation);

    /** @return operation {@code operation}'s target value after it ran (READ: the value read). */
    long after(int operation);

    /** @return the candidate a CHOOSE operation picked, or {@link ChooseFunction#NONE}. */
    int chosen(int operation);

    /** @return the value stored with {@link TransactionBuilder#scratch(int, long)}, or 0. */
    long scratch(int slot);

    /** @return the transaction's timestamp. */
    long timestampNs();
}
