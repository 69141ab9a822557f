package io.transnfv.experiments.baselines;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The No-Lock baseline, the speed limit of shared state: every worker takes a contiguous
 * range of each batch and applies its packets' transactions to one shared store with no
 * locks and no ordering. Racy read-modify-writes lose updates and packets of one flow may
 * overtake each other, so its output may differ from the oracle's; the experiments report
 * how often next to its speed. The store never resizes and claims slots with a CAS, so races
 * corrupt values, never the structure (see {@link PreallocatedLongTable}).
 */
public final class NoLockChainExecutor extends ParallelChainExecutor
{
    private final SharedStateStore shared;

    /**
     * @param chain       the chain.
     * @param workers     worker threads, counting the caller of {@code run}.
     * @param keyCapacity slots per table, a power of two: more than the keys any table will hold.
     */
    public NoLockChainExecutor(final ChainSpec chain, final int workers, final int keyCapacity)
    {
        super(chain, workers, "no-lock, " + workers + " threads");
        this.shared = new SharedStateStore(runtime.catalog(), keyCapacity, false);
        start();
    }

    @Override
    protected StateStore storeOf(final int worker)
    {
        return shared;
    }

    @Override
    protected int ownerOf(final PacketFlyweight packet)
    {
        return 0;
    }

    @Override
    protected boolean splitsByRange()
    {
        return true;
    }

    @Override
    protected StateMaintenance stateView()
    {
        return shared;
    }
}
