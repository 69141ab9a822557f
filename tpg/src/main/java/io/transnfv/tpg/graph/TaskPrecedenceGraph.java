package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Arrays;

/**
 * The task precedence graph of one batch, built in parallel by key shard and sealed in
 * parallel by transaction range. Every access of an operation to a (table, key) is an
 * <em>entry</em>; each touched key has the list ("chain") of its entries in serial order
 * (timestamp, sequence, log index; then statement order), and every entry knows the last
 * earlier writing entry of its key.
 *
 * <pre>
 *  entries: target of op o = entry o;  extra x (parameter, candidate) = entry ops + x
 *
 *  key chain (table 0, key 42), serial order ──►
 *   [t3.o0 W] ─► [t5.o1 R] ─► [t7.o0 P] ─► [t9.o2 C] ─► [t9.o4 W]
 *       ▲            │            │            │
 *       └────────────┴────────────┴────────────┘   previous write (one per entry)
 *
 *  TD  an entry waits for the last earlier write of its key, if another transaction's
 *      (a read never waits for a read; a write never waits for an earlier read: versions)
 *  PD  the same rule for a READ_MODIFY's parameter entry
 *  LD  operation i + 1 of a transaction waits for operation i (statement order)
 * </pre>
 *
 * <p>The writer's dependents are found by walking its chain forward up to and including the
 * next write, so there is no edge array: building a chain <em>is</em> building the edges.
 * A key touched by one transaction only has no cross-transaction edge at all; its entries are
 * marked {@link #isInPlace in place}: executors read and write the committed value directly,
 * without versions. A transaction all of whose keys are in place is <em>independent</em>: it
 * commutes with every other transaction of the batch and never enters the schedule.
 *
 * <pre>
 *  beginBatch(log)          one thread: serial order, sizes
 *  buildShards(task, n)     n threads in parallel, each one pass over the log: the chains of
 *                           the task's shards
 *  finishBuild()            one thread: statistics of the whole graph
 *  sealChunk(c, machine)    one thread per chunk, in parallel: in-place marks, dependency
 *                           counts and initial states, independent transactions, ready ops
 * </pre>
 *
 * <p>A pair's shard comes from the top bits of {@link TouchedKeyTable#hash}; the state table
 * shards its committed values the same way, so one thread owns a shard's keys from building
 * to collapsing. Arrays are recycled batch after batch; the work per batch follows the batch's
 * operations and touched keys, never the key space. After Mao et al., "MorphStream: Adaptive
 * Scheduling for Scalable Transactional Stream Processing on Multicores" (SIGMOD 2023), as
 * applied to NFV by TransNFV.
 */
public final class TaskPrecedenceGraph
{
    /** "No entry / no operation" sentinel. */
    public static final int NONE = -1;
    /** Entry role: the operation reads this key as its target (READ). */
    public static final int ROLE_READ = 1;
    /** Entry role: the operation writes this key as its target (WRITE, READ_MODIFY). */
    public static final int ROLE_WRITE = 2;
    /** Entry role: a READ_MODIFY parameter (parametric dependency). */
    public static final int ROLE_PARAM = 4;
    /** Entry role: a CHOOSE candidate; ordered as a write (it may be the one written). */
    public static final int ROLE_CANDIDATE = 8;
    /** Most shards a graph may have. */
    public static final int MAX_SHARDS = 64;
    /** Transactions per seal chunk: the unit of parallel sealing and of initial work. */
    public static final int SEAL_CHUNK_TRANSACTIONS = 128;

    private static final int WRITE_ROLES = ROLE_WRITE | ROLE_CANDIDATE;
    private static final int ROLES = ROLE_READ | ROLE_WRITE | ROLE_PARAM | ROLE_CANDIDATE;
    private static final int ALIAS = 16;
    private static final int CROSS = 32;
    private static final int IN_PLACE = 64;
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();
    private static final int READ = OperationType.READ.ordinal();

