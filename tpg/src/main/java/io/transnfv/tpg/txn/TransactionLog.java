package io.transnfv.tpg.txn;

import java.util.Arrays;

/**
 * The transactions of one batch in flat, structure-of-arrays form: what pre-processing
 * declares and where executors write results. Arrays grow by doubling while the first
 * batches warm up and are reused after {@link #clear()}, so steady state allocates nothing.
 *
 * <pre>
 *  transaction t ──► ops [firstOp(t), firstOp(t) + opCount(t))
 *  operation o   ──► type, table, key, operand, function, chooser,
 *                    extras [extraStart(o), extraStart(o) + extraCount(o))
 *                    (READ_MODIFY: parameter (table, key) pairs; CHOOSE: candidate keys)
 *                    results: before, after, chosen
 * </pre>
 *
 * <p>Written by one thread at a time: the declaring thread, then executors (each result
 * slot by the one executor that runs its operation), then post-processing. Handing a log
 * from one thread to the next must go through a happens-before edge (a queue, a barrier).
 */
public final class TransactionLog implements TransactionBuilder
{
    /** Number of scratch slots a transaction has for pre-processing to pass values on. */
    public static final int SCRATCH_SLOTS = 4;

    private static final int NO_TRANSACTION = -1;

    private int transactionCount;
    private long[] timestampNs;
    private long[] sequence;
    private int[] firstOp;
    private int[] opCount;
    private Object[] attachment;
    private int[] abortReason;
    private long[] scratch;

    private int operationCount;
    private byte[] type;
    private int[] transactionOf;
    private int[] table;
    private long[] key;
    private long[] operand;
    private StateFunction[] function;
    private ChooseFunction[] chooser;
    private int[] extraStart;
    private int[] extraCount;
    private long[] before;
    private long[] after;
    private int[] chosen;

    private int extraTotal;
    private int[] extraTable;
    private long[] extraKey;
    private int[] extraOperation;

    private int open = NO_TRANSACTION;
    private final Cursor cursor = new Cursor();

    /** Creates a log sized for small batches; it grows as needed. */
    public TransactionLog()
    {
        this(64, 256);
    }

    /**
     * @param transactionCapacity initial number of transactions.
     * @param operationCapacity   initial number of operations (and of extras).
     */
    public TransactionLog(final int transactionCapacity, final int operationCapacity)
    {
        final int txns = Math.max(1, transactionCapacity);
        final int ops = Math.max(1, operationCapacity);
        timestampNs = new long[txns];
        sequence = new long[txns];
        firstOp = new int[txns];
        opCount = new int[txns];
        attachment = new Object[txns];
        abortReason = new int[txns];
        scratch = new long[txns * SCRATCH_SLOTS];

        type = new byte[ops];
        transactionOf = new int[ops];
        table = new int[ops];
        key = new long[ops];
        operand = new long[ops];
        function = new StateFunction[ops];
        chooser = new ChooseFunction[ops];
        extraStart = new int[ops];
        extraCount = new int[ops];
        before = new long[ops];
        after = new long[ops];
        chosen = new int[ops];

        extraTable = new int[ops];
        extraKey = new long[ops];
        extraOperation = new int[ops];
    }

    /**
     * Opens a new transaction; the builder methods then add operations to it.
     *
     * @param timestampNs its timestamp, which defines its place in the serial order.
     * @param sequence    its arrival index, which breaks ties between equal timestamps.
     * @param attachment  an object functions and post-processing may read (the packet).
     * @return the transaction's index in this log.
     */
    public int begin(final long timestampNs, final long sequence, final Object attachment)
    {
        if (open != NO_TRANSACTION)
        {
            throw new IllegalStateException("transaction " + open + " is still open");
        }
        final int t = transactionCount;
        if (t == this.timestampNs.length)
        {
            growTransactions();
        }
        this.timestampNs[t] = timestampNs;
        this.sequence[t] = sequence;
        this.firstOp[t] = operationCount;
        this.opCount[t] = 0;
        this.attachment[t] = attachment;
        this.abortReason[t] = 0;
        final long[] scratch = this.scratch;
        final int s = t * SCRATCH_SLOTS;
        scratch[s] = 0L;
        scratch[s + 1] = 0L;
        scratch[s + 2] = 0L;
        scratch[s + 3] = 0L;
        transactionCount = t + 1;
        open = t;
        return t;
    }

