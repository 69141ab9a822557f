package io.transnfv.engine.state;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.graph.TouchedKeyTable;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.instance.SortedKeyVisit;
import io.transnfv.vnf.instance.TableCatalog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Committed state, kept in place, plus one batch's versions. Every table's committed values
 * live in {@value #SHARDS} {@link TableShard}s chosen by the top bits of the pair's
 * {@link TouchedKeyTable#hash hash}, the bits that also choose the pair's shard of the task
 * precedence graph: whoever builds a graph shard binds, and later collapses, exactly the
 * committed shards under it, so binding and collapsing run in parallel without sharing a map.
 *
 * <pre>
 *  bind (per graph shard)   touched key ──► (table shard, value index): one probe, inserting a
 *                           key that will be written; a read-only absent key reads the initial
 *  execute                  in-place entry (key of one transaction): read/write the committed
 *                           value at its index, saving the old value for an undo;
 *                           versioned entry: a version per writing entry, read by walking the
 *                           previous-write links back to a live version or to the committed value
 *  collapse (per shard)     versioned key := its last live version; a key left at the table's
 *                           initial value is deleted
 * </pre>
 *
 * <pre>
 *  key k (versioned):  committed ◄── entry 17 ◄── entry 4 ◄── entry 31     previous writes
 *                                    LIVE 7       REMOVED     SKIPPED
 *  read at 31's previous (4)  ──► 4 removed ──► 17 live ──► 7
 * </pre>
 *
 * <p>A version's state is stamped with the batch's epoch, so nothing is cleared between
 * batches: a state from an earlier batch reads as "not yet written". Nothing per key survives
 * a batch except the committed value.
 *
 * <p>Threads: {@link #beginBatch}, {@link #endBatch}, {@link #abandonBatch} and the committed-
 * state methods ({@link #get}, {@link #put}, {@link #forEach}) by one coordinating thread;
 * {@link #bindShard} and {@link #collapseShard} by one thread per graph shard at once; the
 * version methods by executors, each entry written by the one executor that runs its operation
 * and read only after a happens-before edge from that write (the graph's dependencies give it).
 */
public final class MultiVersionStateTable implements StateStore, StateMaintenance
{
    /** log2 of the committed shards per table; graphs may have at most this many shard bits. */
    public static final int SHARD_BITS = 6;
    /** Committed shards per table. */
    public static final int SHARDS = 1 << SHARD_BITS;

    private static final int KIND_MASK = 3;
    private static final int LIVE = 1;
    private static final int SKIPPED = 2;
    private static final int REMOVED = 3;
    private static final int EPOCH_STEP = 4;
    private static final VarHandle STATES = MethodHandles.arrayElementVarHandle(int[].class);

    private final TableCatalog catalog;
    private final TableShard[][] tables;
    private final TableShard[] absent;

    private TaskPrecedenceGraph graph;
    private Binding[] bindings = new Binding[0];
    private int graphShardBits;
    private int graphShardMask;
    private long[] versionValue = new long[256];
    private int[] versionState = new int[256];
    private int epoch;
    private boolean batchOpen;

    /** @param catalog the tables, by dense global id; its size must not change afterwards. */
    public MultiVersionStateTable(final TableCatalog catalog)
    {
        this.catalog = catalog;
        final int n = catalog.size();
        this.tables = new TableShard[n][SHARDS];
        this.absent = new TableShard[n];
        for (int t = 0; t < n; t++)
        {
            final long initial = catalog.spec(t).initialValue();
            for (int s = 0; s < SHARDS; s++)
            {
                tables[t][s] = new TableShard(initial, false);
            }
            absent[t] = new TableShard(initial, true);
        }
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
        return shardOf(table, key).get(key);
    }

    /** Sets the committed value; only between batches. The initial value deletes the entry. */
    @Override
    public void put(final int table, final long key, final long value)
    {
        requireNoBatch();
        shardOf(table, key).put(key, value);
    }

    @Override
    public void forEach(final int table, final EntryVisitor visitor)
    {
        requireNoBatch();
        // a fresh snapshot: the visitor may put into this table, or visit another one
        final long[] keys = new long[size(table)];
        int used = 0;
        for (final TableShard shard : tables[table])
        {
            used = shard.keys(keys, used);
        }
        SortedKeyVisit.visit(keys, used, table, this, catalog.spec(table).initialValue(), visitor);
    }

    /** @return the number of committed entries of {@code table} (keys not at the initial value). */
    public int size(final int table)
    {
        int n = 0;
        for (final TableShard shard : tables[table])
        {
            n += shard.size();
        }
        return n;
    }

    private TableShard shardOf(final int table, final long key)
    {
        return tables[table][TouchedKeyTable.shardOf(TouchedKeyTable.hash(table, key), SHARD_BITS)];
    }

    // ---------------------------------------------------------------- batch layout

    /**
     * Opens a batch over {@code graph} (begun, not necessarily built): sizes the versions for its
     * entries and the bindings for its shards. Cost: O(shards), nothing per entry.
     */
    public void beginBatch(final TaskPrecedenceGraph graph)
    {
        requireNoBatch();
        if (graph.shardBits() > SHARD_BITS)
        {
            throw new IllegalArgumentException("a graph of " + graph.shardCount() + " shards needs more than " + SHARDS);
        }
        this.graph = graph;
        graphShardBits = graph.shardBits();
        graphShardMask = graph.shardCount() - 1;
        if (bindings.length != graph.shardCount())
        {
            bindings = new Binding[graph.shardCount()];
            for (int s = 0; s < bindings.length; s++)
            {
                bindings[s] = new Binding();
            }
        }
        final int entries = graph.entrySpace();
        if (versionState.length < entries)
        {
            final int n = Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
            versionValue = new long[n];
            versionState = new int[n];
            epoch = 0;
        }
        epoch += EPOCH_STEP;
        if (epoch <= 0)
        {
            Arrays.fill(versionState, 0);
            epoch = EPOCH_STEP;
        }
        batchOpen = true;
    }

    /**
     * Binds every key of graph shard {@code s} (built) to its committed value: a key that may be
     * written is inserted if absent, a read-only key that is absent reads the initial value.
     * Threads binding different shards may run at once.
     */
    public void bindShard(final int s)
    {
        final TaskPrecedenceGraph graph = this.graph;
        final Binding b = bindings[s];
        final int n = graph.shardKeyCount(s);
        b.ensure(n);
        for (int i = 0; i < n; i++)
        {
            final int k = graph.keyReference(s, i);
            final int table = graph.keyTable(k);
            final long key = graph.keyKey(k);
            TableShard shard = shardOf(table, key);
            int index;
            if (graph.keyLastWrite(k) == TaskPrecedenceGraph.NONE)
            {
                index = shard.valueIndex(key);
                if (index == TableShard.MISSING)
                {
                    shard = absent[table];
                    index = shard.slots.length - 1;
                }
            }
            else
            {
                final int generation = shard.generation();
                index = shard.insert(key);
                if (shard.generation() != generation)
                {
                    rebindMovedSlowPath(b, s, i, shard);
                }
            }
            b.shard[i] = shard;
            b.index[i] = index;
        }
        b.deletions = 0;
        b.bound = n;
    }

    /** A rehash moved value indices: the keys of this shard bound before {@code upTo} to it find theirs again. */
    private void rebindMovedSlowPath(final Binding b, final int s, final int upTo, final TableShard shard)
    {
        for (int j = 0; j < upTo; j++)
        {
            if (b.shard[j] == shard)
            {
                b.index[j] = shard.valueIndex(graph.keyKey(graph.keyReference(s, j)));
            }
        }
    }

    // ---------------------------------------------------------------- executors

    /** @return the committed value key {@code k} (a key reference) is bound to. */
    public long committed(final int k)
    {
        final Binding b = bindings[k & graphShardMask];
        final int i = k >>> graphShardBits;
        return b.shard[i].slots[b.index[i]];
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
            final int epoch = this.epoch;
            int w = graph.previousWrite(e);
            while (w != TaskPrecedenceGraph.NONE)
            {
                final int state = (int)STATES.getAcquire(versionState, w);
                if ((state & ~KIND_MASK) != epoch)
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
        return committed(graph.entryKey(e));
    }

    /**
     * Writes {@code value} at entry {@code e} (a writing access entry): a version, or the
     * committed value in place with the old value kept for {@link #undo}.
     */
    public void write(final int e, final long value)
    {
        if (graph.isInPlace(e))
        {
            final Binding b = bindings[graph.entryKey(e) & graphShardMask];
            final int i = graph.entryKey(e) >>> graphShardBits;
            final long[] slots = b.shard[i].slots;
            versionValue[e] = slots[b.index[i]];
            versionState[e] = epoch | LIVE;
            slots[b.index[i]] = value;
        }
        else
        {
            versionValue[e] = value;
            STATES.setRelease(versionState, e, epoch | LIVE);
        }
    }

    /** Entry {@code e} (a CHOOSE candidate) creates no version: readers look through it. */
    public void skip(final int e)
    {
        if (!graph.isInPlace(e))
        {
            STATES.setRelease(versionState, e, epoch | SKIPPED);
        }
    }

    /**
     * Removes entry {@code e}'s effect (written or not): a version is removed (readers look
     * through it), an in-place write is undone. A transaction undoes its entries in reverse
     * statement order.
     */
    public void undo(final int e)
    {
        if (graph.isInPlace(e))
        {
            if (versionState[e] == (epoch | LIVE))
            {
                final Binding b = bindings[graph.entryKey(e) & graphShardMask];
                final int i = graph.entryKey(e) >>> graphShardBits;
                b.shard[i].slots[b.index[i]] = versionValue[e];
                versionState[e] = epoch | REMOVED;
            }
        }
        else
        {
            STATES.setRelease(versionState, e, epoch | REMOVED);
        }
    }

    // ---------------------------------------------------------------- end of batch

    /**
     * Collapses every key of graph shard {@code s}: a versioned key takes its last live version,
     * and a key left at the initial value is deleted. Threads collapsing different shards may
     * run at once.
     */
    public void collapseShard(final int s)
    {
        final TaskPrecedenceGraph graph = this.graph;
        final Binding b = bindings[s];
        final int n = b.bound;
        for (int i = 0; i < n; i++)
        {
            final TableShard shard = b.shard[i];
            final int k = graph.keyReference(s, i);
            final long[] slots = shard.slots;
            final int index = b.index[i];
            long value = slots[index];
            if (!graph.isKeyInPlace(k))
            {
                final int last = graph.keyLastWrite(k);
                if (last == TaskPrecedenceGraph.NONE)
                {
                    continue;
                }
                value = lastLive(graph, last, value);
                slots[index] = value;
            }
            if (value == shard.initialValue && !shard.absentHolder)
            {
                b.delete(shard, graph.keyKey(k));
            }
        }
        for (int d = 0; d < b.deletions; d++)
        {
            b.deleteShard[d].remove(b.deleteKey[d]);
        }
        b.deletions = 0;
        b.collapsed += n;
    }

    private long lastLive(final TaskPrecedenceGraph graph, final int last, final long committed)
    {
        for (int w = last; w != TaskPrecedenceGraph.NONE; w = graph.previousWrite(w))
        {
            final int state = (int)STATES.getAcquire(versionState, w);
            if (state == (epoch | LIVE))
            {
                return versionValue[w];
            }
        }
        return committed;
    }

    /** Closes the batch once every shard has collapsed. */
    public void endBatch()
    {
        batchOpen = false;
        graph = null;
    }

    /**
     * Discards the batch: every in-place write is undone and the versions are forgotten, so the
     * committed state is as before the batch. One thread, after every executor has left.
     */
    public void abandonBatch()
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (graph != null)
        {
            for (int s = 0; s < bindings.length; s++)
            {
                final Binding b = bindings[s];
                for (int i = 0; i < b.bound; i++)
                {
                    final int k = graph.keyReference(s, i);
                    if (graph.isKeyInPlace(k))
                    {
                        restoreFirstWrite(graph, k);
                    }
                    final TableShard shard = b.shard[i];
                    if (shard.slots[b.index[i]] == shard.initialValue && !shard.absentHolder)
                    {
                        b.delete(shard, graph.keyKey(k));
                    }
                }
                for (int d = 0; d < b.deletions; d++)
                {
                    b.deleteShard[d].remove(b.deleteKey[d]);
                }
                b.deletions = 0;
            }
        }
        batchOpen = false;
        this.graph = null;
    }

    private void restoreFirstWrite(final TaskPrecedenceGraph graph, final int k)
    {
        for (int e = graph.keyFirstEntry(k); e != TaskPrecedenceGraph.NONE; e = graph.nextEntry(e))
        {
            if (versionState[e] == (epoch | LIVE))
            {
                final Binding b = bindings[k & graphShardMask];
                final int i = k >>> graphShardBits;
                b.shard[i].slots[b.index[i]] = versionValue[e];
                return;
            }
        }
    }

    /** @return true between {@link #beginBatch} and {@link #endBatch()} / {@link #abandonBatch()}. */
    public boolean batchOpen()
    {
        return batchOpen;
    }

    /** @return keys collapsed by every batch so far (cost follows touched keys). */
    public long keysCollapsed()
    {
        long n = 0;
        for (final Binding b : bindings)
        {
            n += b.collapsed;
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

    /** One graph shard's bindings: for its i-th key, the table shard and the value index. */
    private static final class Binding
    {
        TableShard[] shard = new TableShard[64];
        int[] index = new int[64];
        int bound;
        TableShard[] deleteShard = new TableShard[16];
        long[] deleteKey = new long[16];
        int deletions;
        long collapsed;

        void ensure(final int n)
        {
            if (shard.length < n)
            {
                final int capacity = Integer.highestOneBit(n - 1) << 1;
                shard = new TableShard[capacity];
                index = new int[capacity];
            }
        }

        void delete(final TableShard from, final long key)
        {
            if (deletions == deleteKey.length)
            {
                deleteShard = Arrays.copyOf(deleteShard, deletions * 2);
                deleteKey = Arrays.copyOf(deleteKey, deletions * 2);
            }
            deleteShard[deletions] = from;
            deleteKey[deletions] = key;
            deletions++;
        }
    }
}