    private final int shardBits;
    private final int shardMask;
    private final KeyShard[] shards;

    private TransactionLog log;
    private int transactionCount;
    private int operationCount;
    private int entrySpace;
    private boolean inSerialOrder;
    private int[] serialOrder = new int[64];
    private int[] serialRank = new int[64];

    private int[] entryKey = new int[256];
    private int[] entryOp = new int[256];
    private int[] entryNext = new int[256];
    private int[] entryPreviousWrite = new int[256];
    private int[] entryFlags = new int[256];

    private boolean[] independent = new boolean[64];
    private int sealChunks;
    private int[] chunkReady = new int[4];
    private int[] chunkIndependent = new int[4];
    private int[] chunkScheduledOps = new int[4];
    private int[] chunkLogicalEdges = new int[4];
    private int[] chunkEmpty = new int[4];
    private int[] readyList = new int[256];
    private int[] independentList = new int[64];

    private int keyCount;
    private int entryCount;
    private int temporalEdges;
    private int parametricEdges;
    private int logicalEdges;
    private int maxKeyEntries;
    private long sumSquaredKeyEntries;
    private int singleEntryKeys;
    private int writeEntries;
    private long tableMask;
    private int scheduledOperations;
    private int independentTransactions;
    private int emptyTransactions;

    /** A graph with one shard (built by one thread). */
    public TaskPrecedenceGraph()
    {
        this(1);
    }

    /** @param shards number of key shards, a power of two from 1 to {@value #MAX_SHARDS}. */
    public TaskPrecedenceGraph(final int shards)
    {
        if (shards < 1 || shards > MAX_SHARDS || Integer.bitCount(shards) != 1)
        {
            throw new IllegalArgumentException("shards must be a power of two from 1 to " + MAX_SHARDS + ": " + shards);
        }
        this.shardBits = Integer.numberOfTrailingZeros(shards);
        this.shardMask = shards - 1;
        this.shards = new KeyShard[shards];
        for (int s = 0; s < shards; s++)
        {
            this.shards[s] = new KeyShard();
        }
    }

    /**
     * Builds the whole graph of {@code log} on the calling thread: {@link #beginBatch},
     * {@link #buildShards} as one task, {@link #finishBuild} and {@link #sealChunk} for every
     * chunk, with single-operation units ({@code machine} receives the states).
     */
    public void buildAndSeal(final TransactionLog log, final OperationStateMachine machine)
    {
        beginBatch(log);
        buildShards(0, 1);
        finishBuild();
        machine.beginBatch(operationCount, false);
        for (int c = 0; c < sealChunks; c++)
        {
            sealChunk(c, machine, true);
        }
        finishSeal();
    }

    // ---------------------------------------------------------------- building

    /**
     * Starts a batch over {@code log} (every transaction ended): finds the serial order and
     * sizes the arrays. Cost: the batch's transactions, plus a sort when they are not already in
     * serial order. One thread; publish to the builders through a happens-before edge.
     */
    public void beginBatch(final TransactionLog log)
    {
        this.log = log;
        final int txns = log.transactionCount();
        final int ops = log.operationCount();
        transactionCount = txns;
        operationCount = ops;
        entrySpace = ops + log.extraTotal();
        if (entryKey.length < entrySpace)
        {
            final int n = capacityFor(entrySpace);
            entryKey = new int[n];
            entryOp = new int[n];
            entryNext = new int[n];
            entryPreviousWrite = new int[n];
            entryFlags = new int[n];
        }
        if (independent.length < txns)
        {
            final int n = capacityFor(txns);
            independent = new boolean[n];
            serialOrder = new int[n];
            serialRank = new int[n];
            independentList = new int[n];
        }
        if (readyList.length < ops)
        {
            readyList = new int[capacityFor(ops)];
        }
        sealChunks = (txns + SEAL_CHUNK_TRANSACTIONS - 1) / SEAL_CHUNK_TRANSACTIONS;
        if (chunkReady.length < sealChunks)
        {
            final int n = capacityFor(sealChunks);
            chunkReady = new int[n];
            chunkIndependent = new int[n];
            chunkScheduledOps = new int[n];
            chunkLogicalEdges = new int[n];
            chunkEmpty = new int[n];
        }
        inSerialOrder = true;
        for (int t = 1; t < txns; t++)
        {
            if (before(t, t - 1))
            {
                inSerialOrder = false;
                break;
            }
        }
        if (!inSerialOrder)
        {
            sortSerialOrderSlowPath(txns);
        }
    }

