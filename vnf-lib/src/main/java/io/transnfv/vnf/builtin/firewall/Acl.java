package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv6Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * An ordered, first-match access list over IPv4 and IPv6 packets, parsed once at setup from
 * rules of the form {@value #FORM}, kept in flat arrays and matched per packet without
 * allocating. Immutable; any thread may call {@link #match(PacketFlyweight)}.
 *
 * <p>A rule's prefixes decide which family it applies to: IPv4 prefixes
 * ({@code 10.0.0.0/8}) match only IPv4 packets, IPv6 prefixes ({@code 2001:db8::/32}) only
 * IPv6 packets, and a rule whose prefixes are both {@code any} matches both. A rule that
 * mixes the families is refused. A rule of the other family is kept in the arrays with a
 * mask of 0 against a network of 1, which no address matches, so each family's loop tests
 * the same conditions as before IPv6 rules existed.
 */
public final class Acl
{
    /** The form of one rule, for error messages and docs. */
    public static final String FORM = "allow|deny <tcp|udp|icmp|icmpv6|any> <src cidr|any> <dst cidr|any> [<dst port|lo-hi|any>]";
    /** {@link #match} result when no rule matched. */
    public static final int NO_MATCH = -1;
    /** Action code: let the packet through. */
    public static final int ALLOW = 1;
    /** Action code: drop the packet. */
    public static final int DENY = 2;

    private static final int ANY_PROTOCOL = -1;

    private final int[] action;
    private final int[] protocol;
    private final int[] srcNetwork;
    private final int[] srcMask;
    private final int[] dstNetwork;
    private final int[] dstMask;
    private final int[] portLow;
    private final int[] portHigh;
    private final boolean[] anyPort;
    private final long[] srcHighNetwork;
    private final long[] srcHighMask;
    private final long[] srcLowNetwork;
    private final long[] srcLowMask;
    private final long[] dstHighNetwork;
    private final long[] dstHighMask;
    private final long[] dstLowNetwork;
    private final long[] dstLowMask;

    private Acl(final int n)
    {
        action = new int[n];
        protocol = new int[n];
        srcNetwork = new int[n];
        srcMask = new int[n];
        dstNetwork = new int[n];
        dstMask = new int[n];
        portLow = new int[n];
        portHigh = new int[n];
        anyPort = new boolean[n];
        srcHighNetwork = new long[n];
        srcHighMask = new long[n];
        srcLowNetwork = new long[n];
        srcLowMask = new long[n];
        dstHighNetwork = new long[n];
        dstHighMask = new long[n];
        dstLowNetwork = new long[n];
        dstLowMask = new long[n];
    }

    /**
     * @param rules the rules, in priority order.
     * @param param the parameter they came from, named in errors.
     * @return the parsed list.
     * @throws VnfConfigException naming the rule's index and the expected form.
     */
    public static Acl parse(final List<String> rules, final String param)
    {
        final Acl acl = new Acl(rules.size());
        for (int i = 0; i < rules.size(); i++)
        {
            acl.parseRule(i, rules.get(i), param);
        }
        return acl;
    }

    /** @return the number of rules. */
    public int size()
    {
        return action.length;
    }

    /**
     * @param packet a valid IPv4 or IPv6 packet.
     * @return {@link #ALLOW} or {@link #DENY} of the first matching rule, or {@link #NO_MATCH}.
     */
    public int match(final PacketFlyweight packet)
    {
        if (packet.isIpv6())
        {
            return matchIpv6(packet);
        }
        final int proto = packet.ipProtocol();
        final int src = packet.srcIpv4();
        final int dst = packet.dstIpv4();
        final int n = action.length;
        for (int i = 0; i < n; i++)
        {
            if ((protocol[i] == ANY_PROTOCOL || protocol[i] == proto)
                && (src & srcMask[i]) == srcNetwork[i]
                && (dst & dstMask[i]) == dstNetwork[i]
                && (anyPort[i] || (packet.hasPorts() && packet.dstPort() >= portLow[i] && packet.dstPort() <= portHigh[i])))
            {
                return action[i];
            }
        }
        return NO_MATCH;
    }

    private int matchIpv6(final PacketFlyweight packet)
    {
        final int proto = packet.ipProtocol();
        final long srcHigh = packet.srcIpv6High();
        final long srcLow = packet.srcIpv6Low();
        final long dstHigh = packet.dstIpv6High();
        final long dstLow = packet.dstIpv6Low();
        final int n = action.length;
        for (int i = 0; i < n; i++)
        {
            if ((protocol[i] == ANY_PROTOCOL || protocol[i] == proto)
                && (srcHigh & srcHighMask[i]) == srcHighNetwork[i]
                && (srcLow & srcLowMask[i]) == srcLowNetwork[i]
                && (dstHigh & dstHighMask[i]) == dstHighNetwork[i]
                && (dstLow & dstLowMask[i]) == dstLowNetwork[i]
                && (anyPort[i] || (packet.hasPorts() && packet.dstPort() >= portLow[i] && packet.dstPort() <= portHigh[i])))
            {
                return action[i];
            }
        }
        return NO_MATCH;
    }

    private void parseRule(final int i, final String rule, final String param)
    {
        final String[] t = rule.trim().split("\\s+");
        if (t.length < 4 || t.length > 5)
        {
            throw bad(param, i, rule, "has " + t.length + " words");
        }
        action[i] = switch (t[0])
        {
            case "allow" -> ALLOW;
            case "deny" -> DENY;
            default -> throw bad(param, i, rule, "action '" + t[0] + "' is not allow or deny");
        };
        protocol[i] = switch (t[1])
        {
            case "tcp" -> PacketFlyweight.PROTO_TCP;
            case "udp" -> PacketFlyweight.PROTO_UDP;
            case "icmp" -> PacketFlyweight.PROTO_ICMP;
            case "icmpv6" -> PacketFlyweight.PROTO_ICMPV6;
            case "any" -> ANY_PROTOCOL;
            default -> throw bad(param, i, rule, "protocol '" + t[1] + "' is not tcp, udp, icmp, icmpv6 or any");
        };
        final boolean srcIpv6 = Ipv6Cidr.isIpv6(t[2]);
        final boolean dstIpv6 = Ipv6Cidr.isIpv6(t[3]);
        final boolean srcAny = t[2].equals("any");
        final boolean dstAny = t[3].equals("any");
        if (!srcAny && !dstAny && srcIpv6 != dstIpv6)
        {
            throw bad(param, i, rule, "source " + t[2] + " and destination " + t[3]
                + " are of different IP versions; write two rules, one per version, or use any");
        }
        final boolean ipv6Only = srcIpv6 || dstIpv6;
        final boolean ipv4Only = !ipv6Only && !(srcAny && dstAny);
        if (protocol[i] == PacketFlyweight.PROTO_ICMP && ipv6Only || protocol[i] == PacketFlyweight.PROTO_ICMPV6 && ipv4Only)
        {
            throw bad(param, i, rule, "protocol " + t[1] + " never occurs with " + (ipv6Only ? "IPv6" : "IPv4")
                + " addresses; write " + (ipv6Only ? "icmpv6" : "icmp"));
        }
        if (ipv6Only)
        {
            // an IPv6 rule: no IPv4 address matches network 1 under mask 0
            srcNetwork[i] = 1;
            dstNetwork[i] = 1;
            final Ipv6Cidr src = prefix6(param, i, rule, t[2], "source");
            srcHighNetwork[i] = src.networkHigh();
            srcHighMask[i] = src.maskHigh();
            srcLowNetwork[i] = src.networkLow();
            srcLowMask[i] = src.maskLow();
            final Ipv6Cidr dst = prefix6(param, i, rule, t[3], "destination");
            dstHighNetwork[i] = dst.networkHigh();
            dstHighMask[i] = dst.maskHigh();
            dstLowNetwork[i] = dst.networkLow();
            dstLowMask[i] = dst.maskLow();
        }
        else
        {
            final Cidr src = prefix(param, i, rule, t[2], "source");
            srcNetwork[i] = src.network();
            srcMask[i] = src.mask();
            final Cidr dst = prefix(param, i, rule, t[3], "destination");
            dstNetwork[i] = dst.network();
            dstMask[i] = dst.mask();
            // an IPv4 rule: no IPv6 address matches network 1 under mask 0
            srcHighNetwork[i] = ipv4Only ? 1L : 0L;
        }
        anyPort[i] = t.length == 4 || t[4].equals("any");
        if (!anyPort[i])
        {
            if (protocol[i] != PacketFlyweight.PROTO_TCP && protocol[i] != PacketFlyweight.PROTO_UDP)
            {
                throw bad(param, i, rule, "a port needs protocol tcp or udp");
            }
            final String ports = t[4];
            final int dash = ports.indexOf('-');
            portLow[i] = port(param, i, rule, dash < 0 ? ports : ports.substring(0, dash));
            portHigh[i] = dash < 0 ? portLow[i] : port(param, i, rule, ports.substring(dash + 1));
            if (portLow[i] > portHigh[i])
            {
                throw bad(param, i, rule, "port range " + ports + " is empty");
            }
        }
    }

    private static Cidr prefix(final String param, final int i, final String rule, final String text, final String what)
    {
        if (text.equals("any"))
        {
            return Cidr.of(0, 0);
        }
        try
        {
            return Cidr.parse(text);
        }
        catch (final IllegalArgumentException e)
        {
            throw bad(param, i, rule, what + " '" + text + "': " + e.getMessage());
        }
    }

    private static Ipv6Cidr prefix6(final String param, final int i, final String rule, final String text, final String what)
    {
        if (text.equals("any"))
        {
            return Ipv6Cidr.of(0L, 0L, 0);
        }
        try
        {
            return Ipv6Cidr.parse(text);
        }
        catch (final IllegalArgumentException e)
        {
            throw bad(param, i, rule, what + " '" + text + "': " + e.getMessage());
        }
    }

    private static int port(final String param, final int i, final String rule, final String text)
    {
        try
        {
            final int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535)
            {
                return port;
            }
        }
        catch (final NumberFormatException e)
        {
            // reported below with the rule's context
        }
        throw bad(param, i, rule, "port '" + text + "' is not a number from 0 to 65535");
    }

    private static VnfConfigException bad(final String param, final int i, final String rule, final String what)
    {
        return new VnfConfigException(param, param + "[" + i + "] '" + rule + "': " + what + "; expected " + FORM);
    }
}
