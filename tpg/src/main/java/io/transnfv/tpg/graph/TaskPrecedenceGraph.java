package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Arrays;

/**
 * The task precedence graph of one batch, built in the paper's two phases. While the batch
 * fills, {@link #addTransaction(int)} inserts each operation's accesses ("entries") into the
 * list of the (table, key) they touch, at their place in the serial order (timestamp,
 * sequence, statement): a late packet is inserted, not appended. A READ_MODIFY's parameter
 * keys get placeholder ("proxy") entries, a CHOOSE gets an entry in every candidate's list.
 * At the punctuation {@link #seal()} scans each list once and derives the edges.
 *
 * <pre>
 *  key list (table 0, key 42), serial order ──►
 *   head                                                     tail
 *   [t3.o0 W] ─► [t5.o1 R] ─► [t7.o0 P(proxy)] ─► [t9.o2 C(cand)]
 *       ▲            │               │                  │
 *       └────────────┴───────────────┴──────────────────┘  previousWrite links
 *
 *  TD: an entry waits for the last earlier write of its key (reads do not wait for reads,
 *      writes do not wait for earlier reads: the state table is multi-versioned);
 *  PD: the same rule for a proxy entry: a parameter reads the last earlier write of its key;
 *  LD: operation i + 1 of a transaction waits for operation i (statement order).
 * </pre>
 *
 * <p>A cross-transaction edge points from the writing <em>operation</em> to the reading
 * operation ({@link #dependentsStart(int)}: per source operation, a CSR range of dependent
 * operation indices). The executor decides when an edge resolves: when the writer's whole
 * transaction has finished (decided visibility, eager abort: no read is ever invalidated), or
 * as soon as the writing operation has run (speculative visibility, lazy abort: reads of a
 * later-aborted transaction are redone at the end of the batch). Entries, operations and keys are flat arrays recycled every
 * batch. An operation's own entries on one key are merged into one entry with several
 * roles (a READ_MODIFY whose parameter is its own target, a repeated CHOOSE candidate).
 *
 * <p>Threads: one thread builds and seals; after sealing, any number of executor threads may
 * read concurrently, provided the hand-over goes through a happens-before edge.
 */
public final class TaskPrecedenceGraph
{
    /** "No entry / no operation" sentinel. */
    public static final int NONE = -1;
    /** Entry role: the operation reads this key as its target (READ). */
    public static final int ROLE_READ = 1;
    /** Entry role: the operation writes this key as its target (WRITE, READ_MODIFY). */
    public static final int ROLE_WRITE = 2;
    /** Entry role: a proxy for a READ_MODIFY parameter (parametric dependency). */
    public static final int ROLE_PARAM = 4;
    /** Entry role: a CHOOSE candidate; ordered as a write (the unchosen keep their value). */
    public static final int ROLE_CANDIDATE = 8;

    private static final int WRITE_ROLES = ROLE_WRITE | ROLE_CANDIDATE;

    private final TouchedKeyTable keys;
    private TransactionLog log;
    private boolean sealed;

    private int[] keyHead = new int[64];
    private int[] keyTail = new int[64];
    private int[] keyLastWrite = new int[64];

    private int entryCount;
    private int[] entryOp = new int[256];
    private int[] entryTxn = new int[256];
    private int[] entryKey = new int[256];
    private int[] entryRoles = new int[256];
    private int[] entryPrev = new int[256];
    private int[] entryNext = new int[256];
    private int[] entryPreviousWrite = new int[256];
    private long[] entryTs = new long[256];
    private long[] entrySeq = new long[256];

    private int operationCount;
    private int[] targetEntry = new int[256];
    private int[] pending = new int[256];
    private int[] extraEntry = new int[256];

    private int transactionCount;
    private int emptyTransactions;
    private int[] edgeStart = new int[65];
    private int[] edgeFill = new int[64];
    private int[] edgeTarget = new int[256];
    private int edgeCount;

    private int temporalEdges;
    private int parametricEdges;
    private int logicalEdges;
    private int maxKeyEntries;
    private long sumSquaredKeyEntries;
    private long tableMask;
    private int singleEntryKeys;
    private int writeEntries;
    private long insertionSteps;

    /** Creates an empty graph; its arrays grow with the first batches, then are reused. */
    public TaskPrecedenceGraph()
    {
        this.keys = new TouchedKeyTable(1024);
    }

    // ---------------------------------------------------------------- packet processing phase

