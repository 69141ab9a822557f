package io.transnfv.chains;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.nat.NatFactory;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * A test-only VNF type, {@code test-broken-nat}: the built-in NAT, with its tables and its state
 * checkers, whose housekeeping has a bug: at each tick it gives the first mapping it finds to a
 * second endpoint as well, so one public port serves two endpoints. The same on every executor
 * (ticks fall at the same packets), so the engine still equals the oracle while the NAT's
 * {@code port-owned-by-its-mapping} checker must trip.
 */
public final class BrokenNatFactory implements VnfFactory
{
    /** The bit that turns a mapped endpoint into the endpoint the bug gives its port to as well. */
    static final long SECOND_ENDPOINT = Long.MIN_VALUE;

    private final NatFactory nat = new NatFactory();

    @Override
    public String type()
    {
        return "test-broken-nat";
    }

    @Override
    public String description()
    {
        return "Test NAT whose housekeeping maps one port for two endpoints.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return nat.params();
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new BrokenNat(nat.create(config));
    }

    private static final class BrokenNat implements Vnf
    {
        private final Vnf nat;
        private int mappings = -1;

        BrokenNat(final Vnf nat)
        {
            this.nat = nat;
        }

        @Override
        public void setup(final VnfSetup setup)
        {
            nat.setup(new VnfSetup()
            {
                @Override
                public String instanceName()
                {
                    return setup.instanceName();
                }

                @Override
                public int table(final TableSpec spec)
                {
                    final int id = setup.table(spec);
                    if (spec.name().equals("mappings"))
                    {
                        mappings = id;
                    }
                    return id;
                }

                @Override
                public int output(final String name)
                {
                    return setup.output(name);
                }

                @Override
                public int dropReason(final String name)
                {
                    return setup.dropReason(name);
                }

                @Override
                public int alertType(final String name)
                {
                    return setup.alertType(name);
                }

                @Override
                public int tag(final String name)
                {
                    return setup.tag(name);
                }

                @Override
                public VnfCounter counter(final String name)
                {
                    return setup.counter(name);
                }

                @Override
                public void expiryIntervalNs(final long intervalNs)
                {
                    setup.expiryIntervalNs(intervalNs);
                }

                @Override
                public void checker(final String name, final String description, final StateChecker checker)
                {
                    setup.checker(name, description, checker);
                }
            });
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
            nat.preProcess(packet, txn);
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            nat.postProcess(packet, result, actions);
        }

        @Override
        public void expire(final long nowNs, final StateMaintenance state)
        {
            nat.expire(nowNs, state);
            final long[] first = {0L, 0L};
            state.forEach(mappings, (endpoint, mapping) ->
            {
                if (first[1] == 0L && (endpoint & SECOND_ENDPOINT) == 0)
                {
                    first[0] = endpoint;
                    first[1] = mapping;
                }
            });
            if (first[1] != 0L)
            {
                // the bug: a second endpoint gets the same public port
                state.put(mappings, first[0] | SECOND_ENDPOINT, first[1]);
            }
        }
    }
}