    /**
     * Build task {@code task} of {@code tasks}: inserts every entry whose key belongs to one of
     * the task's shards (those with {@code shard % tasks == task}) into its key's chain, in
     * serial order, with one pass over the log. Tasks touch disjoint shards, entries and keys,
     * and may run at once.
     */
    public void buildShards(final int task, final int tasks)
    {
        final int shardCount = shardMask + 1;
        for (int s = task; s < shardCount; s += tasks)
        {
            shards[s].reset();
        }
        final TransactionLog log = this.log;
        final int ops = operationCount;
        final int txns = transactionCount;
        final int bits = shardBits;
        final boolean all = tasks == 1;
        final boolean inOrder = inSerialOrder;
        final int[] order = serialOrder;
        for (int i = 0; i < txns; i++)
        {
            final int t = inOrder ? i : order[i];
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            for (int o = first; o < end; o++)
            {
                final int type = log.type(o);
                if (type != CHOOSE)
                {
                    final int table = log.table(o);
                    final long key = log.key(o);
                    final long hash = TouchedKeyTable.hash(table, key);
                    final int shard = TouchedKeyTable.shardOf(hash, bits);
                    if (all || shard % tasks == task)
                    {
                        append(shards[shard], shard, o, o, t, table, key, hash, type == READ ? ROLE_READ : ROLE_WRITE);
                    }
                }
                final int x0 = log.extraStart(o);
                final int x1 = x0 + log.extraCount(o);
                final int role = type == CHOOSE ? ROLE_CANDIDATE : ROLE_PARAM;
                for (int x = x0; x < x1; x++)
                {
                    final int table = log.extraTable(x);
                    final long key = log.extraKey(x);
                    final long hash = TouchedKeyTable.hash(table, key);
                    final int shard = TouchedKeyTable.shardOf(hash, bits);
                    if (all || shard % tasks == task)
                    {
                        append(shards[shard], shard, ops + x, o, t, table, key, hash, role);
                    }
                }
            }
        }
        for (int s = task; s < shardCount; s += tasks)
        {
            shards[s].finish();
        }
    }

    private void append(
        final KeyShard ks, final int shard, final int e, final int o, final int t, final int table, final long key,
        final long hash, final int role)
    {
        final int known = ks.keys.size();
        final int k = ks.keys.idOf(table, key, hash);
        if (k == known)
        {
            ks.addKey(k, t);
        }
        final int packed = (k << shardBits) | shard;
        entryKey[e] = packed;
        entryOp[e] = o;
        final int tail = ks.tail[k];
        if (tail != NONE && entryOp[tail] == o)
        {
            // the operation already touches this key: one access, read at the first entry's point
            entryFlags[e] = role | ALIAS;
            entryNext[e] = tail;
            return;
        }
        int flags = role;
        final int lastWrite = ks.lastWrite[k];
        if (lastWrite != NONE && ks.lastWriteTxn[k] != t)
        {
            flags |= CROSS;
            if (role == ROLE_PARAM)
            {
                ks.parametricEdges++;
            }
            else
            {
                ks.temporalEdges++;
            }
        }
        entryFlags[e] = flags;
        entryPreviousWrite[e] = lastWrite;
        entryNext[e] = NONE;
        if (tail == NONE)
        {
            ks.head[k] = e;
        }
        else
        {
            entryNext[tail] = e;
        }
        ks.tail[k] = e;
        ks.count[k]++;
        if ((role & WRITE_ROLES) != 0)
        {
            ks.lastWrite[k] = e;
            ks.lastWriteTxn[k] = t;
            ks.writeEntries++;
        }
        if (ks.firstTxn[k] != t)
        {
            ks.firstTxn[k] = KeyShard.MULTI;
        }
    }

