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

/** A test-only VNF type, {@code test-sink}: no parameters, only the default output. */
public final class TestSinkFactory implements VnfFactory
{
    /** The type name. */
    public static final String TYPE = "test-sink";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Test VNF without parameters.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of();
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new Vnf()
        {
            @Override
            public void setup(final VnfSetup setup)
            {
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
            }
        };
    }
}
