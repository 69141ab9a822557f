package io.transnfv.vnf.packet;

/**
 * Renders a packet's 5-tuple for output records and reports. Allocates; not for the
 * per-packet path of a VNF.
 *
 * <pre>
 *  tcp 10.0.0.1:1234&gt;192.168.1.5:80        TCP or UDP with ports
 *  udp [2001:db8::1]:53&gt;[2001:db8::2]:5353  IPv6 addresses in brackets (RFC 5952 text)
 *  udp 10.0.0.1:-&gt;10.0.0.2:-               non-first fragment: ports unknown
 *  icmp 10.0.0.1&gt;10.0.0.2                  a protocol without ports
 *  ip47 10.0.0.1&gt;10.0.0.2                  other protocols by number
 *  eth 0x0806                              not IP
 *  malformed TRUNCATED_L4                  not valid
 * </pre>
 */
public final class FiveTupleFormat
{
    private FiveTupleFormat()
    {
    }

    /**
     * @param p a parsed packet.
     * @return its 5-tuple text.
     */
    public static String format(final PacketFlyweight p)
    {
        return appendTo(new StringBuilder(48), p).toString();
    }

    /**
     * Append a packet's 5-tuple text.
     *
     * @param out destination.
     * @param p   a parsed packet.
     * @return {@code out}.
     */
    public static StringBuilder appendTo(final StringBuilder out, final PacketFlyweight p)
    {
        if (!p.isValid())
        {
            return out.append("malformed ").append(PacketFlyweight.malformedReasonName(p.malformedReason()));
        }
        if (!p.isIp())
        {
            return out.append("eth 0x").append(String.format("%04x", p.etherType()));
        }
        appendProtocol(out, p.ipProtocol()).append(' ');
        final boolean portful = p.ipProtocol() == PacketFlyweight.PROTO_TCP || p.ipProtocol() == PacketFlyweight.PROTO_UDP;
        appendAddress(out, p, true);
        appendPort(out, p, portful, p.srcPort());
        out.append('>');
        appendAddress(out, p, false);
        appendPort(out, p, portful, p.dstPort());
        return out;
    }

    private static StringBuilder appendProtocol(final StringBuilder out, final int protocol)
    {
        switch (protocol)
        {
            case PacketFlyweight.PROTO_TCP:
                return out.append("tcp");
            case PacketFlyweight.PROTO_UDP:
                return out.append("udp");
            case PacketFlyweight.PROTO_ICMP:
                return out.append("icmp");
            case PacketFlyweight.PROTO_ICMPV6:
                return out.append("icmpv6");
            default:
                return out.append("ip").append(protocol);
        }
    }

    private static void appendAddress(final StringBuilder out, final PacketFlyweight p, final boolean source)
    {
        if (p.isIpv4())
        {
            Ipv4.appendTo(out, source ? p.srcIpv4() : p.dstIpv4());
        }
        else
        {
            out.append('[');
            appendIpv6(out, source ? p.srcIpv6High() : p.dstIpv6High(), source ? p.srcIpv6Low() : p.dstIpv6Low());
            out.append(']');
        }
    }

    private static void appendPort(final StringBuilder out, final PacketFlyweight p, final boolean portful, final int port)
    {
        if (p.hasPorts())
        {
            out.append(':').append(port);
        }
        else if (portful)
        {
            out.append(":-");
        }
    }

    /**
     * Append an IPv6 address in RFC 5952 canonical text (lower case, longest run of two or
     * more zero groups compressed to {@code ::}).
     *
     * @param out  destination.
     * @param high upper 64 bits.
     * @param low  lower 64 bits.
     * @return {@code out}.
     */
    public static StringBuilder appendIpv6(final StringBuilder out, final long high, final long low)
    {
        final int[] groups = new int[8];
        for (int i = 0; i < 4; i++)
        {
            groups[i] = (int)(high >>> (48 - 16 * i)) & 0xFFFF;
            groups[i + 4] = (int)(low >>> (48 - 16 * i)) & 0xFFFF;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; )
        {
            if (groups[i] == 0)
            {
                int j = i;
                while (j < 8 && groups[j] == 0)
                {
                    j++;
                }
                if (j - i > bestLength)
                {
                    bestStart = i;
                    bestLength = j - i;
                }
                i = j;
            }
            else
            {
                i++;
            }
        }
        for (int i = 0; i < 8; i++)
        {
            if (i == bestStart)
            {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength)
            {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out;
    }
}