    /** One thread, after every {@link #buildShards} task: sums the shards' statistics. */
    public void finishBuild()
    {
        int keys = 0;
        int entries = 0;
        int temporal = 0;
        int parametric = 0;
        int maxLength = 0;
        long sumSquares = 0;
        int singles = 0;
        int writes = 0;
        long tables = 0;
        for (final KeyShard ks : shards)
        {
            keys += ks.keys.size();
            entries += ks.entries;
            temporal += ks.temporalEdges;
            parametric += ks.parametricEdges;
            maxLength = Math.max(maxLength, ks.maxLength);
            sumSquares += ks.sumSquares;
            singles += ks.singleEntryKeys;
            writes += ks.writeEntries;
            tables |= ks.tableMask;
        }
        keyCount = keys;
        entryCount = entries;
        temporalEdges = temporal;
        parametricEdges = parametric;
        maxKeyEntries = maxLength;
        sumSquaredKeyEntries = sumSquares;
        singleEntryKeys = singles;
        writeEntries = writes;
        tableMask = tables;
    }

    // ---------------------------------------------------------------- sealing

    /** @return the number of seal chunks of this batch. */
    public int sealChunkCount()
    {
        return sealChunks;
    }

    /**
     * Seals transactions {@code [c × SEAL_CHUNK_TRANSACTIONS, ...)}: marks entries of keys
     * touched by one transaction in place, counts each operation's dependencies (LD plus its
     * cross-transaction previous writes) into {@code machine}, sets every scheduled operation's
     * initial state, and lists the chunk's independent transactions and initially ready
     * operations. Chunks touch disjoint operations and may be sealed at once.
     *
     * @param unitHeads true if every operation is the head of its own unit (single-operation
     *                  units): a blocked head starts PARKED, so that its last resolver runs it.
     */
    public void sealChunk(final int c, final OperationStateMachine machine, final boolean unitHeads)
    {
        final TransactionLog log = this.log;
        final int ops = operationCount;
        final int from = c * SEAL_CHUNK_TRANSACTIONS;
        final int to = Math.min(transactionCount, from + SEAL_CHUNK_TRANSACTIONS);
        final int readyBase = chunkFirstOperation(c);
        int ready = 0;
        int independentCount = 0;
        int scheduled = 0;
        int logical = 0;
        int empty = 0;
        for (int t = from; t < to; t++)
        {
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            if (first == end)
            {
                empty++;
            }
            boolean alone = true;
            for (int o = first; o < end; o++)
            {
                int pending = o > first ? 1 : 0;
                if (log.type(o) != CHOOSE)
                {
                    pending += sealEntry(o);
                    alone &= (entryFlags[o] & IN_PLACE) != 0;
                }
                final int x0 = ops + log.extraStart(o);
                final int x1 = x0 + log.extraCount(o);
                for (int e = x0; e < x1; e++)
                {
                    pending += sealEntry(e);
                    alone &= (entryFlags[e] & IN_PLACE) != 0;
                }
                machine.setPending(o, pending);
            }
            logical += Math.max(0, end - first - 1);
            independent[t] = alone;
            // outcomes start undecided: the log may be executed again (a benchmark, a retry)
            log.abortReason(t, 0);
            if (alone)
            {
                independentList[from + independentCount++] = t;
                continue;
            }
            scheduled += end - first;
            for (int o = first; o < end; o++)
            {
                if (machine.initialise(o, unitHeads))
                {
                    readyList[readyBase + ready++] = o;
                }
            }
        }
        chunkReady[c] = ready;
        chunkIndependent[c] = independentCount;
        chunkScheduledOps[c] = scheduled;
        chunkLogicalEdges[c] = logical;
        chunkEmpty[c] = empty;
    }

