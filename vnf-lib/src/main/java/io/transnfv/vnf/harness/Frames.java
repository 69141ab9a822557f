package io.transnfv.vnf.harness;

import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;

/**
 * Small frames for VNF tests, written by {@link FrameBuilder} with correct checksums.
 * Addresses are dotted quads. Allocates; test tooling only.
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
        return write(new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse(dst))
            .tcp(sport, dport, flags, 1000, 0).payload(payloadLength, (byte)0x5a));
    }

    /**
     * @param payloadLength bytes of payload after the UDP header.
     * @return an Ethernet/IPv4/UDP frame.
     */
    public static byte[] udp(final String src, final int sport, final String dst, final int dport, final int payloadLength)
    {
        return write(new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse(dst))
            .udp(sport, dport).payload(payloadLength, (byte)0x5a));
    }

    /** @return an Ethernet/IPv4/ICMP echo request. */
    public static byte[] icmpEcho(final String src, final String dst)
    {
        return write(new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse(dst)).icmp(8, 0).payload(16, (byte)0));
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
