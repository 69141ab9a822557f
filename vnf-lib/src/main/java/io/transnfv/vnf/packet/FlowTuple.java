package io.transnfv.vnf.packet;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A flow named in text, as an operator asks about it: protocol, source and destination
 * address and port, IPv4 or IPv6. Two spellings are read, the one made for URLs and the one
 * {@link FiveTupleFormat} prints in output records, so a tuple can be copied from either:
 *
 * <pre>
 *  tcp:10.0.0.1:1234-192.168.1.5:80            PROTO:SRC:SPORT-DST:DPORT
 *  udp:[2001:db8::1]:53-[2001:db8::2]:5353     IPv6 addresses in brackets
 *  icmp:10.0.0.1-10.0.0.2                      no ports for protocols without them
 *  tcp 10.0.0.1:1234&gt;192.168.1.5:80            FiveTupleFormat's text
 * </pre>
 *
 * <p>The protocol is {@code tcp}, {@code udp}, {@code icmp}, {@code icmpv6} or {@code ipN}
 * (N a protocol number); {@code tcp} and {@code udp} need both ports, the others take none.
 * {@link #frame()} writes a packet of the flow: a TCP one carries only ACK (a packet of an
 * established connection, neither opening nor closing it), an ICMP one is an echo request.
 * Allocates; for control-plane requests, never the packet path.
 *
 * @param protocol IP protocol number.
 * @param ipv6     true for IPv6 addresses.
 * @param src      source address: {@code {ipv4}} or {@code {high, low}}.
 * @param srcPort  source port, 0 without ports.
 * @param dst      destination address, like {@code src}.
 * @param dstPort  destination port, 0 without ports.
 */
public record FlowTuple(int protocol, boolean ipv6, long[] src, int srcPort, long[] dst, int dstPort)
{
    /** What {@link #parse} accepts, for error messages. */
    public static final String SYNTAX = "PROTO:SRC:SPORT-DST:DPORT, e.g. tcp:10.0.0.1:1234-192.0.2.5:80 or"
        + " udp:[2001:db8::1]:53-[2001:db8::2]:5353 (icmp:SRC-DST without ports)";

    private static final String ENDPOINT = "(\\[[^\\]]*\\]|[^:\\[\\]>\\-\\s]+)(?::([^:\\-\\s>]*))?";
    private static final Pattern TUPLE = Pattern.compile("([A-Za-z0-9]+)[: ]" + ENDPOINT + "[->]" + ENDPOINT);

    /**
     * @param text a tuple in one of the spellings above.
     * @return the flow.
     * @throws IllegalArgumentException saying what is wrong, naming the text.
     */
    public static FlowTuple parse(final String text)
    {
        final Matcher m = TUPLE.matcher(text.trim());
        if (!m.matches())
        {
            throw new IllegalArgumentException("'" + text + "' is not a flow tuple");
        }
        final String name = m.group(1).toLowerCase(Locale.ROOT);
        final int protocol = protocol(name, text);
        final boolean portful = protocol == PacketFlyweight.PROTO_TCP || protocol == PacketFlyweight.PROTO_UDP;
        final String srcText = m.group(2);
        final String dstText = m.group(4);
        final boolean ipv6 = srcText.startsWith("[");
        if (ipv6 != dstText.startsWith("["))
        {
            throw new IllegalArgumentException("'" + text + "' mixes IPv4 and IPv6: both ends of a flow are of one family"
                + " (IPv6 addresses go in brackets)");
        }
        final long[] src = address(srcText, ipv6, text);
        final long[] dst = address(dstText, ipv6, text);
        if (portful != (m.group(3) != null) || portful != (m.group(5) != null))
        {
            throw new IllegalArgumentException("'" + text + "': " + (portful ? name + " needs a port at both ends"
                : name + " has no ports"));
        }
        final int srcPort = portful ? port(m.group(3), text) : 0;
        final int dstPort = portful ? port(m.group(5), text) : 0;
        return new FlowTuple(protocol, ipv6, src, srcPort, dst, dstPort);
    }

    /** @return a frame of this flow (Ethernet, IP, transport header), with correct lengths. */
    public byte[] frame()
    {
        final FrameBuilder builder = new FrameBuilder();
        if (ipv6)
        {
            builder.ipv6(src[0], src[1], dst[0], dst[1]);
        }
        else
        {
            builder.ipv4((int)src[0], (int)dst[0]);
        }
        if (protocol == PacketFlyweight.PROTO_TCP)
        {
            builder.tcp(srcPort, dstPort, PacketFlyweight.TCP_ACK, 1, 1);
        }
        else if (protocol == PacketFlyweight.PROTO_UDP)
        {
            builder.udp(srcPort, dstPort);
        }
        else if (protocol == PacketFlyweight.PROTO_ICMP || protocol == PacketFlyweight.PROTO_ICMPV6)
        {
            builder.icmp(protocol == PacketFlyweight.PROTO_ICMPV6 ? 128 : 8, 0).payload(8, (byte)0);
        }
        else
        {
            builder.ipProtocol(protocol);
        }
        final byte[] frame = new byte[builder.length()];
        builder.write(frame, 0);
        return frame;
    }

    /** @return the tuple as {@link FiveTupleFormat} prints it. */
    @Override
    public String toString()
    {
        final byte[] frame = frame();
        return FiveTupleFormat.format(new PacketFlyweight().wrap(frame, 0, frame.length));
    }

    private static int protocol(final String name, final String text)
    {
        switch (name)
        {
            case "tcp":
                return PacketFlyweight.PROTO_TCP;
            case "udp":
                return PacketFlyweight.PROTO_UDP;
            case "icmp":
                return PacketFlyweight.PROTO_ICMP;
            case "icmpv6":
                return PacketFlyweight.PROTO_ICMPV6;
            default:
                if (name.startsWith("ip") && name.length() > 2 && name.length() <= 5 && name.substring(2).chars().allMatch(Character::isDigit))
                {
                    final int number = Integer.parseInt(name.substring(2));
                    if (number <= 255)
                    {
                        return number;
                    }
                }
                throw new IllegalArgumentException("'" + text + "': '" + name + "' is not a protocol (tcp, udp, icmp, icmpv6"
                    + " or ipN with N from 0 to 255)");
        }
    }

    private static long[] address(final String address, final boolean ipv6, final String text)
    {
        try
        {
            if (ipv6)
            {
                return Ipv6.parse(address.substring(1, address.length() - 1));
            }
            return new long[] {Ipv4.parse(address)};
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("'" + text + "': " + e.getMessage(), e);
        }
    }

    private static int port(final String port, final String text)
    {
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit) || Integer.parseInt(port) > 65535)
        {
            throw new IllegalArgumentException("'" + text + "': '" + port + "' is not a port (0 to 65535)");
        }
        return Integer.parseInt(port);
    }
}