    private int sealEntry(final int e)
    {
        final int flags = entryFlags[e];
        final int owner = (flags & ALIAS) != 0 ? entryNext[e] : e;
        final int k = entryKey[owner];
        final KeyShard ks = shards[k & shardMask];
        if (ks.firstTxn[k >>> shardBits] != KeyShard.MULTI)
        {
            entryFlags[e] = flags | IN_PLACE;
            return 0;
        }
        return (flags & (CROSS | ALIAS)) == CROSS ? 1 : 0;
    }

    /** One thread, after every {@link #sealChunk}: totals of the schedule. */
    public void finishSeal()
    {
        int scheduled = 0;
        int alone = 0;
        int logical = 0;
        int empty = 0;
        for (int c = 0; c < sealChunks; c++)
        {
            scheduled += chunkScheduledOps[c];
            alone += chunkIndependent[c];
            logical += chunkLogicalEdges[c];
            empty += chunkEmpty[c];
        }
        scheduledOperations = scheduled;
        independentTransactions = alone;
        logicalEdges = logical;
        emptyTransactions = empty;
    }

    /** @return the number of operations seal chunk {@code c} found ready at the start. */
    public int readyCount(final int c)
    {
        return chunkReady[c];
    }

    /** @return the {@code i}-th operation seal chunk {@code c} found ready at the start. */
    public int readyOperation(final int c, final int i)
    {
        return readyList[chunkFirstOperation(c) + i];
    }

    /** @return the number of independent transactions of seal chunk {@code c}. */
    public int independentCount(final int c)
    {
        return chunkIndependent[c];
    }

    /** @return the {@code i}-th independent transaction of seal chunk {@code c}. */
    public int independentTransaction(final int c, final int i)
    {
        return independentList[c * SEAL_CHUNK_TRANSACTIONS + i];
    }

    /** @return the first operation of seal chunk {@code c}. */
    public int chunkFirstOperation(final int c)
    {
        final int t = c * SEAL_CHUNK_TRANSACTIONS;
        return t >= transactionCount ? operationCount : log.firstOperation(t);
    }

    /** @return true if transaction {@code t} is independent (sealed). */
    public boolean isIndependent(final int t)
    {
        return independent[t];
    }

    // ---------------------------------------------------------------- reading the graph

    /** @return the log this batch's graph was built from. */
    public TransactionLog log()
    {
        return log;
    }

    /** @return the number of key shards. */
    public int shardCount()
    {
        return shardMask + 1;
    }

    /** @return log2 of the number of shards (the bits of a key reference that name its shard). */
    public int shardBits()
    {
        return shardBits;
    }

    /** @return the number of operations of the batch (vertices, scheduled or not). */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return the number of transactions. */
    public int transactionCount()
    {
        return transactionCount;
    }

    /** @return the number of operations of dependent transactions (sealed): what is scheduled. */
    public int scheduledOperationCount()
    {
        return scheduledOperations;
    }

    /** @return the number of independent transactions (sealed): run outside the schedule. */
    public int independentTransactionCount()
    {
        return independentTransactions;
    }

    /** @return the number of transactions with no operation (they commit trivially). */
    public int emptyTransactionCount()
    {
        return emptyTransactions;
    }

    /** @return the serial position of transaction {@code t}: 0 for the first in serial order. */
    public int serialRank(final int t)
    {
        return inSerialOrder ? t : serialRank[t];
    }

    /** @return the transaction at serial position {@code i}. */
    public int serialTransaction(final int i)
    {
        return inSerialOrder ? i : serialOrder[i];
    }

    /** @return the number of distinct (table, key) pairs the batch touches. */
    public int keyCount()
    {
        return keyCount;
    }

