package io.transnfv.cli;

import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.InvariantViolations;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamSpec;
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
 * in its table but declares that the table stays empty, so its invariant breaks as soon as a
 * packet passes.
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
        return "Test VNF whose invariant (its table stays empty) breaks on the first packet.";
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

            @Override
            public void checkInvariants(final StateReader state, final InvariantViolations violations)
            {
                state.forEach(seen, (key, value) -> violations.violated("table-stays-empty", "key " + key + " holds " + value));
            }
        };
    }
}
