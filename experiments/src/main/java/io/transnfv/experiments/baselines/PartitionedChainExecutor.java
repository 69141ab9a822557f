package io.transnfv.experiments.baselines;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.SortedKeyVisit;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;


/**
 * The Partitioned baseline (FlexState-style state split per executor, no sharing): each worker
 * owns the flows of its source hosts and a private store of every table — the oracle's own
 * {@link MapStateStore} — and never looks at another's. Exact for per-flow state; cross-flow
 * state (server load, port pools) is split into per-worker copies, so decisions based on it
 * differ from the oracle's, and the experiments count how often.
 *
 * <p>Its merged final state, for dumps, takes per-flow entries from whichever partition holds
 * them and a cross-flow key from the partition its hash names.
 */
public final class PartitionedChainExecutor extends ParallelChainExecutor
{
    private final MapStateStore[] partitions;
    private final MergedView merged = new MergedView();

    /**
     * @param chain   the chain.
     * @param workers worker threads (= partitions), counting the caller of {@code run}.
     */
    public PartitionedChainExecutor(final ChainSpec chain, final int workers)
    {
        super(chain, workers, "partitioned, " + workers + " threads");
        partitions = new MapStateStore[workers];
        for (int w = 0; w < workers; w++)
        {
            partitions[w] = new MapStateStore(runtime.catalog());
        }
        start();
    }

    @Override
    protected StateStore storeOf(final int worker)
    {
        return partitions[worker];
    }

    @Override
    protected int ownerOf(final PacketFlyweight packet)
    {
        return FlowAffinity.ownerOf(packet, workers);
    }

    @Override
    protected void expire(final long tickNs, final long sinceNs, final int checkGroup)
    {
        if (tickNs == ExpiryTicker.CHECK)
        {
            // split state has no one count to hold against a capacity: its tables are not bounded
            return;
        }
        // each partition sweeps its own flows and adjusts its own copy of the cross-flow state
        for (final MapStateStore partition : partitions)
        {
            for (int v = 0; v < runtime.size(); v++)
            {
                final long own = runtime.vnfTickNs(v, tickNs, sinceNs);
                if (own != ExpiryTicker.NONE)
                {
                    runtime.instance(v).vnf().expire(own, partition);
                }
            }
        }
    }

    @Override
    protected StateMaintenance stateView()
    {
        return merged;
    }

    private final class MergedView implements StateMaintenance
    {
        @Override
        public long get(final int table, final long key)
        {
            if (perFlow(table))
            {
                final long initial = runtime.catalog().spec(table).initialValue();
                for (final MapStateStore partition : partitions)
                {
                    final long value = partition.get(table, key);
                    if (value != initial)
                    {
                        return value;
                    }
                }
                return initial;
            }
            return partitions[ownerOfKey(key)].get(table, key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            throw new UnsupportedOperationException("the partitioned baseline's merged view is read-only");
        }

        @Override
        public void forEach(final int table, final EntryVisitor visitor)
        {
            SortedKeyVisit.visitUnion(partitions, table, this, runtime.catalog().spec(table).initialValue(), visitor);
        }

        private boolean perFlow(final int table)
        {
            final TableCatalog catalog = runtime.catalog();
            return catalog.spec(table).scope() == TableScope.PER_FLOW;
        }

        private int ownerOfKey(final long key)
        {
            return (int)Math.floorMod(FlowKeys.mix64(key), (long)workers);
        }
    }
}
