package io.transnfv.tpg.txn;

/**
 * How pre-processing declares one transaction. Each method appends an operation in
 * statement order and returns its index within the transaction, which post-processing
 * and later operations use to find its result. Not thread-safe: one declaring thread.
 */
public interface TransactionBuilder
{
    /** @return the timestamp of the transaction being declared (packet time). */
    long timestampNs();

    /**
     * Declares a read of {@code (table, key)}.
     *
     * @return the operation's index in this transaction.
     */
    int read(int table, long key);

    /**
     * Declares a write of a constant. Writing the table's initial value deletes the entry.
     *
     * @return the operation's index in this transaction.
     */
    int write(int table, long key, long value);

    /**
     * Declares a read-modify-write; add parameter keys with {@link #param(int, long)}.
     *
     * @param operand a constant handed to {@code fn} through {@link FunctionContext#operand()}.
     * @return the operation's index in this transaction.
     */
    int readModify(int table, long key, StateFunction fn, long operand);

    /**
     * Declares an operation whose target is picked at run time among candidates of
     * {@code table}, added with {@link #candidate(long)}; {@code update} computes the picked
     * candidate's new value.
     *
     * @return the operation's index in this transaction.
     */
    int choose(int table, ChooseFunction chooser, StateFunction update, long operand);

    /**
     * Declares an {@link OperationType#ADD}: {@code delta} is called with 0 as the current value
     * and returns what to add to {@code (table, key)}; it may read its transaction's earlier
     * results, never the target's value. Its result is {@code before} 0, {@code after} the delta.
     * Only for tables whose every transactional access is an ADD. In a table closed by a capacity
     * check, a non-zero delta to a key absent at that check aborts the transaction with
     * {@link TransactionView#STATE_FULL} ({@link AdmissionGate#admitsAdd}); adds to present keys go on.
     *
     * @param operand a constant handed to {@code delta} through {@link FunctionContext#operand()}.
     * @return the operation's index in this transaction.
     */
    int add(int table, long key, StateFunction delta, long operand);

    /**
     * Declares an {@link OperationType#DEFER}, a fire-and-forget update: {@code fn} replaces the
     * value of {@code (table, key)} as a {@link #readModify} would, but the transaction does not
     * wait for it. Its result is {@code before} 0, {@code after} 0 (nothing in the transaction
     * can read the new value); if {@code fn} aborts or throws, or its new entry is refused by a
     * closed table, the update is dropped and the transaction goes on. Only for tables whose every transactional access is a DEFER.
     *
     * @param operand a constant handed to {@code fn} through {@link FunctionContext#operand()}.
     * @return the operation's index in this transaction.
     */
    int defer(int table, long key, StateFunction fn, long operand);

    /**
     * Declares an {@link OperationType#STALE_READ}: the committed value of {@code (table, key)}
     * as of the batch start. Only for tables whose every transactional access is a STALE_READ,
     * a {@link #staleChoose} or an {@link #add} (a chain's {@code consistency: {stale-reads: n}}).
     *
     * @return the operation's index in this transaction.
     */
    int staleRead(int table, long key);

    /**
     * Declares an {@link OperationType#STALE_CHOOSE}: {@code chooser} picks among the candidates
     * added with {@link #candidate(long)} by their committed values as of the batch start;
     * {@code delta}, called with 0, returns what to add to the picked one, which reaches it when
     * the batch commits. Only for tables whose every transactional access is a STALE_READ, a
     * STALE_CHOOSE or an ADD.
     *
     * @return the operation's index in this transaction.
     */
    int staleChoose(int table, ChooseFunction chooser, StateFunction delta, long operand);

    /**
     * Adds a parameter key to the last declared {@link #readModify} operation: its value is
     * readable by the function and creates a parametric dependency.
     */
    void param(int table, long key);

    /** Adds a candidate key to the last declared {@link #choose} operation. */
    void candidate(long key);

    /**
     * Stores a value for post-processing to read back ({@link TransactionView#scratch(int)}).
     *
     * @param slot 0 to {@link TransactionLog#SCRATCH_SLOTS} - 1.
     */
    void scratch(int slot, long value);
}