    /**
     * Starts a batch over {@code log}, forgetting the previous one. Cost: the previous batch's
     * touched keys, plus this batch's operation count. The log may still be filling: a
     * transaction declared later can be added with {@link #addTransaction} once it has ended
     * (the paper's packet processing phase, overlapping with the previous batch's execution).
     */
    public void beginBatch(final TransactionLog log)
    {
        keys.clear();
        this.log = log;
        this.sealed = false;
        this.entryCount = 0;
        this.transactionCount = 0;
        this.operationCount = log.operationCount();
        if (targetEntry.length < operationCount)
        {
            final int n = capacityFor(operationCount);
            targetEntry = new int[n];
            pending = new int[n];
        }
        Arrays.fill(pending, 0, operationCount, 0);
        final int extras = operationCount == 0 ? 0 : log.extraStart(operationCount - 1) + log.extraCount(operationCount - 1);
        if (extraEntry.length < extras)
        {
            extraEntry = new int[capacityFor(extras)];
        }
        insertionSteps = 0;
    }

    /**
     * Inserts every operation of transaction {@code t} (already ended in the log) into the
     * lists of the keys it touches. Transactions may be added in any order; each must be added
     * once, and all of the log's transactions must be added before {@link #seal()}.
     */
    public void addTransaction(final int t)
    {
        if (sealed)
        {
            throw new IllegalStateException("graph is sealed: call beginBatch first");
        }
        final TransactionLog log = this.log;
        final long ts = log.timestampNs(t);
        final long seq = log.sequence(t);
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
        if (end > operationCount)
        {
            growForLateTransactionSlowPath(log, end);
        }
        for (int o = first; o < end; o++)
        {
            final int type = log.type(o);
            if (type == OperationType.CHOOSE.ordinal())
            {
                targetEntry[o] = NONE;
            }
            else
            {
                final int role = type == OperationType.READ.ordinal() ? ROLE_READ : ROLE_WRITE;
                targetEntry[o] = insert(o, t, ts, seq, log.table(o), log.key(o), role);
            }
            final int extraRole = type == OperationType.CHOOSE.ordinal() ? ROLE_CANDIDATE : ROLE_PARAM;
            final int x0 = log.extraStart(o);
            final int x1 = x0 + log.extraCount(o);
            for (int x = x0; x < x1; x++)
            {
                extraEntry[x] = insert(o, t, ts, seq, log.extraTable(x), log.extraKey(x), extraRole);
            }
        }
        transactionCount++;
    }

    private int insert(final int o, final int t, final long ts, final long seq, final int table, final long key, final int role)
    {
        final int known = keys.size();
        final int k = keys.idOf(table, key);
        if (k == known)
        {
            if (k >= keyHead.length)
            {
                growKeys();
            }
            keyHead[k] = NONE;
            keyTail[k] = NONE;
        }
        // walk back from the tail: O(1) for in-order arrival, O(displacement) for late packets
        int cur = keyTail[k];
        while (cur != NONE && isAfter(cur, ts, seq, t, o))
        {
            cur = entryPrev[cur];
            insertionSteps++;
        }
        if (cur != NONE && entryOp[cur] == o)
        {
            entryRoles[cur] |= role;
            return cur;
        }
        final int e = entryCount;
        if (e == entryOp.length)
        {
            growEntries();
        }
        entryOp[e] = o;
        entryTxn[e] = t;
        entryKey[e] = k;
        entryRoles[e] = role;
        entryTs[e] = ts;
        entrySeq[e] = seq;
        entryPrev[e] = cur;
        if (cur == NONE)
        {
            entryNext[e] = keyHead[k];
            keyHead[k] = e;
        }
        else
        {
            entryNext[e] = entryNext[cur];
            entryNext[cur] = e;
        }
        if (entryNext[e] == NONE)
        {
            keyTail[k] = e;
        }
        else
        {
            entryPrev[entryNext[e]] = e;
        }
        entryCount = e + 1;
        return e;
    }

    private boolean isAfter(final int e, final long ts, final long seq, final int t, final int o)
    {
        final long ets = entryTs[e];
        if (ets != ts)
        {
            return ets > ts;
        }
        final long eseq = entrySeq[e];
        if (eseq != seq)
        {
            return eseq > seq;
        }
        final int et = entryTxn[e];
        if (et != t)
        {
            return et > t;
        }
        return entryOp[e] > o;
    }

    // ---------------------------------------------------------------- state access phase

