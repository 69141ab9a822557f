package io.transnfv.engine.ingress;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.builtin.tenant.TenantMatch;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * Which capacity-check group each packet counts for, decided where the packet is read, before
 * any of its transactions (see {@code docs/design/expiry.md}, "Capacity checks"). A chain without
 * tenants has one group, 0, and every packet counts for it. A chain of tenants has one group per
 * tenant: a packet counts for the tenant the chain's classifier gives it (the same matches, tried
 * in the same order, on the packet as read, then the default tenant), and for none if no tenant
 * takes it or it is malformed (dropped before the classifier). So a tenant's checks fall by its
 * own packets alone, whatever the other tenants send.
 *
 * <pre>
 *   packet read ──► CheckGroups.of ──► group g ──► ExpiryTicker.due(time, g)
 *                                                  └► every checkEvery[g]-th packet of g: g's check
 * </pre>
 *
 * <p>One per reading thread (it holds a packet view); the matches it shares are immutable.
 */
public final class CheckGroups
{
    private final TenantMatch[] matches;
    private final int defaultTenant;
    private final PacketFlyweight packet = new PacketFlyweight();

    /**
     * @param matches       the tenants' matches in the order they are tried; empty for a chain
     *                      without tenants.
     * @param defaultTenant the tenant unmatched packets go to, -1 for none.
     */
    public CheckGroups(final List<TenantMatch> matches, final int defaultTenant)
    {
        this.matches = matches.toArray(new TenantMatch[0]);
        this.defaultTenant = defaultTenant;
    }

    /** @return true if the chain has tenants, each a check group of its own. */
    public boolean tenants()
    {
        return matches.length > 0;
    }

    /** @return the check group of the packet in {@code buffer}, or {@link ExpiryTicker#NO_GROUP}. */
    public int of(final PacketBuffer buffer)
    {
        final TenantMatch[] m = matches;
        if (m.length == 0)
        {
            return 0;
        }
        final PacketFlyweight p = packet;
        p.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
        if (!p.isValid())
        {
            return ExpiryTicker.NO_GROUP;
        }
        for (int t = 0; t < m.length; t++)
        {
            if (m[t].test(p))
            {
                return t;
            }
        }
        return defaultTenant;
    }

    /**
     * @return the group a clock resumed without a packet counts for (a restore from a checkpoint
     *         held in memory): group 0 in a chain without tenants, as the chain's count always
     *         did; none in a chain of tenants.
     */
    public int withoutPacket()
    {
        return matches.length == 0 ? 0 : ExpiryTicker.NO_GROUP;
    }
}