    /** Closes the open transaction. */
    public void end()
    {
        if (open == NO_TRANSACTION)
        {
            throw new IllegalStateException("no open transaction");
        }
        requireCandidatesOfLast(open);
        open = NO_TRANSACTION;
    }

    /**
     * Forgets the open transaction and every operation it declared, as if {@link #begin} had
     * not been called: for a pre-processing that threw half-way through its declarations.
     * Does nothing if no transaction is open.
     */
    public void discardOpen()
    {
        final int t = open;
        if (t == NO_TRANSACTION)
        {
            return;
        }
        final int first = firstOp[t];
        if (first < operationCount)
        {
            extraTotal = extraStart[first];
        }
        operationCount = first;
        attachment[t] = null;
        transactionCount = t;
        open = NO_TRANSACTION;
    }

    /** Forgets every transaction; capacity is kept. */
    public void clear()
    {
        Arrays.fill(attachment, 0, transactionCount, null);
        transactionCount = 0;
        operationCount = 0;
        extraTotal = 0;
        open = NO_TRANSACTION;
    }

    @Override
    public long timestampNs()
    {
        return timestampNs[requireOpen()];
    }

    @Override
    public int read(final int table, final long key)
    {
        return append(OperationType.READ, table, key, 0L, null, null);
    }

    @Override
    public int write(final int table, final long key, final long value)
    {
        return append(OperationType.WRITE, table, key, value, null, null);
    }

    @Override
    public int readModify(final int table, final long key, final StateFunction fn, final long operand)
    {
        if (fn == null)
        {
            throw new NullPointerException("fn");
        }
        return append(OperationType.READ_MODIFY, table, key, operand, fn, null);
    }

    @Override
    public int add(final int table, final long key, final StateFunction delta, final long operand)
    {
        if (delta == null)
        {
            throw new NullPointerException("delta");
        }
        return append(OperationType.ADD, table, key, operand, delta, null);
    }

    @Override
    public int staleRead(final int table, final long key)
    {
        return append(OperationType.STALE_READ, table, key, 0L, null, null);
    }

    @Override
    public int staleChoose(final int table, final ChooseFunction chooser, final StateFunction delta, final long operand)
    {
        if (chooser == null || delta == null)
        {
            throw new NullPointerException(chooser == null ? "chooser" : "delta");
        }
        return append(OperationType.STALE_CHOOSE, table, 0L, operand, delta, chooser);
    }

    @Override
    public int defer(final int table, final long key, final StateFunction fn, final long operand)
    {
        if (fn == null)
        {
            throw new NullPointerException("fn");
        }
        return append(OperationType.DEFER, table, key, operand, fn, null);
    }

    @Override
    public int choose(final int table, final ChooseFunction chooser, final StateFunction update, final long operand)
    {
        if (chooser == null || update == null)
        {
            throw new NullPointerException(chooser == null ? "chooser" : "update");
        }
        return append(OperationType.CHOOSE, table, 0L, operand, update, chooser);
    }

    @Override
    public void param(final int table, final long key)
    {
        addExtra(OperationType.READ_MODIFY, table, key);
    }

    @Override
    public void candidate(final long key)
    {
        final int last = lastOperationOfOpen(OperationType.CHOOSE);
        addExtra(OperationType.CHOOSE, table[last], key);
    }

    @Override
    public void scratch(final int slot, final long value)
    {
        if (slot < 0 || slot >= SCRATCH_SLOTS)
        {
            throw new IndexOutOfBoundsException("scratch slot " + slot + " not in [0, " + SCRATCH_SLOTS + ")");
        }
        scratch[requireOpen() * SCRATCH_SLOTS + slot] = value;
    }

    // ---------------------------------------------------------------- gathering chunk logs

    /**
     * Sizes this log to receive, through {@link #gather}, {@code transactions} transactions with
     * {@code operations} operations and {@code extras} extras in all, forgetting what it held.
     * Called by one thread; the {@link #gather} calls that follow may run on several threads at
     * once, each into its own range, once this call is ordered before them.
     */
    public void prepareGather(final int transactions, final int operations, final int extras)
    {
        clear();
        while (timestampNs.length < transactions)
        {
            growTransactions();
        }
        while (type.length < operations)
        {
            growOperations();
        }
        if (extraKey.length < extras)
        {
            final int n = Integer.highestOneBit(Math.max(1, extras - 1)) << 1;
            extraKey = Arrays.copyOf(extraKey, n);
            extraTable = Arrays.copyOf(extraTable, n);
            extraOperation = Arrays.copyOf(extraOperation, n);
        }
        transactionCount = transactions;
        operationCount = operations;
        extraTotal = extras;
    }

