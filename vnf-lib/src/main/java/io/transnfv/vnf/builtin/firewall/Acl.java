package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * An ordered, first-match access list over IPv4 packets, parsed once at setup from rules of
 * the form {@value #FORM}, kept in flat arrays and matched per packet without allocating.
 * Immutable; any thread may call {@link #match(PacketFlyweight)}.
 */
public final class Acl
{
    /** The form of one rule, for error messages and docs. */
    public static final String FORM = "allow|deny <tcp|udp|icmp|any> <src cidr|any> <dst cidr|any> [<dst port|lo-hi|any>]";
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
     * @param packet a valid IPv4 packet.
     * @return {@link #ALLOW} or {@link #DENY} of the first matching rule, or {@link #NO_MATCH}.
     */
    public int match(final PacketFlyweight packet)
    {
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
            case "any" -> ANY_PROTOCOL;
            default -> throw bad(param, i, rule, "protocol '" + t[1] + "' is not tcp, udp, icmp or any");
        };
        final Cidr src = prefix(param, i, rule, t[2], "source");
        srcNetwork[i] = src.network();
        srcMask[i] = src.mask();
        final Cidr dst = prefix(param, i, rule, t[3], "destination");
        dstNetwork[i] = dst.network();
        dstMask[i] = dst.mask();
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