    /** @return the number of keys of shard {@code s}. */
    public int shardKeyCount(final int s)
    {
        return shards[s].keys.size();
    }

    /** @return the key reference of the {@code i}-th key of shard {@code s}. */
    public int keyReference(final int s, final int i)
    {
        return (i << shardBits) | s;
    }

    /** @return the table of key {@code k} (a key reference). */
    public int keyTable(final int k)
    {
        return shards[k & shardMask].keys.table(k >>> shardBits);
    }

    /** @return the key of key {@code k} (a key reference). */
    public long keyKey(final int k)
    {
        return shards[k & shardMask].keys.key(k >>> shardBits);
    }

    /** @return the first entry of key {@code k}'s chain in serial order. */
    public int keyFirstEntry(final int k)
    {
        return shards[k & shardMask].head[k >>> shardBits];
    }

    /** @return the last writing entry of key {@code k} in serial order, or {@link #NONE}. */
    public int keyLastWrite(final int k)
    {
        return shards[k & shardMask].lastWrite[k >>> shardBits];
    }

    /** @return true if key {@code k} is touched by one transaction only (its entries are in place). */
    public boolean isKeyInPlace(final int k)
    {
        return shards[k & shardMask].firstTxn[k >>> shardBits] != KeyShard.MULTI;
    }

    /** @return the number of entries of the batch (accesses; merged ones count once). */
    public int entryCount()
    {
        return entryCount;
    }

    /** @return the size of the entry id space: operations plus extras. */
    public int entrySpace()
    {
        return entrySpace;
    }

    /** @return the entry after {@code e} in its key's chain, or {@link #NONE}. */
    public int nextEntry(final int e)
    {
        return entryNext[e];
    }

    /** @return the last writing entry before {@code e} in its key's chain, or {@link #NONE}. */
    public int previousWrite(final int e)
    {
        return entryPreviousWrite[e];
    }

    /**
     * @return the entry {@code e} reads through: itself, or for an access merged into an earlier
     *         entry of the same operation on the same key, that entry.
     */
    public int accessEntry(final int e)
    {
        return (entryFlags[e] & ALIAS) != 0 ? entryNext[e] : e;
    }