    /**
     * Copies every transaction of {@code src} (all ended) into this log from transaction
     * {@code transactionBase}, operation {@code operationBase} and extra {@code extraBase} on,
     * inside the room {@link #prepareGather} made. Results are not copied: the executor writes
     * them. Several threads may gather into disjoint ranges at once.
     */
    public void gather(final TransactionLog src, final int transactionBase, final int operationBase, final int extraBase)
    {
        final int txns = src.transactionCount;
        final int ops = src.operationCount;
        final int extras = src.extraTotal;
        System.arraycopy(src.timestampNs, 0, timestampNs, transactionBase, txns);
        System.arraycopy(src.sequence, 0, sequence, transactionBase, txns);
        System.arraycopy(src.opCount, 0, opCount, transactionBase, txns);
        System.arraycopy(src.attachment, 0, attachment, transactionBase, txns);
        System.arraycopy(src.scratch, 0, scratch, transactionBase * SCRATCH_SLOTS, txns * SCRATCH_SLOTS);
        final int[] firstOp = this.firstOp;
        final int[] srcFirstOp = src.firstOp;
        final int[] abortReason = this.abortReason;
        for (int t = 0; t < txns; t++)
        {
            firstOp[transactionBase + t] = srcFirstOp[t] + operationBase;
            abortReason[transactionBase + t] = 0;
        }
        System.arraycopy(src.type, 0, type, operationBase, ops);
        System.arraycopy(src.table, 0, table, operationBase, ops);
        System.arraycopy(src.key, 0, key, operationBase, ops);
        System.arraycopy(src.operand, 0, operand, operationBase, ops);
        System.arraycopy(src.function, 0, function, operationBase, ops);
        System.arraycopy(src.chooser, 0, chooser, operationBase, ops);
        System.arraycopy(src.extraCount, 0, extraCount, operationBase, ops);
        final int[] transactionOf = this.transactionOf;
        final int[] extraStart = this.extraStart;
        final int[] chosen = this.chosen;
        final int[] srcTransactionOf = src.transactionOf;
        final int[] srcExtraStart = src.extraStart;
        for (int o = 0; o < ops; o++)
        {
            transactionOf[operationBase + o] = srcTransactionOf[o] + transactionBase;
            extraStart[operationBase + o] = srcExtraStart[o] + extraBase;
            chosen[operationBase + o] = ChooseFunction.NONE;
        }
        System.arraycopy(src.extraTable, 0, extraTable, extraBase, extras);
        System.arraycopy(src.extraKey, 0, extraKey, extraBase, extras);
        final int[] extraOperation = this.extraOperation;
        final int[] srcExtraOperation = src.extraOperation;
        for (int x = 0; x < extras; x++)
        {
            extraOperation[extraBase + x] = srcExtraOperation[x] + operationBase;
        }
    }

    // ---------------------------------------------------------------- reading the log

    /** @return the number of transactions. */
    public int transactionCount()
    {
        return transactionCount;
    }

    /** @return the number of operations across all transactions. */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return the number of extras (parameters and candidates) across all operations. */
    public int extraTotal()
    {
        return extraTotal;
    }

    /** @return transaction {@code t}'s timestamp. */
    public long timestampNs(final int t)
    {
        return timestampNs[t];
    }

    /** @return transaction {@code t}'s arrival index. */
    public long sequence(final int t)
    {
        return sequence[t];
    }

    /** @return the index of transaction {@code t}'s first operation. */
    public int firstOperation(final int t)
    {
        return firstOp[t];
    }

    /** @return the number of operations of transaction {@code t}. */
    public int operationCount(final int t)
    {
        return opCount[t];
    }

    /** @return the object transaction {@code t} was declared with. */
    public Object attachment(final int t)
    {
        return attachment[t];
    }

    /** @return transaction {@code t}'s abort reason, 0 if it committed. */
    public int abortReason(final int t)
    {
        return abortReason[t];
    }

