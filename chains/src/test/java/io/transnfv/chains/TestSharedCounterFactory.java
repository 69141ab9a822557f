package io.transnfv.chains;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deliberately wrong test-only VNF type, {@code test-shared-counter}: its instances count
 * packets in one counter outside the state tables, shared by every instance its factory made,
 * and drop each packet whose count is a multiple of 3. Two tenants with it see each other's
 * packets through the counter: the negative control of the tenant isolation check. The counter
 * restarts whenever an instance is created (a chain's instances are all created before its
 * first packet); serial use only.
 */
public final class TestSharedCounterFactory implements VnfFactory
{
    /** The type name. */
    public static final String TYPE = "test-shared-counter";

    private final AtomicLong packets = new AtomicLong();

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Test VNF whose instances share a packet counter outside the state tables (wrong on purpose).";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of();
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        packets.set(0);
        return new Vnf()
        {
            private int third;

            @Override
            public void setup(final VnfSetup setup)
            {
                third = setup.dropReason("third");
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
                if (packets.incrementAndGet() % 3 == 0)
                {
                    actions.drop(third);
                }
            }
        };
    }
}
