package io.transnfv.chains;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * A test-only VNF type, {@code test-router}: one parameter of each kind, one of them
 * required, and a second output {@code suspicious}. Its factory rejects {@code mode: broken}
 * the way real types reject values that pass the type check but make no sense.
 */
public final class TestRouterFactory implements VnfFactory
{
    /** The type name. */
    public static final String TYPE = "test-router";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Test VNF with every parameter kind and two outputs.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of(
            ParamSpec.required("capacity", ParamKind.INT, "table capacity").range(1, 1_000_000),
            ParamSpec.optional("ratio", ParamKind.DOUBLE, 0.5, "a ratio").range(0, 1),
            ParamSpec.optional("flows", ParamKind.LONG, 10L, "flow count"),
            ParamSpec.optional("strict", ParamKind.BOOLEAN, false, "strict mode"),
            ParamSpec.optional("mode", ParamKind.STRING, "fast", "fast or slow"),
            ParamSpec.optional("timeout", ParamKind.DURATION, 30_000_000_000L, "idle timeout"),
            ParamSpec.optional("ports", ParamKind.INT_LIST, List.of(), "ports").range(0, 65535),
            ParamSpec.optional("labels", ParamKind.STRING_LIST, List.of(), "labels"));
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        if (config.getString("mode").equals("broken"))
        {
            throw new VnfConfigException("mode", "mode 'broken' is not supported; write fast or slow");
        }
        return new Router();
    }

    private static final class Router implements Vnf
    {
        @Override
        public void setup(final VnfSetup setup)
        {
            setup.output("suspicious");
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
        }
    }
}
