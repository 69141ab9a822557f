package io.transnfv.experiments.baselines;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.SortedKeyVisit;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Arrays;

/**
 * The CHC-style baseline, after CHC (Khalid and Akella, "Correctness and Performance for
 * Stateful Chained Network Functions", NSDI'19), built from the same parts as the engine:
 * <ul>
 *   <li>flows are assigned to instances (workers) by a hash of the source host, and per-flow
 *       state is cached at the instance that owns the flow: the oracle's
 *       {@link MapStateStore}, no lock, no sharing;</li>
 *   <li>cross-flow state lives in one shared store ({@link PreallocatedLongTable}, the same
 *       keys and hash as the engine's maps) guarded by fine-grained per-key locks
 *       ({@link KeyLockTable}); a transaction takes the locks of every cross-flow key it may
 *       touch (a choice's candidates included) in one global order, runs, and releases
 *       them, so each packet's cross-flow update is atomic and deadlock-free;</li>
 *   <li>every packet carries a logical clock (its arrival sequence, CHC's root-assigned
 *       clock), and the store stamps each cross-flow write with the clock of its writer, the
 *       metadata CHC keeps for duplicate suppression on replay;</li>
 *   <li>packets that touch only per-flow state take no lock at all: CHC's non-blocking path.</li>
 * </ul>
 * As in CHC, concurrent instances' updates of one cross-flow key are applied in lock order,
 * not in packet-arrival order, so decisions on contended cross-flow state (the least-loaded
 * server) may differ from the oracle's; the experiments count how often.
 */
public final class ChcStyleChainExecutor extends ParallelChainExecutor
{
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();

    private final SharedStateStore shared;
    private final KeyLockTable locks = new KeyLockTable();
    private final long[][] writerClocks;
    private final boolean[] perFlow;
    private final MapStateStore[] caches;
    private final StateMaintenance view = new CombinedView();

    /**
     * @param chain       the chain.
     * @param workers     instances (worker threads), counting the caller of {@code run}.
     * @param keyCapacity slots per cross-flow table, a power of two.
     */
    public ChcStyleChainExecutor(final ChainSpec chain, final int workers, final int keyCapacity)
    {
        super(chain, workers, "chc-style, " + workers + " threads");
        final TableCatalog catalog = runtime.catalog();
        shared = new SharedStateStore(catalog, keyCapacity, true);
        writerClocks = new long[catalog.size()][];
        perFlow = new boolean[catalog.size()];
        for (int t = 0; t < catalog.size(); t++)
        {
            perFlow[t] = catalog.spec(t).scope() == TableScope.PER_FLOW;
            if (!perFlow[t])
            {
                writerClocks[t] = new long[keyCapacity];
            }
        }
        caches = new MapStateStore[workers];
        for (int w = 0; w < workers; w++)
        {
            caches[w] = new MapStateStore(catalog);
        }
        start();
    }

    @Override
    protected StateStore storeOf(final int worker)
    {
        return new InstanceStore(caches[worker]);
    }

    @Override
    protected int ownerOf(final PacketFlyweight packet)
    {
        return FlowAffinity.ownerOf(packet, workers);
    }

    @Override
    protected void access(final Worker worker, final TransactionLog log)
    {
        final int count = collectStripes(worker, log);
        if (count == 0)
        {
            worker.applier.apply(log, 0, worker.store);
            return;
        }
        final int[] stripes = worker.stripes;
        long waits = 0;
        for (int i = 0; i < count; i++)
        {
            waits += locks.lock(stripes[i]);
        }
        worker.lockWaits += waits;
        worker.lockAcquisitions += count;
        try
        {
            ((InstanceStore)worker.store).clock = worker.clock;
            worker.applier.apply(log, 0, worker.store);
        }
        finally
        {
            for (int i = count - 1; i >= 0; i--)
            {
                locks.unlock(stripes[i]);
            }
        }
    }

    /** Gathers the sorted, distinct lock stripes of the cross-flow keys the transaction may touch. */
    private int collectStripes(final Worker worker, final TransactionLog log)
    {
        int count = 0;
        final int first = log.firstOperation(0);
        final int end = first + log.operationCount(0);
        for (int o = first; o < end; o++)
        {
            final int table = log.table(o);
            if (log.type(o) != CHOOSE && !perFlow[table])
            {
                count = insert(worker, count, KeyLockTable.stripeOf(table, log.key(o)));
            }
            final int extras = log.extraStart(o) + log.extraCount(o);
            for (int e = log.extraStart(o); e < extras; e++)
            {
                final int extraTable = log.extraTable(e);
                if (!perFlow[extraTable])
                {
                    count = insert(worker, count, KeyLockTable.stripeOf(extraTable, log.extraKey(e)));
                }
            }
        }
        return count;
    }

    private static int insert(final Worker worker, final int count, final int stripe)
    {
        int[] stripes = worker.stripes;
        int i = count - 1;
        while (i >= 0 && stripes[i] > stripe)
        {
            i--;
        }
        if (i >= 0 && stripes[i] == stripe)
        {
            return count;
        }
        if (count == stripes.length)
        {
            stripes = Arrays.copyOf(stripes, count * 2);
            worker.stripes = stripes;
        }
        System.arraycopy(stripes, i + 1, stripes, i + 2, count - i - 1);
        stripes[i + 1] = stripe;
        return count + 1;
    }

    @Override
    protected StateMaintenance stateView()
    {
        return view;
    }

    /** @return the logical clock of the last writer of cross-flow {@code key}, or 0 if never written. */
    public long writerClock(final int table, final long key)
    {
        final int slot = shared.table(table).find(key);
        return slot < 0 ? 0 : writerClocks[table][slot];
    }

    /** One instance's view: its own per-flow cache, the shared cross-flow store. */
    private final class InstanceStore implements StateStore
    {
        private final MapStateStore cache;
        private long clock;

        InstanceStore(final MapStateStore cache)
        {
            this.cache = cache;
        }

        @Override
        public long get(final int table, final long key)
        {
            return perFlow[table] ? cache.get(table, key) : shared.get(table, key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            if (perFlow[table])
            {
                cache.put(table, key, value);
            }
            else if (key == Long.MIN_VALUE)
            {
                shared.put(table, key, value); // the one key without a slot, hence without a clock
            }
            else
            {
                final PreallocatedLongTable values = shared.table(table);
                final int slot = values.slotOf(key);
                values.valueAt(slot, value);
                writerClocks[table][slot] = clock;
            }
        }
    }

    /** All instances' caches and the shared store as one state, between batches. */
    private final class CombinedView implements StateMaintenance
    {
        @Override
        public long get(final int table, final long key)
        {
            if (!perFlow[table])
            {
                return shared.get(table, key);
            }
            final MapStateStore holder = holderOf(table, key);
            return holder == null ? runtime.catalog().spec(table).initialValue() : holder.get(table, key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            if (!perFlow[table])
            {
                shared.put(table, key, value);
                return;
            }
            final MapStateStore holder = holderOf(table, key);
            (holder == null ? caches[0] : holder).put(table, key, value);
        }

        @Override
        public void forEach(final int table, final EntryVisitor visitor)
        {
            if (!perFlow[table])
            {
                shared.forEach(table, visitor);
                return;
            }
            SortedKeyVisit.visitUnion(caches, table, this, runtime.catalog().spec(table).initialValue(), visitor);
        }

        private MapStateStore holderOf(final int table, final long key)
        {
            final long initial = runtime.catalog().spec(table).initialValue();
            for (final MapStateStore cache : caches)
            {
                if (cache.get(table, key) != initial)
                {
                    return cache;
                }
            }
            return null;
        }
    }
}
