package io.transnfv.vnf.harness;

import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.Ipv6;
import io.transnfv.vnf.packet.Ipv6Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Small frames for VNF tests, written by {@link FrameBuilder} with correct checksums.
 * Addresses are dotted quads for IPv4 or RFC 4291 text for IPv6 (any address with a colon);
 * both ends of a frame are of one family. Allocates; test tooling only.
 */
public final class Frames
{
    private Frames()
    {
    }

    /**
     * @param flags         TCP flags, e.g. {@code PacketFlyweight.TCP_SYN}.
     * @param payloadLength bytes of payload after the TCP header.
     * @return an Ethernet/IPv4/TCP frame.
     */
    public static byte[] tcp(
        final String src, final int sport, final String dst, final int dport, final int flags, final int payloadLength)
    {
        return write(ip(src, dst)
            .tcp(sport, dport, flags, 1000, 0).payload(payloadLength, (byte)0x5a));
    }

    /**
     * @param payloadLength bytes of payload after the UDP header.
     * @return an Ethernet/IPv4/UDP frame.
     */
    public static byte[] udp(final String src, final int sport, final String dst, final int dport, final int payloadLength)
    {
        return write(ip(src, dst)
            .udp(sport, dport).payload(payloadLength, (byte)0x5a));
    }

    /** @return an Ethernet/IPv4/ICMP or Ethernet/IPv6/ICMPv6 echo request. */
    public static byte[] icmpEcho(final String src, final String dst)
    {
        return write(ip(src, dst).icmp(Ipv6Cidr.isIpv6(src) ? 128 : 8, 0).payload(16, (byte)0));
    }

    /**
     * An ICMP (IPv4) or ICMPv6 (IPv6) error message from {@code src} to {@code dst} quoting
     * the IP header and the first eight transport bytes of {@code quoted}, as routers do
     * (RFC 792, RFC 4443), with a correct checksum.
     *
     * @param type   e.g. 3 (destination unreachable) or, for ICMPv6, 2 (packet too big).
     * @param code   the message code.
     * @param quoted a frame such as {@link #tcp} returns, of the same family.
     * @return an Ethernet/IP/ICMP frame.
     */
    public static byte[] icmpError(final String src, final String dst, final int type, final int code, final byte[] quoted)
    {
        final PacketFlyweight inner = new PacketFlyweight().wrap(quoted, 0, quoted.length);
        final int quoteLength = Math.min(inner.l4Offset() + 8, inner.l3Offset() + inner.ipTotalLength()) - inner.l3Offset();
        final byte[] frame = write(ip(src, dst).icmp(type, code).payload(quoteLength, (byte)0));
        final PacketFlyweight outer = new PacketFlyweight().wrap(frame, 0, frame.length);
        System.arraycopy(quoted, inner.l3Offset(), frame, outer.payloadOffset(), quoteLength);
        final int checksum = outer.isIpv6() ? Checksums.transport(outer) : Checksums.icmpv4(outer);
        frame[outer.l4Offset() + 2] = (byte)(checksum >>> 8);
        frame[outer.l4Offset() + 3] = (byte)checksum;
        return frame;
    }

    private static FrameBuilder ip(final String src, final String dst)
    {
        if (Ipv6Cidr.isIpv6(src))
        {
            final long[] s = Ipv6.parse(src);
            final long[] d = Ipv6.parse(dst);
            return new FrameBuilder().ipv6(s[0], s[1], d[0], d[1]);
        }
        return new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse(dst));
    }

    /** @return an Ethernet frame that carries no IP (an experimental EtherType). */
    public static byte[] nonIp()
    {
        return write(new FrameBuilder().payload(46, (byte)0));
    }

    private static byte[] write(final FrameBuilder builder)
    {
        final byte[] frame = new byte[builder.length()];
        builder.write(frame, 0);
        return frame;
    }
}
