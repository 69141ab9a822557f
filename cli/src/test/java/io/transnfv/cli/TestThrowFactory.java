package io.transnfv.cli;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * A test-only VNF type, {@code test-throw}: its pre-processing throws on the packets whose time
 * in microseconds is a multiple of {@code every}, and does nothing on the others.
 */
public final class TestThrowFactory implements VnfFactory
{
    @Override
    public String type()
    {
        return "test-throw";
    }

    @Override
    public String description()
    {
        return "Test VNF whose pre-processing throws on chosen packets.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of(ParamSpec.required("every", ParamKind.LONG, "throw on one packet in this many microseconds"));
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final long every = config.getLong("every");
        return new Vnf()
        {
            @Override
            public void setup(final VnfSetup setup)
            {
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
                if ((txn.timestampNs() / 1_000) % every == 0)
                {
                    throw new IllegalStateException("injected at " + txn.timestampNs());
                }
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
            }
        };
    }
}
