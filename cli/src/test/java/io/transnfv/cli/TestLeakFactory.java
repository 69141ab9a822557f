package io.transnfv.cli;

import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * A test-only VNF type, {@code test-leak}, deliberately broken: it counts every packet it sees
 * in its table but declares a state checker saying that the table stays empty, which is violated
 * as soon as a packet passes.
 */
public final class TestLeakFactory implements VnfFactory
{
    @Override
    public String type()
    {
        return "test-leak";
    }

    @Override
    public String description()
    {
        return "Test VNF whose state checker (its table stays empty) is violated from the first packet.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of();
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final StateFunction count = (current, ctx) -> current + 1;
        return new Vnf()
        {
            private int seen;

            @Override
            public void setup(final VnfSetup setup)
            {
                seen = setup.table(new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "0 -> packets seen"));
                setup.checker("table-stays-empty", "the table never holds an entry", this::checkEmpty);
            }

            @Override
            public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
            {
                txn.readModify(seen, 0L, count, 0L);
            }

            @Override
            public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
            {
            }

            private void checkEmpty(final StateReader state, final StateChecker.Violations violations)
            {
                state.forEach(seen, (key, value) -> violations.violated(key, "key " + key + " holds " + value));
            }
        };
    }
}
