package io.transnfv.cli;

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

/**
 * A test-only VNF type, {@code test-thread-bound}, that breaks the VNF contract on purpose: it
 * forwards a packet on the serial oracle's thread and drops it on any other, so its verdict
 * depends on the executor and {@code verify} must find the engine not equivalent.
 */
public final class TestThreadBoundFactory implements VnfFactory
{
    /** The name of the serial oracle's loop thread. */
    private static final String ORACLE_THREAD = "transnfv-serial";

    @Override
    public String type()
    {
        return "test-thread-bound";
    }

    @Override
    public String description()
    {
        return "Test VNF whose verdict depends on the thread that runs it.";
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
            private int offThread;

            @Override
            public void setup(final VnfSetup setup)
            {
                offThread = setup.dropReason("off-thread");
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
                if (!ORACLE_THREAD.equals(Thread.currentThread().getName()))
                {
                    actions.drop(offThread);
                }
            }
        };
    }
}
