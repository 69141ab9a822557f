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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A test-only VNF type, {@code test-hang}: its pre-processing never returns. On its first call
 * it creates the file {@code marker}, so a test knows the run is under way (and its signal
 * handlers installed) before it sends a signal.
 */
public final class TestHangFactory implements VnfFactory
{
    @Override
    public String type()
    {
        return "test-hang";
    }

    @Override
    public String description()
    {
        return "Test VNF whose pre-processing never returns.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of(ParamSpec.required("marker", ParamKind.STRING, "file created when the VNF starts hanging"));
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final Path marker = Path.of(config.getString("marker"));
        return new Vnf()
        {
            @Override
            public void setup(final VnfSetup setup)
            {
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
                try
                {
                    if (!Files.exists(marker))
                    {
                        Files.createFile(marker);
                    }
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
                while (true)
                {
                    LockSupport.parkNanos(10_000_000L);
                }
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
            }
        };
    }
}
