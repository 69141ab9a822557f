package io.transnfv.engine.state;

import io.transnfv.engine.state.store.KeyBatch;
import io.transnfv.engine.state.store.StateBackend;
import io.transnfv.engine.state.store.TableStores;
import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.tpg.graph.KeyDirectory;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.graph.TouchedKeyTable;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.ActivityClock;
import io.transnfv.vnf.instance.ChangeTrackingState;
import io.transnfv.vnf.instance.ChangedKeyLog;
import io.transnfv.vnf.instance.ExpiryQueue;
import io.transnfv.vnf.instance.SortedKeyVisit;
import io.transnfv.vnf.instance.TableCatalog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Committed state, kept in place, plus one batch's versions. Every table's committed values
 * live in {@value #SHARDS} {@link TableShard}s chosen by the top bits of the pair's
 * {@link TouchedKeyTable#hash hash}, the bits that also choose the pair's shard of the task
 * precedence graph: whoever builds a graph shard touches, and later collapses, exactly the
 * table shards under it, so building and collapsing run in parallel without sharing a map.
 *
 * <pre>
 *  build (per graph shard)  the table is the graph's {@link KeyDirectory}: one probe per access
 *                           finds the key's slot (inserting it if absent) and its mark, which
 *                           tells whether the batch has touched it; the graph keeps the slot's
 *                           location, so binding a key to its value costs nothing more (slots
 *                           do not move while a batch runs: a shard that would have to grow
 *                           mid-batch restarts the batch after growing, see {@link #touch})
 *  execute                  in-place key (one transaction's): read/write the committed value at
 *                           its location, keeping the old value for an undo;
 *                           versioned key: a version per writing entry, read by walking the
 *                           previous-write links back to a live version or to the committed value
 *  collapse (per shard)     versioned key := its last live version; a key left at the table's
 *                           initial value is deleted once the shard's keys are all collapsed
 * </pre>
 *
 * <pre>
 *  key k (versioned):  committed ◄── entry 17 ◄── entry 4 ◄── entry 31     previous writes
 *                                    LIVE 7       REMOVED     SKIPPED
 *  read at 31's previous (4)  ──► 4 removed ──► 17 live ──► 7
 * </pre>
 *
 * <p>Versions and marks are stamped with the batch's epoch, so nothing is cleared between
 * batches: a version of an earlier batch reads as "not yet written". Nothing per key survives
 * a batch except the committed value.
 *
 * <p>Stores: a table whose committed state lives in a {@link StateBackend} (Chronicle Map, Redis)
 * keeps in its shards only the keys of the batch in flight: {@link #bindStores} loads a batch's
 * touched keys into them before the batch, {@link #releaseStores} writes the changed ones back
 * and empties the shards after it. Between the two the table is a heap table like any other;
 * outside them, committed-state accesses to it go to its backend.
 *
 * <p>Checkpoints ({@link #trackChanges}): each table shard logs the keys whose committed value
 * changed in a {@link ChangedKeyLog} — the collapse logs its shard's keys whose last live value
 * differs from the value before the batch, {@link #put} (housekeeping, ADD commits, batches run
 * in serial order, restores) the keys it changes — so an incremental checkpoint visits the keys
 * changed, not the table. Without checkpoints the logs are null and nothing is logged.
 *
 * <p>Threads: {@link #beginBatch}, {@link #endBatch}, {@link #abandonBatch}, {@link #bindStores},
 * {@link #releaseStores} and the committed-
 * state methods ({@link #get}, {@link #put}, {@link #forEach}) by one coordinating thread;
 * {@link #touch} and {@link #collapseShard} by one thread per graph shard at once; the version
 * methods by executors, each entry written by the one executor that runs its operation and read
 * only after a happens-before edge from that write (the graph's dependencies give it).
 */
public final class MultiVersionStateTable implements StateStore, ChangeTrackingState, KeyDirectory
{
    /** log2 of the state shards; graphs may have at most this many shard bits. */
    public static final int SHARD_BITS = 4;
    /** Shards per table. */
    public static final int SHARDS = 1 << SHARD_BITS;
    private static final int KIND_MASK = 3;
    private static final int LIVE = 1;
    private static final int SKIPPED = 2;
    private static final int REMOVED = 3;
    private static final int KIND_BITS = 2;
    private static final int MAX_EPOCH = 1 << (31 - KIND_BITS);
    private static final VarHandle STATES = MethodHandles.arrayElementVarHandle(int[].class);
    private static final TableShard[] NO_SHARDS = new TableShard[0];

    private final TableCatalog catalog;
    private final long[] initialValues;
    private final TableShard[][] tables;
    /** Every table shard by location prefix: table × {@value #SHARDS} + shard. */
    private final TableShard[] byPrefix;
    private final int slotBits;
    private final int slotMask;
    private final boolean[] full;

    private TaskPrecedenceGraph graph;
    private long[] versionValue = new long[256];
    private int[] versionState = new int[256];
    private int epoch;
    private int stamp;
    private boolean batchOpen;
    private final long[] collapsed = new long[SHARDS * 8];
    private Deletions[] deletions = new Deletions[0];
    /** Per table, its expiry index if it declares an activity clock, else null. */
    private final ExpiryQueue[] expiry;

    /** Per table, the store its committed state lives in between batches, or null for the heap. */
    private final StateBackend[] backends;
    /** The stores, each once. */
    private final StateBackend[] distinctBackends;
    /** Per store, the keys a batch binds (values: as loaded). */
    private final KeyBatch[] bound;
    /** Per store, the keys a batch changed (values: to write back). */
    private final KeyBatch[] changed;
    /** Per table: its store's index in {@link #distinctBackends}, and its own index in that store's batches. */
    private final int[] backendOf;
    private final int[] slotInBatch;
    /** Per stored table: the keys bound so far this batch (key to index), else null. */
    private final Long2LongHashMap[] boundKeys;
    /** Per stored table: its committed entries (kept here, so progress reads never reach the store). */
    private final long[] storedSizes;
    private final TableStores stores;
    /** True while stored tables exist and no batch is bound: committed-state accesses check their table's store. */
    private boolean storesUnbound;
    private boolean storesBound;
    /** The stored table a {@link #forEach} visits (-1 for none), its keys in order and their values as visited. */
    private int visitTable = -1;
    private long[] visitKeys;
    private long[] visitValues;

    /** @param catalog the tables, by dense global id, every one in the heap; its size must not change afterwards. */
    public MultiVersionStateTable(final TableCatalog catalog)
    {
        this(catalog, TableStores.heap(catalog));
    }

    /**
     * @param catalog the tables, by dense global id; its size must not change afterwards.
     * @param stores  per table, the store its committed state lives in (owned by the caller, who
     *                closes it after this table's last use).
     */
    public MultiVersionStateTable(final TableCatalog catalog, final TableStores stores)
    {
        this.catalog = catalog;
        final int n = catalog.size();
        this.initialValues = new long[n];
        final int prefixes = Math.max(1, n) * SHARDS;
        this.slotBits = 31 - (32 - Integer.numberOfLeadingZeros(prefixes - 1));
        this.slotMask = (1 << slotBits) - 1;
        this.tables = new TableShard[n][SHARDS];
        this.byPrefix = new TableShard[prefixes];
        this.full = new boolean[prefixes];
        this.expiry = new ExpiryQueue[n];
        for (int t = 0; t < n; t++)
        {
            initialValues[t] = catalog.spec(t).initialValue();
            for (int s = 0; s < SHARDS; s++)
            {
                // the FREE_KEY slot is slot `capacity`: capacity + 1 slots must fit the slot bits
                // a stored table's shards hold one batch's keys, not its expected entries
                final long expected = stores.backend(t) == null ? catalog.expectedEntries(t) / SHARDS : 0;
                tables[t][s] = new TableShard(t, initialValues[t], 1 << (slotBits - 1), expected);
                byPrefix[t * SHARDS + s] = tables[t][s];
            }
            final ActivityClock clock = catalog.spec(t).activity();
            if (clock != null)
            {
                expiry[t] = new ExpiryQueue(clock);
                if (stores.backend(t) == null)
                {
                    for (final TableShard shard : tables[t])
                    {
                        shard.recordInserts();
                    }
                }
            }
        }
        this.stores = stores;
        this.backends = new StateBackend[n];
        this.backendOf = new int[n];
        this.slotInBatch = new int[n];
        this.boundKeys = new Long2LongHashMap[n];
        this.storedSizes = new long[n];
        this.distinctBackends = stores.backends().toArray(new StateBackend[0]);
        this.bound = new KeyBatch[distinctBackends.length];
        this.changed = new KeyBatch[distinctBackends.length];
        for (int b = 0; b < distinctBackends.length; b++)
        {
            int count = 0;
            final int[] mine = new int[n];
            for (int t = 0; t < n; t++)
            {
                if (stores.backend(t) == distinctBackends[b])
                {
                    backends[t] = distinctBackends[b];
                    backendOf[t] = b;
                    slotInBatch[t] = count;
                    mine[count++] = t;
                    boundKeys[t] = new Long2LongHashMap(1024, -1L);
                    storedSizes[t] = distinctBackends[b].size(t);
                    if (expiry[t] != null)
                    {
                        // a warm store's keys join the expiry index as the heap's inserts do
                        for (final long key : distinctBackends[b].keys(t))
                        {
                            expiry[t].inserted(key);
                        }
                    }
                }
            }
            bound[b] = new KeyBatch(Arrays.copyOf(mine, count));
            changed[b] = new KeyBatch(Arrays.copyOf(mine, count));
        }
        this.storesUnbound = distinctBackends.length > 0;
    }

    /** @return the stores the tables live in (every table in the heap: no backends). */
    public TableStores stores()
    {
        return stores;
    }

    /** @return the catalogue of the tables held. */
    public TableCatalog catalog()
    {
        return catalog;
    }

    // ---------------------------------------------------------------- committed state

    /** Committed value of {@code key} (the table's initial value if absent). */
    @Override
    public long get(final int table, final long key)
    {
        if (storesUnbound && backends[table] != null)
        {
            return backends[table].get(table, key);
        }
        final long hash = TouchedKeyTable.hash(table, key);
        return shardOf(table, hash).get(key, hash);
    }

    /**
     * Reads the home slot of every key the batch's operations name (their targets, parameters
     * and candidates) before a serial schedule applies them one at a time. These loads do not
     * depend on each other, so the processor overlaps their cache misses, where the schedule
     * takes them one by one, each behind the last operation's function; the schedule's probes
     * then find the slots in the cache. Keys of tables held in an external store are skipped.
     * The oracle, which meets its packets one at a time, cannot do this.
     *
     * @return a value that depends on every slot read, so that the reads are not optimised away.
     */
    public long prefetch(final TransactionLog log)
    {
        long sink = 0;
        for (int o = 0, n = log.operationCount(); o < n; o++)
        {
            sink += homeSlotKey(log.table(o), log.key(o));
            for (int x = log.extraStart(o), end = x + log.extraCount(o); x < end; x++)
            {
                sink += homeSlotKey(log.extraTable(x), log.extraKey(x));
            }
        }
        return sink;
    }

    private long homeSlotKey(final int table, final long key)
    {
        if (storesUnbound && backends[table] != null)
        {
            return 0;
        }
        final long hash = TouchedKeyTable.hash(table, key);
        return shardOf(table, hash).homeSlotKey(hash);
    }

    /** Sets the committed value; only between batches. The initial value deletes the entry. */
    @Override
    public void put(final int table, final long key, final long value)
    {
        requireNoBatch();
        if (storesUnbound && backends[table] != null)
        {
            putStoredSlowPath(table, key, value);
            return;
        }
        final long hash = TouchedKeyTable.hash(table, key);
        final TableShard shard = shardOf(table, hash);
        final ChangedKeyLog changes = shard.changes;
        if (changes != null && shard.get(key, hash) != value)
        {
            changes.changed(key);
        }
        shard.put(key, hash, value);
    }

    private void putStoredSlowPath(final int table, final long key, final long value)
    {
        final StateBackend backend = backends[table];
        final long initial = initialValues[table];
        final long old = backend.get(table, key);
        backend.put(table, key, value);
        final ChangedKeyLog changes = shardOf(table, TouchedKeyTable.hash(table, key)).changes;
        if (changes != null && old != value)
        {
            changes.changed(key);
        }
        if (visitTable == table)
        {
            final int i = Arrays.binarySearch(visitKeys, key);
            if (i >= 0)
            {
                visitValues[i] = value;
            }
        }
        storedSizes[table] += (value != initial ? 1 : 0) - (old != initial ? 1 : 0);
        if (old == initial && value != initial && expiry[table] != null)
        {
            expiry[table].inserted(key);
        }
    }

    @Override
    public void forEach(final int table, final EntryVisitor visitor)
    {
        requireNoBatch();
        if (storesUnbound && backends[table] != null)
        {
            forEachStored(table, visitor);
            return;
        }
        // a fresh snapshot: the visitor may put into this table, or visit another one
        final long[] keys = new long[size(table)];
        int used = 0;
        for (final TableShard shard : tables[table])
        {
            used = shard.keys(keys, used);
        }
        SortedKeyVisit.visit(keys, used, table, this, initialValues[table], visitor);
    }

    /** Where {@link #pageInSlotOrder} has visited every slot of a table. */
    public static final long END_OF_PAGES = -1L;

    /**
     * @return true if {@code table}'s pages come in slot order ({@link #pageInSlotOrder}): a table
     *         held in this heap, not in an external store.
     */
    public boolean pagesInSlotOrder(final int table)
    {
        return !(storesUnbound && backends[table] != null);
    }

    /**
     * One page of {@code table}'s entries in slot order, between batches, with work bounded by
     * {@code maxSlots} home slots whatever the table's size. The cursor is a shard and a slot
     * counter advanced in reverse-binary order (Redis' {@code SCAN}): a shard that grows between
     * two pages doubles its slots, and a key's home slot in the larger map is one the counter
     * has not passed yet exactly when its home slot in the smaller one was not passed, so every
     * entry present from the first page to the last is returned, once, and no entry twice
     * (shards never shrink). An entry added or removed meanwhile may or may not appear.
     *
     * <pre>
     *  cursor = shard &lt;&lt; 32 | counter      counter: 000 100 010 110 001 101 011 111 (3 slot bits)
     * </pre>
     *
     * @param cursor   0 for the first page, then what the previous page returned.
     * @param limit    the most entries to add (more only when more keys than that share one home slot).
     * @param maxSlots the most home slots to visit: the page may hold fewer than {@code limit}.
     * @param page     receives the entries.
     * @return the cursor of the next page, or {@link #END_OF_PAGES}.
     */
    public long pageInSlotOrder(final int table, final long cursor, final int limit, final int maxSlots, final StatePage page)
    {
        requireNoBatch();
        if (!pagesInSlotOrder(table))
        {
            throw new IllegalStateException("table " + table + " is held in an external store: page it in key order");
        }
        final TableShard[] shards = tables[table];
        int shard = (int)(cursor >>> 32);
        int counter = (int)cursor;
        int visited = 0;
        while (shard < shards.length)
        {
            if (page.size() >= limit || visited >= maxSlots)
            {
                return ((long)shard << 32) | (counter & 0xFFFF_FFFFL);
            }
            final TableShard s = shards[shard];
            final int mask = s.capacity() - 1;
            final int before = page.size();
            s.bucketEntries(counter & mask, page);
            if (page.size() > limit && before > 0)
            {
                // the slot's keys go on the next page, whole
                page.truncate(before);
                return ((long)shard << 32) | (counter & 0xFFFF_FFFFL);
            }
            visited++;
            counter = Integer.reverse(Integer.reverse(counter | ~mask) + 1);
            if (counter == 0)
            {
                shard++;
            }
        }
        return END_OF_PAGES;
    }

    /**
     * A stored table's entries in key order, their values read in one {@link StateBackend#load}
     * (Redis: one round trip, not one per key) before the first is visited.
     */
    private void forEachStored(final int table, final EntryVisitor visitor)
    {
        final long[] keys = backends[table].keys(table);
        Arrays.sort(keys);
        final KeyBatch snapshot = new KeyBatch(new int[] {table});
        for (final long key : keys)
        {
            snapshot.add(0, key, 0L);
        }
        backends[table].load(snapshot);
        final long initial = initialValues[table];
        final long[] values = snapshot.values(0);
        // the visitor may put into this table: those puts reach the snapshot too, so every entry is
        // visited with its value at its visit, as in the heap (the visit in progress is saved: visits nest)
        final int outerTable = visitTable;
        final long[] outerKeys = visitKeys;
        final long[] outerValues = visitValues;
        visitTable = table;
        visitKeys = keys;
        visitValues = values;
        try
        {
            for (int i = 0; i < keys.length; i++)
            {
                if (values[i] != initial)
                {
                    visitor.visit(keys[i], values[i]);
                }
            }
        }
        finally
        {
            visitTable = outerTable;
            visitKeys = outerKeys;
            visitValues = outerValues;
        }
    }

    /**
     * Visits the due entries through the table's expiry index (the same {@link ExpiryQueue} the
     * serial oracle's store uses): the keys the shards inserted since the last sweep join the
     * index first, so the index sees every key whatever batch or shard inserted it.
     */
    @Override
    public void forEachDue(final int table, final long cutoff, final EntryVisitor visitor)
    {
        requireNoBatch();
        final ExpiryQueue queue = expiry[table];
        if (queue == null)
        {
            forEach(table, visitor);
            return;
        }
        for (final TableShard shard : backends[table] != null ? NO_SHARDS : tables[table])
        {
            final long[] keys = shard.inserted();
            final int n = shard.insertedCount();
            for (int i = 0; i < n; i++)
            {
                queue.inserted(keys[i]);
            }
            shard.clearInserted();
        }
        queue.visitDue(cutoff, table, this, initialValues[table], visitor);
    }

    /** @return {@code table}'s expiry index, or null if it declares no activity clock. */
    public ExpiryQueue expiry(final int table)
    {
        return expiry[table];
    }

    /** @return the number of committed entries of {@code table} (keys not at the initial value). */
    public int size(final int table)
    {
        if (backends[table] != null)
        {
            return (int)Math.min(Integer.MAX_VALUE, storedSizes[table]);
        }
        int n = 0;
        for (final TableShard shard : tables[table])
        {
            n += shard.size();
        }
        return n;
    }

    // ---------------------------------------------------------------- change tracking (checkpoints)

    @Override
    public boolean trackChanges()
    {
        requireNoBatch();
        if (tables.length == 0 || tables[0][0].changes != null)
        {
            return true;
        }
        for (int t = 0; t < tables.length; t++)
        {
            for (final TableShard shard : tables[t])
            {
                shard.changes = new ChangedKeyLog(ChangedKeyLog.MIN_LIMIT / SHARDS);
            }
            forgetChanges(t);
        }
        return false;
    }

    @Override
    public int changedKeyCount(final int table)
    {
        int n = 0;
        for (final TableShard shard : tables[table])
        {
            final ChangedKeyLog changes = shard.changes;
            if (changes == null || changes.overflowed())
            {
                return -1;
            }
            n += changes.size();
        }
        return n;
    }

    @Override
    public void copyChangedKeys(final int table, final long[] out)
    {
        int n = 0;
        for (final TableShard shard : tables[table])
        {
            n = shard.changes.copyTo(out, n);
        }
    }

    @Override
    public void forgetChanges(final int table)
    {
        requireNoBatch();
        final long perShard = size(table) / SHARDS;
        for (final TableShard shard : tables[table])
        {
            if (shard.changes != null)
            {
                shard.changes.reset(perShard);
            }
        }
    }

    /** Heap tables from their shards' slots, stored tables from their store ({@link StateBackend#forEachEntry}). */
    @Override
    public void forEachEntry(final int table, final EntryVisitor visitor)
    {
        requireNoBatch();
        if (storesUnbound && backends[table] != null)
        {
            backends[table].forEachEntry(table, visitor);
            return;
        }
        for (final TableShard shard : tables[table])
        {
            shard.forEach(visitor);
        }
    }

    @Override
    public long changeLogSlots()
    {
        long slots = 0;
        for (final TableShard shard : byPrefix)
        {
            slots += shard == null || shard.changes == null ? 0 : shard.changes.capacity();
        }
        return slots;
    }

    private TableShard shardOf(final int table, final long hash)
    {
        return tables[table][(int)(hash >>> (64 - SHARD_BITS))];
    }

    // ---------------------------------------------------------------- stores

    /**
     * Before a batch of {@code log} (and before {@link #beginBatch(TaskPrecedenceGraph, TransactionLog)}):
     * loads every key the log touches in a stored table, targets and parameters and candidates alike,
     * from its store into the shards, one {@link StateBackend#load} per store (Redis: one round trip).
     * Does nothing when every table is in the heap, or when the batch is bound already (a batch run
     * again after a shard grew). One thread, between batches.
     *
     * @throws io.transnfv.engine.state.store.StateStoreException if a store fails; nothing is bound then.
     */
    public void bindStores(final TransactionLog log)
    {
        if (distinctBackends.length == 0 || storesBound)
        {
            return;
        }
        requireNoBatch();
        for (final KeyBatch batch : bound)
        {
            batch.clear();
        }
        for (int o = 0, n = log.operationCount(); o < n; o++)
        {
            if (!OperationType.picksCandidate(log.type(o)))
            {
                noteTouched(log.table(o), log.key(o));
            }
        }
        for (int e = 0, n = log.extraTotal(); e < n; e++)
        {
            noteTouched(log.extraTable(e), log.extraKey(e));
        }
        try
        {
            for (int b = 0; b < distinctBackends.length; b++)
            {
                distinctBackends[b].load(bound[b]);
            }
        }
        catch (final RuntimeException e)
        {
            forgetBound();
            throw e;
        }
        for (final KeyBatch batch : bound)
        {
            for (int i = 0; i < batch.tableCount(); i++)
            {
                final int t = batch.table(i);
                final long[] keys = batch.keys(i);
                final long[] values = batch.values(i);
                for (int k = 0, n = batch.count(i); k < n; k++)
                {
                    final long hash = TouchedKeyTable.hash(t, keys[k]);
                    shardOf(t, hash).put(keys[k], hash, values[k]);
                }
            }
        }
        storesBound = true;
        storesUnbound = false;
    }

    private void noteTouched(final int table, final long key)
    {
        final Long2LongHashMap keys = boundKeys[table];
        if (keys != null && keys.get(key) == keys.missingValue())
        {
            final int b = backendOf[table];
            keys.put(key, bound[b].add(slotInBatch[table], key, 0L));
        }
    }

    /**
     * After a batch bound by {@link #bindStores} (collapsed, or abandoned and left as before it):
     * writes every bound key whose value changed back to its store, one {@link StateBackend#store}
     * per store, and removes the bound keys from the shards. Does nothing if no batch is bound.
     * One thread, between batches.
     *
     * @throws io.transnfv.engine.state.store.StateStoreException if a store fails: the run must stop
     *         (the store may not hold the batch's writes).
     */
    public void releaseStores()
    {
        if (!storesBound)
        {
            return;
        }
        requireNoBatch();
        for (final KeyBatch batch : changed)
        {
            batch.clear();
        }
        for (int b = 0; b < bound.length; b++)
        {
            final KeyBatch batch = bound[b];
            for (int i = 0; i < batch.tableCount(); i++)
            {
                final int t = batch.table(i);
                final long initial = initialValues[t];
                final ExpiryQueue queue = expiry[t];
                final long[] keys = batch.keys(i);
                final long[] loaded = batch.values(i);
                for (int k = 0, n = batch.count(i); k < n; k++)
                {
                    final long hash = TouchedKeyTable.hash(t, keys[k]);
                    final long value = shardOf(t, hash).get(keys[k], hash);
                    if (value != loaded[k])
                    {
                        changed[b].add(i, keys[k], value);
                        storedSizes[t] += (value != initial ? 1 : 0) - (loaded[k] != initial ? 1 : 0);
                        if (queue != null && loaded[k] == initial)
                        {
                            queue.inserted(keys[k]);
                        }
                    }
                }
            }
        }
        try
        {
            for (int b = 0; b < distinctBackends.length; b++)
            {
                distinctBackends[b].store(changed[b]);
            }
        }
        finally
        {
            forgetBound();
        }
    }

    /** Empties the stored tables' shards of the bound keys; committed-state accesses go to the stores again. */
    private void forgetBound()
    {
        for (final KeyBatch batch : bound)
        {
            for (int i = 0; i < batch.tableCount(); i++)
            {
                final int t = batch.table(i);
                final Long2LongHashMap seen = boundKeys[t];
                final long[] keys = batch.keys(i);
                for (int k = 0, n = batch.count(i); k < n; k++)
                {
                    final long hash = TouchedKeyTable.hash(t, keys[k]);
                    shardOf(t, hash).remove(keys[k], hash);
                    seen.remove(keys[k]);
                }
            }
            batch.clear();
        }
        storesBound = false;
        storesUnbound = true;
    }

    /**
     * Deletes every entry of every stored table (before a checkpoint is restored into them: a
     * warm store may hold more than the checkpoint). One thread, between batches.
     */
    public void clearStores()
    {
        requireNoBatch();
        for (int t = 0; t < backends.length; t++)
        {
            if (backends[t] != null)
            {
                backends[t].clear(t);
                storedSizes[t] = 0;
            }
        }
    }

    /** @return true while a batch's keys are bound ({@link #bindStores} to {@link #releaseStores}). */
    public boolean storesBound()
    {
        return storesBound;
    }

    // ---------------------------------------------------------------- batch layout

    /**
     * Opens a batch of {@code log} over {@code graph}, before the graph begins its batch with this
     * table as its key directory: sizes the versions for the log's entries. Cost: O(1) once
     * warmed up.
     */
    public void beginBatch(final TaskPrecedenceGraph graph, final TransactionLog log)
    {
        requireNoBatch();
        if (graph.shardBits() > SHARD_BITS)
        {
            throw new IllegalArgumentException("a graph of " + graph.shardCount() + " shards needs more than " + SHARDS);
        }
        this.graph = graph;
        if (deletions.length < graph.shardCount())
        {
            final Deletions[] grown = Arrays.copyOf(deletions, graph.shardCount());
            for (int s = deletions.length; s < grown.length; s++)
            {
                grown[s] = new Deletions();
            }
            deletions = grown;
        }
        final int entries = log.operationCount() + log.extraTotal();
        if (versionState.length < entries)
        {
            final int n = Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
            versionValue = new long[n];
            versionState = new int[n];
        }
        batchOpen = true;
    }

    /** A new batch: the epoch moves on (called by the graph before it touches any key). */
    @Override
    public void beginBatch()
    {
        epoch++;
        if (epoch >= MAX_EPOCH)
        {
            // wrapped around: forget every stamp of 2^29 batches ago
            Arrays.fill(versionState, 0);
            for (final TableShard shard : byPrefix)
            {
                shard.clearMarks();
            }
            epoch = 1;
        }
        stamp = epoch << KIND_BITS;
    }

    /**
     * The graph's builder of shard {@code shard} touches (table, key): one probe into the
     * table shard, inserting the key if absent; the first touch of the batch gives the key
     * {@code newId}.
     *
     * @throws ShardFull if the key is absent and its shard has no room left for this batch
     *         without moving slots: the batch must be abandoned and started again after
     *         {@link #growFullShards}.
     */
    @Override
    public long touch(final int shard, final int table, final long key, final long hash, final int newId)
    {
        final int s = (int)(hash >>> (64 - SHARD_BITS));
        final TableShard ts = tables[table][s];
        if (ts.preparedEpoch != epoch)
        {
            // its first touch this batch: no slot of it is bound yet, it may still grow
            ts.prepareForBatch();
            ts.preparedEpoch = epoch;
        }
        if (!ts.hasRoomInBatch() && ts.find(key, hash) == TableShard.MISSING)
        {
            full[table * SHARDS + s] = true;
            throw ShardFull.INSTANCE;
        }
        final int slot = ts.insert(key, hash);
        final long location = (long)((table * SHARDS + s) << slotBits | slot) << 32;
        final long[] marks = ts.marks;
        final long mark = marks[slot];
        if ((int)(mark >>> 32) == epoch)
        {
            return location | (mark & 0xFFFF_FFFFL);
        }
        marks[slot] = (long)epoch << 32 | newId;
        return location | newId;
    }

    /**
     * After a batch abandoned because a shard was full ({@link ShardFull}): grows every full shard
     * so that a batch of {@code entries} accesses fits, and every shard of its table at least by
     * its share. One thread, between batches.
     */
    public void growFullShards(final int entries)
    {
        requireNoBatch();
        for (int p = 0; p < full.length; p++)
        {
            if (full[p])
            {
                full[p] = false;
                final TableShard[] shards = tables[p / SHARDS];
                final int share = entries / SHARDS * 2 + 16;
                for (final TableShard ts : shards)
                {
                    ts.reserve(share);
                }
                byPrefix[p].reserve(Math.max(share, byPrefix[p].capacity() / 2));
            }
        }
    }

    /**
     * Thrown by {@link #touch} when a shard would have to grow mid-batch; preallocated, with no
     * stack trace (it is control flow, rare once the tables have warmed up).
     */
    public static final class ShardFull extends RuntimeException
    {
        private static final long serialVersionUID = 1L;
        static final ShardFull INSTANCE = new ShardFull();

        private ShardFull()
        {
            super("a state shard must grow before the batch can run", null, false, false);
        }
    }

    // ---------------------------------------------------------------- executors

    /** @return the committed value at {@code location} (as {@link #touch} gave it). */
    public long committed(final int location)
    {
        return byPrefix[location >>> slotBits].slots[((location & slotMask) << 1) + 1];
    }

    private void committed(final int location, final long value)
    {
        byPrefix[location >>> slotBits].slots[((location & slotMask) << 1) + 1] = value;
    }

    /**
     * @param e a sealed entry (its access entry, for a merged one).
     * @return the value entry {@code e} sees: its key's committed value in place, or the latest
     *         live version before it, else the committed value.
     */
    public long read(final int e)
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (!graph.isInPlace(e))
        {
            final int stamp = this.stamp;
            int w = graph.previousWrite(e);
            while (w != TaskPrecedenceGraph.NONE)
            {
                final int state = (int)STATES.getAcquire(versionState, w);
                if ((state & ~KIND_MASK) != stamp)
                {
                    throw new IllegalStateException("the version of entry " + w + " was read before it was written");
                }
                if ((state & KIND_MASK) == LIVE)
                {
                    return versionValue[w];
                }
                w = graph.previousWrite(w);
            }
        }
        return committed(graph.entryLocation(e));
    }

    /**
     * Writes {@code value} at entry {@code e} (a writing access entry): a version, or the
     * committed value in place with the old value kept for {@link #undo}.
     */
    public void write(final int e, final long value)
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (graph.isInPlace(e))
        {
            final int location = graph.entryLocation(e);
            versionValue[e] = committed(location);
            versionState[e] = stamp | LIVE;
            committed(location, value);
        }
        else
        {
            versionValue[e] = value;
            STATES.setRelease(versionState, e, stamp | LIVE);
        }
    }

    /** Entry {@code e} (a CHOOSE candidate) creates no version: readers look through it. */
    public void skip(final int e)
    {
        if (!graph.isInPlace(e))
        {
            STATES.setRelease(versionState, e, stamp | SKIPPED);
        }
    }

    /**
     * Removes entry {@code e}'s effect (written or not): a version is removed (readers look
     * through it), an in-place write is undone. A transaction undoes its entries in reverse
     * statement order.
     */
    public void undo(final int e)
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (graph.isInPlace(e))
        {
            if (versionState[e] == (stamp | LIVE))
            {
                committed(graph.entryLocation(e), versionValue[e]);
                versionState[e] = stamp | REMOVED;
            }
        }
        else
        {
            STATES.setRelease(versionState, e, stamp | REMOVED);
        }
    }

    // ---------------------------------------------------------------- end of batch

    /**
     * Collapses every key of graph shard {@code s}: a versioned key takes its last live version,
     * and a key left at the initial value is deleted (after the others: deleting moves slots).
     * Threads collapsing different shards may run at once.
     */
    public void collapseShard(final int s)
    {
        final TaskPrecedenceGraph graph = this.graph;
        final Deletions gone = deletions[s];
        final int n = graph.shardKeyCount(s);
        for (int i = 0; i < n; i++)
        {
            final int k = graph.keyReference(s, i);
            final int location = graph.keyLocation(k);
            final TableShard shard = byPrefix[location >>> slotBits];
            final int slot = location & slotMask;
            final long before = shard.value(slot);
            long value = before;
            final boolean inPlace = graph.isKeyInPlace(k);
            if (!inPlace)
            {
                final int last = graph.keyLastWrite(k);
                if (last != TaskPrecedenceGraph.NONE)
                {
                    value = lastLive(graph, last, value);
                    shard.value(slot, value);
                }
            }
            final ChangedKeyLog changes = shard.changes;
            if (changes != null && (inPlace ? valueBeforeBatch(graph, k, value) : before) != value)
            {
                changes.changed(shard.key(slot));
            }
            if (value == shard.initialValue)
            {
                gone.add(shard, shard.key(slot));
            }
        }
        gone.apply();
        collapsed[s * 8] += n;
    }

    private long lastLive(final TaskPrecedenceGraph graph, final int last, final long committed)
    {
        for (int w = last; w != TaskPrecedenceGraph.NONE; w = graph.previousWrite(w))
        {
            final int state = (int)STATES.getAcquire(versionState, w);
            if (state == (stamp | LIVE))
            {
                return versionValue[w];
            }
        }
        return committed;
    }

    /** @return an in-place key's committed value before the batch: the one its first live write replaced, else {@code now}. */
    private long valueBeforeBatch(final TaskPrecedenceGraph graph, final int k, final long now)
    {
        for (int e = graph.keyFirstEntry(k); e != TaskPrecedenceGraph.NONE; e = graph.nextEntry(e))
        {
            if (versionState[e] == (stamp | LIVE))
            {
                return versionValue[e];
            }
        }
        return now;
    }

    /** Closes the batch once every shard has collapsed. */
    public void endBatch()
    {
        batchOpen = false;
        graph = null;
    }

    /**
     * Discards the batch: every in-place write is undone and keys inserted for it are deleted,
     * so the committed state is as before the batch; versions are forgotten. One thread, after
     * every executor has left. Keys of shards not yet built were never touched, and nothing was
     * written before the graph was sealed.
     */
    public void abandonBatch()
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (graph != null)
        {
            for (int s = 0; s < graph.shardCount(); s++)
            {
                final Deletions gone = deletions[s];
                final int n = graph.shardKeyCount(s);
                for (int i = 0; i < n; i++)
                {
                    final int k = graph.keyReference(s, i);
                    final int location = graph.keyLocation(k);
                    if (graph.isSealed() && graph.isKeyInPlace(k))
                    {
                        restoreFirstWrite(graph, k, location);
                    }
                    final TableShard shard = byPrefix[location >>> slotBits];
                    final int slot = location & slotMask;
                    if (shard.value(slot) == shard.initialValue)
                    {
                        gone.add(shard, shard.key(slot));
                    }
                }
                gone.apply();
            }
        }
        batchOpen = false;
        this.graph = null;
    }

    /** An in-place key's first live write kept the value from before the batch: put it back. */
    private void restoreFirstWrite(final TaskPrecedenceGraph graph, final int k, final int location)
    {
        for (int e = graph.keyFirstEntry(k); e != TaskPrecedenceGraph.NONE; e = graph.nextEntry(e))
        {
            if (versionState[e] == (stamp | LIVE))
            {
                committed(location, versionValue[e]);
                return;
            }
        }
    }

    /** @return true between {@link #beginBatch(TaskPrecedenceGraph, TransactionLog)} and {@link #endBatch()} / {@link #abandonBatch()}. */
    public boolean batchOpen()
    {
        return batchOpen;
    }

    /**
     * @return bytes the table shards' slot and mark arrays have taken so far (every allocation,
     *         the first ones included): what the committed state cost to grow. A run reports it
     *         per packet beside its threads' allocation, which it is part of.
     */
    public long bytesGrown()
    {
        long bytes = 0;
        for (final TableShard shard : byPrefix)
        {
            bytes += shard == null ? 0 : shard.bytesAllocated;
        }
        return bytes;
    }

    /** @return keys collapsed by every batch so far (cost follows touched keys). */
    public long keysCollapsed()
    {
        long n = 0;
        for (int s = 0; s < SHARDS; s++)
        {
            n += collapsed[s * 8];
        }
        return n;
    }

    private void requireNoBatch()
    {
        if (batchOpen)
        {
            throw new IllegalStateException("a batch is open: committed state is only changed between batches");
        }
    }

    /** Keys one collapser deletes once its shard is collapsed; owned by that thread. */
    private static final class Deletions
    {
        private TableShard[] shard = new TableShard[16];
        private long[] key = new long[16];
        private int count;

        void add(final TableShard from, final long k)
        {
            if (count == key.length)
            {
                shard = Arrays.copyOf(shard, count * 2);
                key = Arrays.copyOf(key, count * 2);
            }
            shard[count] = from;
            key[count] = k;
            count++;
        }

        void apply()
        {
            for (int i = 0; i < count; i++)
            {
                final TableShard ts = shard[i];
                ts.remove(key[i], TouchedKeyTable.hash(ts.table, key[i]));
                shard[i] = null;
            }
            count = 0;
        }
    }
}
