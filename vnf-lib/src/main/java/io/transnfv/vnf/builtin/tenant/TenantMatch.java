package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv6Cidr;
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
 *   src_net  IPv4 and the source is in one of srcNets, or IPv6 and it is in one of srcNets6
 *   dst_net  IPv4 and the destination is in one of dstNets, or IPv6 and it is in one of dstNets6
 *   dscp     IP and the DSCP (IPv4 TOS or IPv6 traffic class, upper 6 bits) is one of dscps
 * </pre>
 *
 * A prefix test is present when either of its two lists is given; the other is then taken as
 * empty (a {@code src_net} of IPv4 prefixes only accepts no IPv6 packet, and the reverse).
 *
 * @param vlans    accepted outer VLAN IDs, sorted; null for any.
 * @param srcNets  accepted IPv4 source prefixes; null (with {@code srcNets6}) for any.
 * @param dstNets  accepted IPv4 destination prefixes; null (with {@code dstNets6}) for any.
 * @param dscps    accepted DSCP values, sorted; null for any.
 * @param srcNets6 accepted IPv6 source prefixes; null (with {@code srcNets}) for any.
 * @param dstNets6 accepted IPv6 destination prefixes; null (with {@code dstNets}) for any.
 */
public record TenantMatch(int[] vlans, List<Cidr> srcNets, List<Cidr> dstNets, int[] dscps, List<Ipv6Cidr> srcNets6, List<Ipv6Cidr> dstNets6)
    implements PacketPredicate
{
    /** A match that accepts every packet. */
    public static final TenantMatch ANY = new TenantMatch(null, null, null, null);

    /** Copies and sorts the sets; a prefix test given in one family only is empty in the other. */
    public TenantMatch
    {
        vlans = sortedCopy(vlans);
        dscps = sortedCopy(dscps);
        if (srcNets != null || srcNets6 != null)
        {
            srcNets = srcNets == null ? List.of() : List.copyOf(srcNets);
            srcNets6 = srcNets6 == null ? List.of() : List.copyOf(srcNets6);
        }
        if (dstNets != null || dstNets6 != null)
        {
            dstNets = dstNets == null ? List.of() : List.copyOf(dstNets);
            dstNets6 = dstNets6 == null ? List.of() : List.copyOf(dstNets6);
        }
    }

    /** A match on IPv4 prefixes only (or none). */
    public TenantMatch(final int[] vlans, final List<Cidr> srcNets, final List<Cidr> dstNets, final int[] dscps)
    {
        this(vlans, srcNets, dstNets, dscps, null, null);
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
        return coversValues(vlans, later.vlans) && coversValues(dscps, later.dscps)
            && coversNets(srcNets, later.srcNets) && coversNets6(srcNets6, later.srcNets6)
            && coversNets(dstNets, later.dstNets) && coversNets6(dstNets6, later.dstNets6);
    }

    @Override
    public boolean test(final PacketFlyweight packet)
    {
        if (vlans != null && (packet.vlanCount() == 0 || Arrays.binarySearch(vlans, packet.vlanId()) < 0))
        {
            return false;
        }
        if (srcNets != null && !(packet.isIpv4() ? contains(srcNets, packet.srcIpv4())
            : packet.isIpv6() && contains6(srcNets6, packet.srcIpv6High(), packet.srcIpv6Low())))
        {
            return false;
        }
        if (dstNets != null && !(packet.isIpv4() ? contains(dstNets, packet.dstIpv4())
            : packet.isIpv6() && contains6(dstNets6, packet.dstIpv6High(), packet.dstIpv6Low())))
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

    private static boolean contains6(final List<Ipv6Cidr> nets, final long high, final long low)
    {
        for (int i = 0, n = nets.size(); i < n; i++)
        {
            if (nets.get(i).contains(high, low))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean coversNets6(final List<Ipv6Cidr> earlier, final List<Ipv6Cidr> later)
    {
        if (earlier == null)
        {
            return true;
        }
        if (later == null)
        {
            return false;
        }
        for (final Ipv6Cidr net : later)
        {
            boolean inside = false;
            for (final Ipv6Cidr outer : earlier)
            {
                if (outer.prefixLength() <= net.prefixLength() && outer.contains(net.networkHigh(), net.networkLow()))
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