    /** Records transaction {@code t}'s outcome: 0 to commit, a positive reason to abort. */
    public void abortReason(final int t, final int reason)
    {
        abortReason[t] = reason;
    }

    /** @return scratch slot {@code slot} of transaction {@code t}. */
    public long scratch(final int t, final int slot)
    {
        return scratch[t * SCRATCH_SLOTS + slot];
    }

    /** @return operation {@code o}'s type ordinal (see {@link OperationType#fromOrdinal}). */
    public int type(final int o)
    {
        return type[o];
    }

    /** @return the transaction operation {@code o} belongs to. */
    public int transactionOf(final int o)
    {
        return transactionOf[o];
    }

    /** @return operation {@code o}'s table. */
    public int table(final int o)
    {
        return table[o];
    }

    /** @return operation {@code o}'s target key (unused by CHOOSE). */
    public long key(final int o)
    {
        return key[o];
    }

    /** @return operation {@code o}'s operand (WRITE: the value written). */
    public long operand(final int o)
    {
        return operand[o];
    }

    /** @return operation {@code o}'s function (READ_MODIFY, CHOOSE update), else null. */
    public StateFunction function(final int o)
    {
        return function[o];
    }

    /** @return operation {@code o}'s chooser (CHOOSE), else null. */
    public ChooseFunction chooser(final int o)
    {
        return chooser[o];
    }

    /** @return the index of operation {@code o}'s first extra (parameter or candidate). */
    public int extraStart(final int o)
    {
        return extraStart[o];
    }

    /** @return the number of operation {@code o}'s extras. */
    public int extraCount(final int o)
    {
        return extraCount[o];
    }

    /** @return extra {@code e}'s table (a parameter's table, or the CHOOSE's own table). */
    public int extraTable(final int e)
    {
        return extraTable[e];
    }

    /** @return extra {@code e}'s key. */
    public long extraKey(final int e)
    {
        return extraKey[e];
    }

    /** @return the operation extra {@code e} belongs to. */
    public int extraOperation(final int e)
    {
        return extraOperation[e];
    }

    /** @return operation {@code o}'s recorded value before it ran. */
    public long before(final int o)
    {
        return before[o];
    }

    /** @return operation {@code o}'s recorded value after it ran. */
    public long after(final int o)
    {
        return after[o];
    }

    /** @return the candidate operation {@code o} picked, or {@link ChooseFunction#NONE}. */
    public int chosen(final int o)
    {
        return chosen[o];
    }

    /** Records operation {@code o}'s result; called by the executor that ran it. */
    public void result(final int o, final long before, final long after, final int chosen)
    {
        this.before[o] = before;
        this.after[o] = after;
        this.chosen[o] = chosen;
    }

    /**
     * @param t a transaction of this log.
     * @return a view of its results, shared by every call: bind a fresh {@link Cursor}
     *         with {@link #newCursor()} where several views are needed at once.
     */
    public TransactionView view(final int t)
    {
        return cursor.bind(t);
    }

    /** @return a new cursor over this log, for a thread that needs its own view. */
    public Cursor newCursor()
    {
        return new Cursor();
    }

    /** A reusable {@link TransactionView} over one transaction of the enclosing log. */
    public final class Cursor implements TransactionView
    {
        private int t;

        /**
         * @param transaction the transaction to view.
         * @return this cursor.
         */
        public Cursor bind(final int transaction)
        {
            this.t = transaction;
            return this;
        }

        @Override
        public boolean aborted()
        {
            return abortReason[t] != 0;
        }

        @Override
        public int abortReason()
        {
            return abortReason[t];
        }

        @Override
        public int operationCount()
        {
            return opCount[t];
        }

        @Override
        public long before(final int operation)
        {
            return before[firstOp[t] + checkOperation(operation)];
        }

        @Override
        public long after(final int operation)
        {
            return after[firstOp[t] + checkOperation(operation)];
        }

        @Override
        public int chosen(final int operation)
        {
            return chosen[firstOp[t] + checkOperation(operation)];
        }

        @Override
        public long scratch(final int slot)
        {
            return scratch[t * SCRATCH_SLOTS + slot];
        }

        @Override
        public long timestampNs()
        {
            return timestampNs[t];
        }

        @Override
        public int type(final int operation)
        {
            return type[firstOp[t] + checkOperation(operation)];
        }

