package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;

import java.util.Arrays;
import java.util.List;

/**
 * A tenant's classifier: the conjunction of the tests given, each a set of alternatives, and
 * each skipped when absent (an empty match accepts every packet). Immutable; {@link #test}
 * allocates nothing and may be called from any thread.
 *
 * <pre>
 *   vlan     the outer VLAN ID is one of vlans         (untagged packets never match)
 *   src_net  IPv4 and the source is in one of srcNets
 *   dst_net  IPv4 and the destination is in one of dstNets
 *   dscp     IP and the DSCP (IPv4 TOS or IPv6 traffic class, upper 6 bits) is one of dscps
 * </pre>
 *
 * @param vlans   accepted outer VLAN IDs, sorted; null for any.
 * @param srcNets accepted IPv4 source prefixes; null for any.
 * @param dstNets accepted IPv4 destination prefixes; null for any.
 * @param dscps   accepted DSCP values, sorted; null for any.
 */
public record TenantMatch(int[] vlans, List<Cidr> srcNets, List<Cidr> dstNets, int[] dscps) implements PacketPredicate
{
    /** A match that accepts every packet. */
    public static final TenantMatch ANY = new TenantMatch(null, null, null, null);

    /** Copies and sorts the sets. */
    public TenantMatch
    {
        vlans = sortedCopy(vlans);
        srcNets = srcNets == null ? null : List.copyOf(srcNets);
        dstNets = dstNets == null ? null : List.copyOf(dstNets);
        dscps = sortedCopy(dscps);
    }

    /** @return true if the match tests nothing and so accepts every packet. */
    public boolean acceptsEverything()
    {
        return vlans == null && srcNets == null && dstNets == null && dscps == null;
    }

    /**
     * @param later a match written after this one.
     * @return true if every packet {@code later} accepts is also accepted by this one, judged
     *         test by test (a sound but incomplete check: it can miss coverage that only the
     *         combination of tests gives).
     */
    public boolean covers(final TenantMatch later)
    {
        return coversValues(vlans, later.vlans) && coversNets(srcNets, later.srcNets)
            && coversNets(dstNets, later.dstNets) && coversValues(dscps, later.dscps);
    }

    @Override
    public boolean test(final PacketFlyweight packet)
    {
        if (vlans != null && (packet.vlanCount() == 0 || Arrays.binarySearch(vlans, packet.vlanId()) < 0))
        {
            return false;
        }
        if (srcNets != null && !(packet.isIpv4() && contains(srcNets, packet.srcIpv4())))
        {
            return false;
        }
        if (dstNets != null && !(packet.isIpv4() && contains(dstNets, packet.dstIpv4())))
        {
            return false;
        }
        return dscps == null || packet.isIp() && Arrays.binarySearch(dscps, dscp(packet)) >= 0;
    }

    /** @return the packet's DSCP: the upper 6 bits of the IPv4 TOS or the IPv6 traffic class. */
    static int dscp(final PacketFlyweight packet)
    {
        final int l3 = packet.l3Offset();
        return packet.isIpv4() ? packet.getU8(l3 + 1) >>> 2 : packet.getU16(l3) >>> 6 & 0x3F;
    }

    private static boolean contains(final List<Cidr> nets, final int address)
    {
        for (int i = 0, n = nets.size(); i < n; i++)
        {
            if (nets.get(i).contains(address))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean coversValues(final int[] earlier, final int[] later)
    {
        if (earlier == null)
        {
            return true;
        }
        if (later == null)
        {
            return false;
        }
        for (final int value : later)
        {
            if (Arrays.binarySearch(earlier, value) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private static boolean coversNets(final List<Cidr> earlier, final List<Cidr> later)
    {
        if (earlier == null)
        {
            return true;
        }
        if (later == null)
        {
            return false;
        }
        for (final Cidr net : later)
        {
            boolean inside = false;
            for (final Cidr outer : earlier)
            {
                if (outer.prefixLength() <= net.prefixLength() && outer.contains(net.network()))
                {
                    inside = true;
                    break;
                }
            }
            if (!inside)
            {
                return false;
            }
        }
        return true;
    }

    private static int[] sortedCopy(final int[] values)
    {
        if (values == null)
        {
            return null;
        }
        final int[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }
}