    /**
     * The punctuation: scans every touched key's list once to set each entry's previous-write
     * link, derives TD and PD edges from transaction to operation, LD edges from statement
     * order, and every operation's count of unresolved dependencies. Cost: O(entries + ops).
     */
    public void seal()
    {
        if (transactionCount != log.transactionCount())
        {
            throw new IllegalStateException(
                "added " + transactionCount + " of " + log.transactionCount() + " transactions");
        }
        final int keyCount = keys.size();
        int maxLength = 0;
        long sumSquares = 0;
        int singles = 0;
        int writes = 0;
        long tables = 0;
        for (int k = 0; k < keyCount; k++)
        {
            tables |= 1L << (keys.table(k) & 63);
            int lastWrite = NONE;
            int length = 0;
            for (int e = keyHead[k]; e != NONE; e = entryNext[e])
            {
                entryPreviousWrite[e] = lastWrite;
                if ((entryRoles[e] & WRITE_ROLES) != 0)
                {
                    lastWrite = e;
                    writes++;
                }
                length++;
            }
            keyLastWrite[k] = lastWrite;
            maxLength = Math.max(maxLength, length);
            sumSquares += (long)length * length;
            singles += length == 1 ? 1 : 0;
        }
        maxKeyEntries = maxLength;
        sumSquaredKeyEntries = sumSquares;
        singleEntryKeys = singles;
        writeEntries = writes;
        tableMask = tables;

        final int txns = log.transactionCount();
        final int ops = operationCount;
        if (edgeFill.length < ops)
        {
            edgeFill = new int[capacityFor(ops)];
            edgeStart = new int[edgeFill.length + 1];
        }
        Arrays.fill(edgeStart, 0, ops + 1, 0);
        temporalEdges = 0;
        parametricEdges = 0;
        final int entries = entryCount;
        for (int e = 0; e < entries; e++)
        {
            final int w = entryPreviousWrite[e];
            if (w != NONE && entryTxn[w] != entryTxn[e])
            {
                edgeStart[entryOp[w] + 1]++;
                pending[entryOp[e]]++;
                if (entryRoles[e] == ROLE_PARAM)
                {
                    parametricEdges++;
                }
                else
                {
                    temporalEdges++;
                }
            }
        }
        for (int o = 0; o < ops; o++)
        {
            edgeStart[o + 1] += edgeStart[o];
        }
        edgeCount = edgeStart[ops];
        if (edgeTarget.length < edgeCount)
        {
            edgeTarget = new int[capacityFor(edgeCount)];
        }
        System.arraycopy(edgeStart, 0, edgeFill, 0, ops);
        for (int e = 0; e < entries; e++)
        {
            final int w = entryPreviousWrite[e];
            if (w != NONE && entryTxn[w] != entryTxn[e])
            {
                edgeTarget[edgeFill[entryOp[w]]++] = entryOp[e];
            }
        }

        logicalEdges = 0;
        emptyTransactions = 0;
        for (int t = 0; t < txns; t++)
        {
            final int first = log.firstOperation(t);
            final int count = log.operationCount(t);
            if (count == 0)
            {
                emptyTransactions++;
            }
            for (int o = first + 1; o < first + count; o++)
            {
                pending[o]++;
            }
            logicalEdges += Math.max(0, count - 1);
        }
        sealed = true;
    }

    // ---------------------------------------------------------------- reading the sealed graph

    /** @return the log this batch's graph was built from. */
    public TransactionLog log()
    {
        return log;
    }

    /** @return true once {@link #seal()} has run for the current batch. */
    public boolean isSealed()
    {
        return sealed;
    }

    /** @return the number of operations (vertices). */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return the number of transactions. */
    public int transactionCount()
    {
        return log.transactionCount();
    }

    /** @return the number of transactions with no operation (they commit trivially). */
    public int emptyTransactionCount()
    {
        return emptyTransactions;
    }

    /** @return the number of distinct (table, key) pairs the batch touches. */
    public int keyCount()
    {
        return keys.size();
    }

    /** @return the table of touched key {@code k}. */
    public int keyTable(final int k)
    {
        return keys.table(k);
    }

    /** @return the key of touched key {@code k}. */
    public long keyKey(final int k)
    {
        return keys.key(k);
    }

    /** @return the first entry of key {@code k}'s list in serial order, or {@link #NONE}. */
    public int keyFirstEntry(final int k)
    {
        return keyHead[k];
    }

    /** @return the last writing entry of key {@code k} in serial order, or {@link #NONE}. */
    public int keyLastWrite(final int k)
    {
        return keyLastWrite[k];
    }

    /** @return the number of entries (operation accesses to keys, proxies included). */
    public int entryCount()
    {
        return entryCount;
    }

    /** @return the entry after {@code e} in its key's list, or {@link #NONE}. */
    public int nextEntry(final int e)
    {
        return entryNext[e];
    }

    /** @return the last writing entry before {@code e} in its key's list, or {@link #NONE}. */
    public int previousWrite(final int e)
    {
        return entryPreviousWrite[e];
    }

    /** @return the touched-key id of entry {@code e}. */
    public int entryKey(final int e)
    {
        return entryKey[e];
    }

    /** @return the operation entry {@code e} belongs to. */
    public int entryOperation(final int e)
    {
        return entryOp[e];
    }

    /** @return the transaction entry {@code e} belongs to. */
    public int entryTransaction(final int e)
    {
        return entryTxn[e];
    }

    /** @return entry {@code e}'s roles, a bit set of the {@code ROLE_*} constants. */
    public int entryRoles(final int e)
    {
        return entryRoles[e];
    }