        @Override
        public int table(final int operation)
        {
            return table[firstOp[t] + checkOperation(operation)];
        }

        @Override
        public long key(final int operation)
        {
            final int o = firstOp[t] + checkOperation(operation);
            if (!OperationType.picksCandidate(type[o]))
            {
                return key[o];
            }
            final int pick = chosen[o];
            return pick == ChooseFunction.NONE ? 0L : extraKey(extraStart(o) + pick);
        }

        private int checkOperation(final int operation)
        {
            if (operation < 0 || operation >= opCount[t])
            {
                throw new IndexOutOfBoundsException("operation " + operation + " of a transaction with " + opCount[t]);
            }
            return operation;
        }
    }

    // ---------------------------------------------------------------- internals

    private int append(
        final OperationType opType,
        final int table,
        final long key,
        final long operand,
        final StateFunction fn,
        final ChooseFunction chooser)
    {
        final int t = requireOpen();
        if (table < 0)
        {
            throw new IllegalArgumentException("table " + table);
        }
        requireCandidatesOfLast(t);
        final int o = operationCount;
        if (o == type.length)
        {
            growOperations();
        }
        this.type[o] = (byte)opType.ordinal();
        this.transactionOf[o] = t;
        this.table[o] = table;
        this.key[o] = key;
        this.operand[o] = operand;
        this.function[o] = fn;
        this.chooser[o] = chooser;
        this.extraStart[o] = extraTotal;
        this.extraCount[o] = 0;
        this.chosen[o] = ChooseFunction.NONE;
        operationCount = o + 1;
        return opCount[t]++;
    }

    private void requireCandidatesOfLast(final int t)
    {
        final int last = operationCount - 1;
        if (last >= firstOp[t] && OperationType.picksCandidate(type[last]) && extraCount[last] == 0)
        {
            throw new IllegalStateException("CHOOSE operation " + (last - firstOp[t]) + " has no candidates");
        }
    }

    private void addExtra(final OperationType expected, final int table, final long key)
    {
        final int last = lastOperationOfOpen(expected);
        final int e = extraTotal;
        if (e == extraKey.length)
        {
            extraKey = Arrays.copyOf(extraKey, e * 2);
            extraTable = Arrays.copyOf(extraTable, e * 2);
            extraOperation = Arrays.copyOf(extraOperation, e * 2);
        }
        extraTable[e] = table;
        extraKey[e] = key;
        extraOperation[e] = last;
        extraTotal = e + 1;
        extraCount[last]++;
    }

    private int lastOperationOfOpen(final OperationType expected)
    {
        final int t = requireOpen();
        final int last = operationCount - 1;
        if (last < firstOp[t] || (expected == OperationType.CHOOSE ? !OperationType.picksCandidate(type[last]) : type[last] != expected.ordinal()))
        {
            throw new IllegalStateException(
                (expected == OperationType.CHOOSE ? "candidate" : "param") + " must follow a " + expected + " operation");
        }
        return last;
    }

    private int requireOpen()
    {
        if (open == NO_TRANSACTION)
        {
            throw new IllegalStateException("no open transaction: call begin() first");
        }
        return open;
    }

    private void growTransactions()
    {
        final int n = timestampNs.length * 2;
        timestampNs = Arrays.copyOf(timestampNs, n);
        sequence = Arrays.copyOf(sequence, n);
        firstOp = Arrays.copyOf(firstOp, n);
        opCount = Arrays.copyOf(opCount, n);
        attachment = Arrays.copyOf(attachment, n);
        abortReason = Arrays.copyOf(abortReason, n);
        scratch = Arrays.copyOf(scratch, n * SCRATCH_SLOTS);
    }

    private void growOperations()
    {
        final int n = type.length * 2;
        type = Arrays.copyOf(type, n);
        transactionOf = Arrays.copyOf(transactionOf, n);
        table = Arrays.copyOf(table, n);
        key = Arrays.copyOf(key, n);
        operand = Arrays.copyOf(operand, n);
        function = Arrays.copyOf(function, n);
        chooser = Arrays.copyOf(chooser, n);
        extraStart = Arrays.copyOf(extraStart, n);
        extraCount = Arrays.copyOf(extraCount, n);
        before = Arrays.copyOf(before, n);
        after = Arrays.copyOf(after, n);
        chosen = Arrays.copyOf(chosen, n);
    }
}
