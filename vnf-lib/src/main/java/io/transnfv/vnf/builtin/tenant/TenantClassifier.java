package io.transnfv.vnf.builtin.tenant;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * The entry of a multi-tenant chain: sends each packet to the output named after the first
 * tenant, in the order written, whose {@link TenantMatch} accepts it; a packet no tenant
 * accepts goes to the default tenant if there is one, else is dropped as {@value #NO_TENANT}.
 * Keeps no state: the decision reads only the packet's headers, so every executor makes the
 * same one.
 */
public final class TenantClassifier implements Vnf
{
    /** The drop reason of a packet no tenant accepts, in a chain without a default tenant. */
    public static final String NO_TENANT = "no-tenant";

    private final List<String> tenants;
    private final TenantMatch[] matches;
    private final int defaultTenant;
    private final int[] outputs;
    private int noTenant;

    /**
     * @param tenants       the tenants' names, in the order their matches are tried.
     * @param matches       each tenant's match, in the same order.
     * @param defaultTenant index of the tenant unmatched packets go to, or -1 to drop them.
     */
    public TenantClassifier(final List<String> tenants, final List<TenantMatch> matches, final int defaultTenant)
    {
        if (tenants.size() != matches.size() || tenants.isEmpty())
        {
            throw new IllegalArgumentException("one match per tenant, at least one tenant: " + tenants + " " + matches);
        }
        if (defaultTenant < -1 || defaultTenant >= tenants.size())
        {
            throw new IllegalArgumentException("no tenant " + defaultTenant);
        }
        this.tenants = List.copyOf(tenants);
        this.matches = matches.toArray(new TenantMatch[0]);
        this.defaultTenant = defaultTenant;
        this.outputs = new int[tenants.size()];
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        for (int t = 0; t < outputs.length; t++)
        {
            outputs[t] = setup.output(tenants.get(t));
        }
        noTenant = setup.dropReason(NO_TENANT);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        final int tenant = classify(packet);
        if (tenant < 0)
        {
            actions.drop(noTenant);
        }
        else
        {
            actions.forward(outputs[tenant]);
        }
    }

    /** @return the index of the packet's tenant, or -1 if it has none. */
    public int classify(final PacketFlyweight packet)
    {
        final TenantMatch[] m = matches;
        for (int t = 0; t < m.length; t++)
        {
            if (m[t].test(packet))
            {
                return t;
            }
        }
        return defaultTenant;
    }
}
