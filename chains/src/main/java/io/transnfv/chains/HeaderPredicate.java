package io.transnfv.chains;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;

import java.util.Arrays;

/**
 * An edge's {@code when:} predicate compiled to primitive fields: the conjunction of the
 * header tests given, each skipped when absent. Immutable; {@link #test} allocates nothing
 * and may be called from any thread.
 *
 * <pre>
 *   proto      ipProtocol() == protocol                       (ANY: skipped)
 *   ip_version isIpv4() / isIpv6()                            (0: skipped)
 *   src_net    isIpv4() &amp;&amp; srcNet.contains(srcIpv4())      (null: skipped)
 *   dst_net    isIpv4() &amp;&amp; dstNet.contains(dstIpv4())      (null: skipped)
 *   src_port   hasPorts() &amp;&amp; srcPort() in srcPorts          (null: skipped)
 *   dst_port   hasPorts() &amp;&amp; dstPort() in dstPorts          (null: skipped)
 *   tcp_flags  TCP &amp;&amp; (tcpFlags() &amp; mask) == mask            (0: skipped)
 * </pre>
 */
final class HeaderPredicate implements PacketPredicate
{
    /** No protocol test. */
    static final int ANY = -1;

    private final int protocol;
    private final int ipVersion;
    private final Cidr srcNet;
    private final Cidr dstNet;
    private final int[] srcPorts;
    private final int[] dstPorts;
    private final int tcpFlagsMask;

    /**
     * @param protocol     IP protocol number, or {@link #ANY}.
     * @param ipVersion    4, 6, or 0 for either.
     * @param srcNet       source prefix, or null.
     * @param dstNet       destination prefix, or null.
     * @param srcPorts     accepted source ports (copied), or null for any.
     * @param dstPorts     accepted destination ports (copied), or null for any.
     * @param tcpFlagsMask TCP flags that must all be set, or 0.
     */
    HeaderPredicate(
        final int protocol, final int ipVersion, final Cidr srcNet, final Cidr dstNet,
        final int[] srcPorts, final int[] dstPorts, final int tcpFlagsMask)
    {
        this.protocol = protocol;
        this.ipVersion = ipVersion;
        this.srcNet = srcNet;
        this.dstNet = dstNet;
        this.srcPorts = sortedCopy(srcPorts);
        this.dstPorts = sortedCopy(dstPorts);
        this.tcpFlagsMask = tcpFlagsMask;
    }

    @Override
    public boolean test(final PacketFlyweight packet)
    {
        if (protocol != ANY && packet.ipProtocol() != protocol)
        {
            return false;
        }
        if (ipVersion == 4 && !packet.isIpv4() || ipVersion == 6 && !packet.isIpv6())
        {
            return false;
        }
        if (srcNet != null && !(packet.isIpv4() && srcNet.contains(packet.srcIpv4())))
        {
            return false;
        }
        if (dstNet != null && !(packet.isIpv4() && dstNet.contains(packet.dstIpv4())))
        {
            return false;
        }
        if (srcPorts != null && !(packet.hasPorts() && contains(srcPorts, packet.srcPort())))
        {
            return false;
        }
        if (dstPorts != null && !(packet.hasPorts() && contains(dstPorts, packet.dstPort())))
        {
            return false;
        }
        return tcpFlagsMask == 0
            || packet.ipProtocol() == PacketFlyweight.PROTO_TCP && (packet.tcpFlags() & tcpFlagsMask) == tcpFlagsMask;
    }

    private static int[] sortedCopy(final int[] ports)
    {
        if (ports == null)
        {
            return null;
        }
        final int[] copy = ports.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static boolean contains(final int[] sortedPorts, final int port)
    {
        return Arrays.binarySearch(sortedPorts, port) >= 0;
    }
}
