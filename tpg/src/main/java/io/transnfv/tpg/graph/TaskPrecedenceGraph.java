package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialOrder;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Arrays;

/**
 * The task precedence graph of one batch, built in parallel by key shard and sealed in
 * parallel by chunk of transactions. Every access of an operation to a (table, key) is an
 * <em>entry</em>; each touched key has the chain of its entries in serial order (timestamp,
 * sequence, log index; then statement order), and every entry knows the last earlier writing
 * entry of its key.
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
 * <p>An entry has at most one cross-transaction dependency (its previous write), and a
 * writer's dependents are found by walking its chain forward up to and including the next
 * write, so there is no edge array: building a chain <em>is</em> building the edges. A key
 * touched by one transaction only is <em>in place</em>: executors read and write its committed
 * value directly, without versions. A transaction all of whose keys are in place is
 * <em>independent</em>: it commutes with every other transaction of the batch and never enters
 * the schedule.
 *
 * <pre>
 *  beginBatch(log, dir)  one thread: serial order, sizes
 *  scatter(c)            by chunk of serial positions, in parallel: every entry's hash, into
 *                        the chunk's bucket of the entry's shard
 *  buildShard(s)         by shard, in parallel: the shard's buckets in chunk order; each entry
 *                        touched in the key directory (one probe, which also tells where the
 *                        key's committed value lives) and appended to its key's chain
 *  buildAll()            instead of both, when one thread builds: serial order, every shard
 *  finishBuild()         one thread: statistics
 *  sealChunk(c)          by chunk, in parallel: the chunk's entry records, every operation's
 *                        dependency count, ready operations and independent transactions
 *  finishSeal()          one thread: totals
 * </pre>
 *
 * <p>Who writes what: a chunk's scatterer and sealer write only arrays indexed by the chunk's
 * operations, entries and transactions (contiguous ranges); a shard's builder writes only its
 * shard's own arrays. No two threads write the same cache line except at range boundaries, so
 * building scales with the threads instead of trading cache lines between them. A pair's shard
 * comes from the top bits of {@link TouchedKeyTable#hash}; the engine's state table shards its
 * committed values the same way, so one thread owns a shard's keys from building to
 * collapsing. Arrays are recycled batch after batch; the work per batch follows the batch's
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
    /** Transactions per scatter and seal chunk: the unit of parallel scattering, sealing and initial work. */
    public static final int CHUNK_TRANSACTIONS = 128;
    /** Most operations a batch may have (the op field of an entry record). */
    public static final int MAX_OPERATIONS = 1 << 24;

    private static final int WRITE_ROLES = ROLE_WRITE | ROLE_CANDIDATE;
    private static final int ROLES = ROLE_READ | ROLE_WRITE | ROLE_PARAM | ROLE_CANDIDATE;
    private static final int ALIAS = 16;
    private static final int CROSS = 32;
    private static final int SHARED = 64;
    private static final int FLAG_SHIFT = 24;
    private static final int OP_MASK = (1 << FLAG_SHIFT) - 1;
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();
    private static final int ADD = OperationType.ADD.ordinal();
    private static final int DEFER = OperationType.DEFER.ordinal();
    private static final int STALE_READ = OperationType.STALE_READ.ordinal();
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();
    private static final int READ = OperationType.READ.ordinal();

    // entry record (sealed): location of the key's committed value, op | flags << 24,
    // next entry of the chain (or the merged-into entry), previous write
    private static final int E_LOCATION = 0;
    private static final int E_OP = 1;
    private static final int E_NEXT = 2;
    private static final int E_PREV = 3;
    private static final int E_STRIDE = 4;

    private final int shardBits;
    private final int shardMask;
    private final KeyShard[] shards;

    private TransactionLog log;
    private KeyDirectory directory;
    private KeyDirectory ownDirectory;
    private int transactionCount;
    private int operationCount;
    private int entrySpace;
    private boolean builtByOne;
    private boolean sealed;
    private final SerialOrder serialOrder = new SerialOrder();

    private int[] entries = new int[256 * E_STRIDE];
    private long[] entryHash = new long[256];
    private int[] entryPosition = new int[256];
    private byte[] dependent = new byte[64];

    private int chunks;
    private Chunk[] chunkData = new Chunk[0];

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
     * Builds and seals the whole graph of {@code log} on the calling thread, with its own key
     * directory ({@code machine} receives the counts).
     */
    public void buildAndSeal(final TransactionLog log, final OperationStateMachine machine)
    {
        buildAndSeal(log, machine, ownDirectory());
    }

    private KeyDirectory ownDirectory()
    {
        if (ownDirectory == null)
        {
            ownDirectory = KeyDirectory.touchedKeyTables(shardMask + 1);
        }
        return ownDirectory;
    }

    /** {@link #buildAndSeal(TransactionLog, OperationStateMachine)} with a given key directory. */
    public void buildAndSeal(final TransactionLog log, final OperationStateMachine machine, final KeyDirectory directory)
    {
        beginBatch(log, directory);
        machine.beginBatch(operationCount, false, true);
        buildAll();
        finishBuild();
        for (int c = 0; c < chunks; c++)
        {
            sealChunk(c, machine);
        }
        finishSeal();
    }

    // ---------------------------------------------------------------- building

    /**
     * Starts a batch over {@code log} (every transaction ended): finds the serial order and
     * sizes the arrays. Cost: the batch's transactions, plus a sort when they are not already in
     * serial order. One thread; publish to the builders through a happens-before edge.
     */
    public void beginBatch(final TransactionLog log, final KeyDirectory directory)
    {
        final int txns = log.transactionCount();
        final int ops = log.operationCount();
        if (ops >= MAX_OPERATIONS)
        {
            throw new IllegalArgumentException("a batch of " + ops + " operations; at most " + (MAX_OPERATIONS - 1));
        }
        this.log = log;
        this.directory = directory;
        sealed = false;
        builtByOne = false;
        directory.beginBatch();
        transactionCount = txns;
        operationCount = ops;
        entrySpace = ops + log.extraTotal();
        if (entryHash.length < entrySpace)
        {
            final int n = capacityFor(entrySpace);
            entries = new int[n * E_STRIDE];
            entryHash = new long[n];
            entryPosition = new int[n];
        }
        if (dependent.length < txns)
        {
            final int n = capacityFor(txns);
            dependent = new byte[n];
        }
        chunks = (txns + CHUNK_TRANSACTIONS - 1) / CHUNK_TRANSACTIONS;
        if (chunkData.length < chunks)
        {
            final Chunk[] grown = Arrays.copyOf(chunkData, capacityFor(chunks));
            for (int c = chunkData.length; c < grown.length; c++)
            {
                grown[c] = new Chunk(shardMask + 1);
            }
            chunkData = grown;
        }
        for (final KeyShard ks : shards)
        {
            ks.reset(chunks);
        }
        serialOrder.compute(log);
    }

    /** @return the number of chunks (scatter, seal, initial work) of this batch. */
    public int chunkCount()
    {
        return chunks;
    }

    /**
     * Scatters chunk {@code c}: for the transactions at serial positions
     * {@code [c × CHUNK_TRANSACTIONS, ...)}, hashes every entry into its shard's bucket (in serial
     * and statement order; an operation's target before its extras) and clears the
     * transactions' abort reasons. Chunks may be scattered at once.
     */
    public void scatter(final int c)
    {
        final Chunk chunk = chunkData[c];
        chunk.clearBuckets();
        final TransactionLog log = this.log;
        final int ops = operationCount;
        final int bits = shardBits;
        final long[] entryHash = this.entryHash;
        final int[] entryPosition = this.entryPosition;
        final int from = c * CHUNK_TRANSACTIONS;
        final int to = Math.min(transactionCount, from + CHUNK_TRANSACTIONS);
        for (int i = from; i < to; i++)
        {
            final int t = serialOrder.transactionAt(i);
            // outcomes start undecided: the log may be executed again (a benchmark, a retry)
            log.abortReason(t, 0);
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            for (int o = first; o < end; o++)
            {
                if (hasTarget(log.type(o)))
                {
                    final long hash = TouchedKeyTable.hash(log.table(o), log.key(o));
                    final int s = TouchedKeyTable.shardOf(hash, bits);
                    entryHash[o] = hash;
                    entryPosition[o] = chunk.add(s, o) << bits | s;
                }
                final int x0 = log.extraStart(o);
                final int x1 = x0 + graphExtras(log, o);
                for (int x = x0; x < x1; x++)
                {
                    final long hash = TouchedKeyTable.hash(log.extraTable(x), log.extraKey(x));
                    final int s = TouchedKeyTable.shardOf(hash, bits);
                    entryHash[ops + x] = hash;
                    entryPosition[ops + x] = chunk.add(s, ops + x) << bits | s;
                }
            }
        }
    }

    /**
     * Builds shard {@code s} after every chunk is scattered: takes its entries from every
     * chunk's bucket in chunk order (serial order), touches each entry's key in the directory and
     * appends it to the key's chain. Shards touch disjoint keys and may be built at once.
     */
    public void buildShard(final int s)
    {
        final KeyShard ks = shards[s];
        final long[] entryHash = this.entryHash;
        for (int c = 0; c < chunks; c++)
        {
            final Chunk chunk = chunkData[c];
            final int[] bucket = chunk.buckets[s];
            final int n = chunk.sizes[s];
            ks.chunkBase[c] = ks.entryCount;
            for (int i = 0; i < n; i++)
            {
                final int e = bucket[i];
                append(ks, s, e, entryHash[e]);
            }
        }
        ks.finish();
    }

    /**
     * Builds every shard on the calling thread, in one pass over the batch in serial order
     * (instead of {@link #scatter} and {@link #buildShard}: one thread needs no buckets).
     */
    public void buildAll()
    {
        builtByOne = true;
        final TransactionLog log = this.log;
        final int ops = operationCount;
        final int bits = shardBits;
        final KeyShard[] shards = this.shards;
        for (int i = 0; i < transactionCount; i++)
        {
            final int t = serialOrder.transactionAt(i);
            log.abortReason(t, 0);
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            for (int o = first; o < end; o++)
            {
                if (hasTarget(log.type(o)))
                {
                    final long hash = TouchedKeyTable.hash(log.table(o), log.key(o));
                    final int s = TouchedKeyTable.shardOf(hash, bits);
                    append(shards[s], s, o, hash);
                }
                final int x0 = log.extraStart(o);
                final int x1 = x0 + graphExtras(log, o);
                for (int x = x0; x < x1; x++)
                {
                    final long hash = TouchedKeyTable.hash(log.extraTable(x), log.extraKey(x));
                    final int s = TouchedKeyTable.shardOf(hash, bits);
                    append(shards[s], s, ops + x, hash);
                }
            }
        }
        for (final KeyShard ks : shards)
        {
            ks.finish();
        }
    }

    /**
     * Appends entry {@code e} to its key's chain in shard {@code s}: one touch of the directory,
     * then only shard-owned memory (or, built by one thread, the entry records themselves).
     *
     * @return the entry's position in the shard (its id, built by one thread).
     */
    private int append(final KeyShard ks, final int s, final int e, final long hash)
    {
        final TransactionLog log = this.log;
        final int o;
        final int table;
        final long key;
        final int role;
        if (e < operationCount)
        {
            o = e;
            table = log.table(o);
            key = log.key(o);
            role = log.type(o) == READ ? ROLE_READ : ROLE_WRITE;
        }
        else
        {
            final int x = e - operationCount;
            o = log.extraOperation(x);
            table = log.extraTable(x);
            key = log.extraKey(x);
            role = log.type(o) == CHOOSE ? ROLE_CANDIDATE : ROLE_PARAM;
        }
        final int t = log.transactionOf(o);
        final int known = ks.keyCount;
        final long touched = directory.touch(s, table, key, hash, known);
        final int k = (int)touched;
        final int location = (int)(touched >>> 32);
        if (k == known)
        {
            ks.addKey(t, location);
        }
        ks.tableMask |= 1L << (table & 63);
        final int p;
        final int[] records;
        final int r;
        if (builtByOne)
        {
            p = e;
            records = entries;
            r = e * E_STRIDE;
        }
        else
        {
            p = ks.newRecord();
            records = ks.records;
            r = p * E_STRIDE;
        }
        final int[] keys = ks.keys;
        final int base = k * KeyShard.K_STRIDE;
        records[r + E_LOCATION] = location;
        final int tail = keys[base + KeyShard.TAIL];
        final int firstTxn = keys[base + KeyShard.FIRST_TXN];
        if (tail != NONE && (records[keys[base + KeyShard.TAIL_RECORD] + E_OP] & OP_MASK) == o)
        {
            // the operation already touches this key: one access, read at the first entry's point
            records[r + E_OP] = o | (role | ALIAS) << FLAG_SHIFT;
            records[r + E_NEXT] = tail;
            records[r + E_PREV] = NONE;
            return p;
        }
        int flags = role;
        if (firstTxn != t)
        {
            if (firstTxn != KeyShard.MULTI)
            {
                // a second transaction: the key is shared from now on, and so is its chain so far
                keys[base + KeyShard.FIRST_TXN] = KeyShard.MULTI;
                markShared(records, keys[base + KeyShard.HEAD]);
            }
            flags |= SHARED;
        }
        final int lastWrite = keys[base + KeyShard.LAST_WRITE];
        if (lastWrite != NONE && keys[base + KeyShard.LAST_WRITE_TXN] != t)
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
        records[r + E_OP] = o | flags << FLAG_SHIFT;
        records[r + E_NEXT] = NONE;
        records[r + E_PREV] = lastWrite;
        if (tail == NONE)
        {
            keys[base + KeyShard.HEAD] = e;
        }
        else
        {
            records[keys[base + KeyShard.TAIL_RECORD] + E_NEXT] = e;
        }
        keys[base + KeyShard.TAIL] = e;
        keys[base + KeyShard.TAIL_RECORD] = r;
        keys[base + KeyShard.COUNT]++;
        if ((role & WRITE_ROLES) != 0)
        {
            keys[base + KeyShard.LAST_WRITE] = e;
            keys[base + KeyShard.LAST_WRITE_TXN] = t;
            ks.writeEntries++;
        }
        return p;
    }

    /** Marks shared every entry of a chain (all of one transaction) that a second transaction joins. */
    private void markShared(final int[] records, final int head)
    {
        for (int e = head; e != NONE; )
        {
            final int r = recordIndex(e);
            records[r + E_OP] |= SHARED << FLAG_SHIFT;
            e = records[r + E_NEXT];
        }
    }

    /** @return where entry {@code e}'s record starts in its shard's records, while building. */
    private int recordIndex(final int e)
    {
        if (builtByOne)
        {
            return e * E_STRIDE;
        }
        final int position = entryPosition[e];
        final int c = serialRank(log.transactionOf(entryOperation0(e))) / CHUNK_TRANSACTIONS;
        return (shards[position & shardMask].chunkBase[c] + (position >>> shardBits)) * E_STRIDE;
    }

    /** @return the operation of entry {@code e}, from the log (valid before sealing). */
    private int entryOperation0(final int e)
    {
        return e < operationCount ? e : log.extraOperation(e - operationCount);
    }

    /** One thread, after every shard is built: sums the shards' statistics. */
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
            keys += ks.keyCount;
            entries += ks.chainEntries;
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

    /** @return the number of seal chunks of this batch (the chunks of {@link #scatter}). */
    public int sealChunkCount()
    {
        return chunks;
    }

    /**
     * Seals chunk {@code c} after every shard is built: writes the entry records of its
     * transactions, sets every operation's dependency count in {@code machine} (its logical
     * dependency plus one per cross-transaction entry), and lists its independent transactions
     * and the scheduled operations that are ready at the start. Chunks may be sealed at once.
     */
    public void sealChunk(final int c, final OperationStateMachine machine)
    {
        final Chunk chunk = chunkData[c];
        final TransactionLog log = this.log;
        final int ops = operationCount;
        final int from = c * CHUNK_TRANSACTIONS;
        final int to = Math.min(transactionCount, from + CHUNK_TRANSACTIONS);
        int scheduled = 0;
        int logical = 0;
        int empty = 0;
        chunk.readyCount = 0;
        chunk.independentCount = 0;
        for (int i = from; i < to; i++)
        {
            final int t = serialOrder.transactionAt(i);
            final int first = log.firstOperation(t);
            final int count = log.operationCount(t);
            final int end = first + count;
            empty += count == 0 ? 1 : 0;
            logical += Math.max(0, count - 1);
            boolean shared = false;
            for (int o = first; o < end; o++)
            {
                int cross = 0;
                if (hasTarget(log.type(o)))
                {
                    final int flags = sealEntry(c, o);
                    cross += (flags & (CROSS | ALIAS)) == CROSS ? 1 : 0;
                    shared |= (flags & SHARED) != 0;
                }
                final int x0 = log.extraStart(o);
                final int x1 = x0 + graphExtras(log, o);
                for (int x = x0; x < x1; x++)
                {
                    final int flags = sealEntry(c, ops + x);
                    cross += (flags & (CROSS | ALIAS)) == CROSS ? 1 : 0;
                    shared |= (flags & SHARED) != 0;
                }
                machine.set(o, cross + (o > first ? 1 : 0));
            }
            dependent[t] = (byte)(shared ? 1 : 0);
            if (!shared)
            {
                chunk.addIndependent(t);
                continue;
            }
            scheduled += count;
            for (int o = first; o < end; o++)
            {
                if (machine.isReady(o))
                {
                    chunk.addReady(o);
                }
            }
        }
        chunk.scheduled = scheduled;
        chunk.logical = logical;
        chunk.empty = empty;
    }

    /** Copies entry {@code e}'s record from its shard (unless built in place): @return its flags. */
    private int sealEntry(final int c, final int e)
    {
        final int[] entries = this.entries;
        final int er = e * E_STRIDE;
        if (builtByOne)
        {
            return entries[er + E_OP] >>> FLAG_SHIFT;
        }
        final int position = entryPosition[e];
        final KeyShard ks = shards[position & shardMask];
        final int r = (ks.chunkBase[c] + (position >>> shardBits)) * E_STRIDE;
        final int[] records = ks.records;
        final int op = records[r + E_OP];
        entries[er + E_LOCATION] = records[r + E_LOCATION];
        entries[er + E_OP] = op;
        entries[er + E_NEXT] = records[r + E_NEXT];
        entries[er + E_PREV] = records[r + E_PREV];
        return op >>> FLAG_SHIFT;
    }

    /** One thread, after every {@link #sealChunk}: totals of the schedule. */
    public void finishSeal()
    {
        int scheduled = 0;
        int alone = 0;
        int logical = 0;
        int empty = 0;
        for (int c = 0; c < chunks; c++)
        {
            final Chunk chunk = chunkData[c];
            scheduled += chunk.scheduled;
            alone += chunk.independentCount;
            logical += chunk.logical;
            empty += chunk.empty;
        }
        sealed = true;
        scheduledOperations = scheduled;
        independentTransactions = alone;
        logicalEdges = logical;
        emptyTransactions = empty;
    }

    /** @return true once {@link #finishSeal()} ran for this batch: entry records are valid. */
    public boolean isSealed()
    {
        return sealed;
    }

    /** @return the number of operations chunk {@code c} found ready at the start. */
    public int readyCount(final int c)
    {
        return chunkData[c].readyCount;
    }

    /** @return the {@code i}-th operation chunk {@code c} found ready at the start. */
    public int readyOperation(final int c, final int i)
    {
        return chunkData[c].ready[i];
    }

    /** @return the number of independent transactions of chunk {@code c}. */
    public int independentCount(final int c)
    {
        return chunkData[c].independentCount;
    }

    /** @return the {@code i}-th independent transaction of chunk {@code c}. */
    public int independentTransaction(final int c, final int i)
    {
        return chunkData[c].independent[i];
    }

    /** @return true if transaction {@code t} is independent (sealed). */
    public boolean isIndependent(final int t)
    {
        return dependent[t] == 0;
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
        return serialOrder.rankOf(t);
    }

    /** @return the transaction at serial position {@code i}. */
    public int serialTransaction(final int i)
    {
        return serialOrder.transactionAt(i);
    }

    /** @return the number of distinct (table, key) pairs the batch touches. */
    public int keyCount()
    {
        return keyCount;
    }

    /** @return the number of keys of shard {@code s}. */
    public int shardKeyCount(final int s)
    {
        return shards[s].keyCount;
    }

    /** @return the key reference of the {@code i}-th key of shard {@code s}. */
    public int keyReference(final int s, final int i)
    {
        return (i << shardBits) | s;
    }

    /** @return where key {@code k}'s committed value lives, as its directory told (a key reference). */
    public int keyLocation(final int k)
    {
        return keyField(k, KeyShard.LOCATION);
    }

    /** @return the first entry of key {@code k}'s chain in serial order. */
    public int keyFirstEntry(final int k)
    {
        return keyField(k, KeyShard.HEAD);
    }

    /** @return the last writing entry of key {@code k} in serial order, or {@link #NONE}. */
    public int keyLastWrite(final int k)
    {
        return keyField(k, KeyShard.LAST_WRITE);
    }

    /** @return true if key {@code k} is touched by one transaction only: its entries are in place. */
    public boolean isKeyInPlace(final int k)
    {
        return keyField(k, KeyShard.FIRST_TXN) != KeyShard.MULTI;
    }

    private int keyField(final int k, final int field)
    {
        return shards[k & shardMask].keys[(k >>> shardBits) * KeyShard.K_STRIDE + field];
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

    /** @return the entry after {@code e} in its key's chain, or {@link #NONE} (sealed). */
    public int nextEntry(final int e)
    {
        return entries[e * E_STRIDE + E_NEXT];
    }

    /** @return the last writing entry before {@code e} in its key's chain, or {@link #NONE} (sealed). */
    public int previousWrite(final int e)
    {
        return entries[e * E_STRIDE + E_PREV];
    }

    /**
     * @return the entry {@code e} reads through: itself, or for an access merged into an earlier
     *         entry of the same operation on the same key, that entry (sealed).
     */
    public int accessEntry(final int e)
    {
        final int r = e * E_STRIDE;
        return (entries[r + E_OP] & (ALIAS << FLAG_SHIFT)) != 0 ? entries[r + E_NEXT] : e;
    }

    /** @return where entry {@code e}'s key keeps its committed value (sealed). */
    public int entryLocation(final int e)
    {
        return entries[e * E_STRIDE + E_LOCATION];
    }

    /** @return the operation entry {@code e} belongs to (sealed). */
    public int entryOperation(final int e)
    {
        return entries[e * E_STRIDE + E_OP] & OP_MASK;
    }

    /** @return the transaction entry {@code e} belongs to (sealed). */
    public int entryTransaction(final int e)
    {
        return log.transactionOf(entryOperation(e));
    }

    /** @return entry {@code e}'s role, one of the {@code ROLE_*} constants (sealed). */
    public int entryRoles(final int e)
    {
        return (entries[e * E_STRIDE + E_OP] >>> FLAG_SHIFT) & ROLES;
    }

    /** @return true if entry {@code e} may create a version (a target write or a CHOOSE candidate). */
    public boolean isWrite(final int e)
    {
        final int flags = entries[e * E_STRIDE + E_OP] >>> FLAG_SHIFT;
        return (flags & ALIAS) == 0 && (flags & WRITE_ROLES) != 0;
    }

    /** @return true if entry {@code e} depends on a write of another transaction (a TD or PD edge). */
    public boolean isCrossTransaction(final int e)
    {
        return ((entries[e * E_STRIDE + E_OP] >>> FLAG_SHIFT) & (CROSS | ALIAS)) == CROSS;
    }

    /**
     * @return true if entry {@code e}'s key is touched by one transaction only: no versions
     *         (for a merged entry, ask its {@link #accessEntry}).
     */
    public boolean isInPlace(final int e)
    {
        return (entries[e * E_STRIDE + E_OP] & (SHARED << FLAG_SHIFT)) == 0;
    }

    /** @return operation {@code o}'s target entry, or {@link #NONE} for a CHOOSE, an ADD or a DEFER. */
    public int targetEntry(final int o)
    {
        return hasTarget(log.type(o)) ? o : NONE;
    }

    /**
     * @return true if an operation of type {@code type} has a target entry: not a CHOOSE (its
     *         candidates are its entries) nor an ADD (it commutes with every other access of its
     *         key, and takes no part in the graph) nor a DEFER (applied once the batch has
     *         committed, in serial order; nothing in the batch reads its table) nor a STALE_READ
     *         or STALE_CHOOSE (they read the committed values as of the batch start).
     */
    private static boolean hasTarget(final int type)
    {
        return type != CHOOSE && type != ADD && type != DEFER && type != STALE_READ && type != STALE_CHOOSE;
    }

    /**
     * @return how many of operation {@code o}'s extras (parameters, candidates) are entries of
     *         the graph: all but a STALE_CHOOSE's, whose candidates are read as of the batch
     *         start and take no part in it.
     */
    private static int graphExtras(final TransactionLog log, final int o)
    {
        return log.type(o) == STALE_CHOOSE ? 0 : log.extraCount(o);
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

    private static int capacityFor(final int n)
    {
        return Math.max(16, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    }

    /** One chunk's buckets (its entries, by shard, in serial order) and its sealed lists; owned by its scatterer, then its sealer. */
    private static final class Chunk
    {
        final int[][] buckets;
        final int[] sizes;
        int[] ready = new int[64];
        int readyCount;
        int[] independent = new int[64];
        int independentCount;
        int scheduled;
        int logical;
        int empty;

        Chunk(final int shards)
        {
            buckets = new int[shards][];
            sizes = new int[shards];
            for (int s = 0; s < shards; s++)
            {
                buckets[s] = new int[64];
            }
        }

        void clearBuckets()
        {
            Arrays.fill(sizes, 0);
        }

        /** @return the entry's index in the bucket. */
        int add(final int shard, final int entry)
        {
            final int n = sizes[shard];
            int[] bucket = buckets[shard];
            if (n == bucket.length)
            {
                bucket = buckets[shard] = Arrays.copyOf(bucket, n * 2);
            }
            bucket[n] = entry;
            sizes[shard] = n + 1;
            return n;
        }

        void addReady(final int o)
        {
            if (readyCount == ready.length)
            {
                ready = Arrays.copyOf(ready, readyCount * 2);
            }
            ready[readyCount++] = o;
        }

        void addIndependent(final int t)
        {
            if (independentCount == independent.length)
            {
                independent = Arrays.copyOf(independent, independentCount * 2);
            }
            independent[independentCount++] = t;
        }
    }

    /**
     * One shard's touched keys and its entries' records (in the entry record format, by position
     * in the shard), in records of ints; owned by the shard's builder, read by sealers and
     * collapsers after it.
     */
    private static final class KeyShard
    {
        static final int MULTI = -2;
        // key record: first and last entry of the chain, where the last entry's record starts,
        // last write and its transaction, first transaction (MULTI once a second one touches
        // the key), entries, where the committed value lives
        static final int HEAD = 0;
        static final int TAIL = 1;
        static final int TAIL_RECORD = 2;
        static final int LAST_WRITE = 3;
        static final int LAST_WRITE_TXN = 4;
        static final int FIRST_TXN = 5;
        static final int COUNT = 6;
        static final int LOCATION = 7;
        static final int K_STRIDE = 8;

        int[] keys = new int[64 * K_STRIDE];
        int keyCount;
        int[] records = new int[64 * E_STRIDE];
        int entryCount;
        int[] chunkBase = new int[16];

        int chainEntries;
        int temporalEdges;
        int parametricEdges;
        int writeEntries;
        int maxLength;
        long sumSquares;
        int singleEntryKeys;
        long tableMask;

        void reset(final int chunks)
        {
            keyCount = 0;
            entryCount = 0;
            temporalEdges = 0;
            parametricEdges = 0;
            writeEntries = 0;
            tableMask = 0;
            if (chunkBase.length < chunks)
            {
                chunkBase = new int[capacityFor(chunks)];
            }
        }

        void addKey(final int t, final int location)
        {
            final int k = keyCount;
            if ((k + 1) * K_STRIDE > keys.length)
            {
                keys = Arrays.copyOf(keys, keys.length * 2);
            }
            final int base = k * K_STRIDE;
            keys[base + HEAD] = NONE;
            keys[base + TAIL] = NONE;
            keys[base + TAIL_RECORD] = NONE;
            keys[base + LAST_WRITE] = NONE;
            keys[base + LAST_WRITE_TXN] = NONE;
            keys[base + FIRST_TXN] = t;
            keys[base + COUNT] = 0;
            keys[base + LOCATION] = location;
            keyCount = k + 1;
        }

        int newRecord()
        {
            final int p = entryCount;
            if ((p + 1) * E_STRIDE > records.length)
            {
                records = Arrays.copyOf(records, records.length * 2);
            }
            entryCount = p + 1;
            return p;
        }

        void finish()
        {
            final int n = keyCount;
            int total = 0;
            int max = 0;
            long squares = 0;
            int singles = 0;
            for (int k = 0; k < n; k++)
            {
                final int length = keys[k * K_STRIDE + COUNT];
                total += length;
                max = Math.max(max, length);
                squares += (long)length * length;
                singles += length == 1 ? 1 : 0;
            }
            chainEntries = total;
            maxLength = max;
            sumSquares = squares;
            singleEntryKeys = singles;
        }
    }
}