    /** @return the key reference of entry {@code e}. */
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
        return log.transactionOf(entryOp[e]);
    }

    /** @return entry {@code e}'s role, one of the {@code ROLE_*} constants. */
    public int entryRoles(final int e)
    {
        return entryFlags[e] & ROLES;
    }

    /** @return true if entry {@code e} may create a version (a target write or a CHOOSE candidate). */
    public boolean isWrite(final int e)
    {
        final int flags = entryFlags[e];
        return (flags & ALIAS) == 0 && (flags & WRITE_ROLES) != 0;
    }

    /** @return true if entry {@code e} depends on a write of another transaction (a TD or PD edge). */
    public boolean isCrossTransaction(final int e)
    {
        return (entryFlags[e] & (CROSS | ALIAS)) == CROSS;
    }

    /** @return true if entry {@code e} (sealed) accesses the committed value in place, without versions. */
    public boolean isInPlace(final int e)
    {
        return (entryFlags[e] & IN_PLACE) != 0;
    }

    /** @return operation {@code o}'s target entry, or {@link #NONE} for a CHOOSE. */
    public int targetEntry(final int o)
    {
        return log.type(o) == CHOOSE ? NONE : o;
    }

    /** @return the entry of extra {@code x} (a log extra index: parameter or candidate). */
    public int extraEntry(final int x)
    {
        return operationCount + x;
    }

    /** @return the number of temporal edges (same key, an earlier transaction's write). */
    public int temporalEdgeCount()
    {
        return temporalEdges;
    }

    /** @return the number of parametric edges (a parameter, an earlier transaction's write). */
    public int parametricEdgeCount()
    {
        return parametricEdges;
    }

    /** @return the number of logical edges (statement order inside transactions; sealed). */
    public int logicalEdgeCount()
    {
        return logicalEdges;
    }

    /** @return the number of cross-transaction (TD + PD) edges. */
    public int crossTransactionEdgeCount()
    {
        return temporalEdges + parametricEdges;
    }

    /** @return the longest key chain of the batch (a contention statistic). */
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

    /** @return the tables the batch touches, as a bit set of table ids modulo 64. */
    public long tableMask()
    {
        return tableMask;
    }

    /** @return the number of touched keys with exactly one entry (no chain at all). */
    public int singleEntryKeyCount()
    {
        return singleEntryKeys;
    }

    /** @return the number of entries that may create a version (writes and CHOOSE candidates). */
    public int writeEntryCount()
    {
        return writeEntries;
    }

    /** @return the touched-key table of shard {@code s} (for its clearing counters). */
    public TouchedKeyTable touchedKeys(final int s)
    {
        return shards[s].keys;
    }

    // ---------------------------------------------------------------- serial order

    private boolean before(final int a, final int b)
    {
        final long ta = log.timestampNs(a);
        final long tb = log.timestampNs(b);
        if (ta != tb)
        {
            return ta < tb;
        }
        final long sa = log.sequence(a);
        final long sb = log.sequence(b);
        return sa != sb ? sa < sb : a < b;
    }

    /** Insertion sort: near-sorted batches (a few late packets) cost little more than a pass. */
    private void sortSerialOrderSlowPath(final int txns)
    {
        final int[] order = serialOrder;
        for (int i = 0; i < txns; i++)
        {
            final int t = order[i] = i;
            int j = i - 1;
            while (j >= 0 && before(t, order[j]))
            {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = t;
        }
        for (int i = 0; i < txns; i++)
        {
            serialRank[order[i]] = i;
        }
    }

    private static int capacityFor(final int n)
    {
        return Math.max(16, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    }

    /** One shard's touched keys and their chains; owned by the shard's builder during a build. */
    private static final class KeyShard
    {
        static final int MULTI = -2;

        final TouchedKeyTable keys = new TouchedKeyTable(256);
        int[] head = new int[64];
        int[] tail = new int[64];
        int[] lastWrite = new int[64];
        int[] lastWriteTxn = new int[64];
        int[] firstTxn = new int[64];
        int[] count = new int[64];

        int entries;
        int temporalEdges;
        int parametricEdges;
        int writeEntries;
        int maxLength;
        long sumSquares;
        int singleEntryKeys;
        long tableMask;

        void reset()
        {
            keys.clear();
            temporalEdges = 0;
            parametricEdges = 0;
            writeEntries = 0;
        }

        void addKey(final int k, final int t)
        {
            if (k == head.length)
            {
                final int n = k * 2;
                head = Arrays.copyOf(head, n);
                tail = Arrays.copyOf(tail, n);
                lastWrite = Arrays.copyOf(lastWrite, n);
                lastWriteTxn = Arrays.copyOf(lastWriteTxn, n);
                firstTxn = Arrays.copyOf(firstTxn, n);
                count = Arrays.copyOf(count, n);
            }
            head[k] = NONE;
            tail[k] = NONE;
            lastWrite[k] = NONE;
            lastWriteTxn[k] = NONE;
            firstTxn[k] = t;
            count[k] = 0;
        }

        void finish()
        {
            final int n = keys.size();
            int total = 0;
            int max = 0;
            long squares = 0;
            int singles = 0;
            long tables = 0;
            for (int k = 0; k < n; k++)
            {
                final int length = count[k];
                total += length;
                max = Math.max(max, length);
                squares += (long)length * length;
                singles += length == 1 ? 1 : 0;
                tables |= 1L << (keys.table(k) & 63);
            }
            entries = total;
            maxLength = max;
            sumSquares = squares;
            singleEntryKeys = singles;
            tableMask = tables;
        }
    }
}