    /** @return true if entry {@code e} creates a version (a target write or a CHOOSE candidate). */
    public boolean isWrite(final int e)
    {
        return (entryRoles[e] & WRITE_ROLES) != 0;
    }

    /** @return operation {@code o}'s target entry, or {@link #NONE} for a CHOOSE. */
    public int targetEntry(final int o)
    {
        return targetEntry[o];
    }

    /** @return the entry of extra {@code x} (a log extra index: parameter or candidate). */
    public int extraEntry(final int x)
    {
        return extraEntry[x];
    }

    /** @return operation {@code o}'s number of dependencies (LD + TD + PD edges into it). */
    public int pendingDependencies(final int o)
    {
        return pending[o];
    }

    /**
     * @return the first index in {@link #dependent(int)} of the operations of other
     *         transactions that read a version operation {@code o} writes (TD and PD edges).
     */
    public int dependentsStart(final int o)
    {
        return edgeStart[o];
    }

    /** @return one past the last index of operation {@code o}'s dependents. */
    public int dependentsEnd(final int o)
    {
        return edgeStart[o + 1];
    }

    /** @return the number of cross-transaction (TD + PD) edges. */
    public int crossTransactionEdgeCount()
    {
        return edgeCount;
    }

    /** @return the operation at CSR index {@code i} (an operation waiting for another's write). */
    public int dependent(final int i)
    {
        return edgeTarget[i];
    }

    /** @return the number of temporal edges (same key, an earlier transaction's write). */
    public int temporalEdgeCount()
    {
        return temporalEdges;
    }

    /** @return the number of parametric edges (a parameter proxy, an earlier transaction's write). */
    public int parametricEdgeCount()
    {
        return parametricEdges;
    }

    /** @return the number of logical edges (statement order inside transactions). */
    public int logicalEdgeCount()
    {
        return logicalEdges;
    }

    /** @return the longest key list of the batch (a contention statistic). */
    public int maxKeyEntries()
    {
        return maxKeyEntries;
    }

    /**
     * @return the sum over touched keys of (entries of the key)²: divided by
     *         {@link #entryCount()} it is the chain length an average access sees (contention).
     */
    public long sumSquaredKeyEntries()
    {
        return sumSquaredKeyEntries;
    }

    /** @return the tables the batch touches, as a bit set of table ids modulo 64 (which VNF's batch this is). */
    public long tableMask()
    {
        return tableMask;
    }

    /** @return the number of touched keys with exactly one entry (no chain at all). */
    public int singleEntryKeyCount()
    {
        return singleEntryKeys;
    }

    /** @return the number of entries that create a version (writes and CHOOSE candidates). */
    public int writeEntryCount()
    {
        return writeEntries;
    }

    /** @return the list steps taken to place late entries in this batch (disorder statistic). */
    public long insertionSteps()
    {
        return insertionSteps;
    }

    /** @return the touched-key table (for its clearing counters). */
    public TouchedKeyTable touchedKeys()
    {
        return keys;
    }

    // ---------------------------------------------------------------- growth (warm-up only)

    private void growKeys()
    {
        final int n = keyHead.length * 2;
        keyHead = Arrays.copyOf(keyHead, n);
        keyTail = Arrays.copyOf(keyTail, n);
        keyLastWrite = Arrays.copyOf(keyLastWrite, n);
    }

    private void growEntries()
    {
        final int n = entryOp.length * 2;
        entryOp = Arrays.copyOf(entryOp, n);
        entryTxn = Arrays.copyOf(entryTxn, n);
        entryKey = Arrays.copyOf(entryKey, n);
        entryRoles = Arrays.copyOf(entryRoles, n);
        entryPrev = Arrays.copyOf(entryPrev, n);
        entryNext = Arrays.copyOf(entryNext, n);
        entryPreviousWrite = Arrays.copyOf(entryPreviousWrite, n);
        entryTs = Arrays.copyOf(entryTs, n);
        entrySeq = Arrays.copyOf(entrySeq, n);
    }

    /** The log grew after {@link #beginBatch}: make room for its operations up to {@code end}. */
    private void growForLateTransactionSlowPath(final TransactionLog log, final int end)
    {
        if (targetEntry.length < end)
        {
            final int n = capacityFor(end);
            targetEntry = Arrays.copyOf(targetEntry, n);
            pending = Arrays.copyOf(pending, n);
        }
        Arrays.fill(pending, operationCount, end, 0);
        operationCount = end;
        final int extras = log.extraStart(end - 1) + log.extraCount(end - 1);
        if (extraEntry.length < extras)
        {
            extraEntry = Arrays.copyOf(extraEntry, capacityFor(extras));
        }
    }

    private static int capacityFor(final int n)
    {
        return Math.max(16, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    }
}
