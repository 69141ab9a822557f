package io.transnfv.chains;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads an edge's {@code when:} map into a {@link HeaderPredicate}: each header test, and
 * the combinations no packet can match (an IPv4 prefix with {@code ip_version: 6}, TCP flags
 * or ports under a protocol that has none). Setup only.
 */
final class WhenReader
{
    static final List<String> WHEN_KEYS =
        List.of("proto", "ip_version", "src_net", "dst_net", "src_port", "dst_port", "tcp_flags");

    private static final Map<String, Integer> PROTOCOLS =
        Map.of("tcp", PacketFlyweight.PROTO_TCP, "udp", PacketFlyweight.PROTO_UDP, "icmp", PacketFlyweight.PROTO_ICMP);
    private static final Map<String, Integer> TCP_FLAGS = new LinkedHashMap<>();

    static
    {
        TCP_FLAGS.put("syn", PacketFlyweight.TCP_SYN);
        TCP_FLAGS.put("ack", PacketFlyweight.TCP_ACK);
        TCP_FLAGS.put("fin", PacketFlyweight.TCP_FIN);
        TCP_FLAGS.put("rst", PacketFlyweight.TCP_RST);
    }

    private final ChainErrors errors;

    /** @param errors where problems are added. */
    WhenReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /** @return the predicate, or null if an error was added. */
    PacketPredicate read(final YamlNode.MapNode when)
    {
        final int errorsBefore = errors.count();
        errors.checkKeys(when, WHEN_KEYS, "in 'when'");
        int protocol = HeaderPredicate.ANY;
        final YamlNode protoNode = when.get("proto");
        if (protoNode != null)
        {
            protocol = protocol(protoNode);
        }
        int ipVersion = 0;
        final YamlNode versionNode = when.get("ip_version");
        if (versionNode != null)
        {
            final String text = ChainErrors.scalarText(versionNode);
            if ("4".equals(text) || "6".equals(text))
            {
                ipVersion = Integer.parseInt(text);
            }
            else
            {
                errors.add(versionNode, "bad ip_version " + versionNode.describe(), "write 4 or 6");
            }
        }
        final Cidr srcNet = cidr(when.get("src_net"), "src_net");
        final Cidr dstNet = cidr(when.get("dst_net"), "dst_net");
        final int[] srcPorts = ports(when.get("src_port"), "src_port");
        final int[] dstPorts = ports(when.get("dst_port"), "dst_port");
        final int tcpFlags = tcpFlags(when.get("tcp_flags"));

        if (ipVersion == 6 && (srcNet != null || dstNet != null))
        {
            errors.add(versionNode, "'ip_version: 6' contradicts the IPv4 prefix in "
                + (srcNet != null ? "'src_net'" : "'dst_net'") + ": no packet can match",
                "remove 'ip_version: 6' or the IPv4 prefix (src_net and dst_net are IPv4 only)");
        }
        if (protocol >= 0 && protocol != PacketFlyweight.PROTO_TCP && tcpFlags != 0)
        {
            errors.add(protoNode, "'tcp_flags' needs TCP but 'proto' is " + protoNode.describe() + ": no packet can match",
                "write 'proto: tcp' or remove 'tcp_flags'");
        }
        if (protocol >= 0 && protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP
            && (srcPorts != null || dstPorts != null))
        {
            errors.add(protoNode, "ports need TCP or UDP but 'proto' is " + protoNode.describe() + ": no packet can match",
                "write 'proto: tcp' or 'proto: udp', or remove the port tests");
        }
        if (errors.count() > errorsBefore)
        {
            return null;
        }
        return new HeaderPredicate(protocol, ipVersion, srcNet, dstNet, srcPorts, dstPorts, tcpFlags);
    }

    private int protocol(final YamlNode node)
    {
        final String text = ChainErrors.scalarText(node);
        if (text != null)
        {
            final Integer named = PROTOCOLS.get(text.toLowerCase(Locale.ROOT));
            if (named != null)
            {
                return named;
            }
            final long number = ChainErrors.wholeNumber(node);
            if (number >= 0 && number <= 255)
            {
                return (int)number;
            }
        }
        errors.add(node, "bad proto " + node.describe(), "write tcp, udp, icmp or an IP protocol number 0-255");
        return HeaderPredicate.ANY;
    }

    private Cidr cidr(final YamlNode node, final String key)
    {
        if (node == null)
        {
            return null;
        }
        final String text = ChainErrors.scalarText(node);
        if (text != null)
        {
            try
            {
                return Cidr.parse(text);
            }
            catch (final IllegalArgumentException e)
            {
                errors.add(node, "bad " + key + ": " + e.getMessage(), "write an IPv4 prefix a.b.c.d/n, e.g. 10.0.0.0/8");
                return null;
            }
        }
        errors.add(node, "bad " + key + " " + node.describe(), "write an IPv4 prefix a.b.c.d/n, e.g. 10.0.0.0/8");
        return null;
    }

    private int[] ports(final YamlNode node, final String key)
    {
        if (node == null)
        {
            return null;
        }
        final List<YamlNode> items = node instanceof YamlNode.SeqNode seq ? seq.items() : List.of(node);
        if (items.isEmpty())
        {
            errors.add(node, "empty " + key + " list: no packet can match", "list at least one port, or remove '" + key + "'");
            return null;
        }
        final int[] ports = new int[items.size()];
        boolean ok = true;
        for (int i = 0; i < items.size(); i++)
        {
            final long port = ChainErrors.wholeNumber(items.get(i));
            if (port < 0 || port > 65535)
            {
                errors.add(items.get(i), "bad " + key + " " + items.get(i).describe(),
                    "write a port number 0-65535 or a list of them, e.g. [80, 443]");
                ok = false;
            }
            ports[i] = (int)port;
        }
        if (!ok)
        {
            return null;
        }
        Arrays.sort(ports);
        return ports;
    }

    private int tcpFlags(final YamlNode node)
    {
        if (node == null)
        {
            return 0;
        }
        final List<YamlNode> items = node instanceof YamlNode.SeqNode seq ? seq.items() : List.of(node);
        int mask = 0;
        for (final YamlNode item : items)
        {
            final String text = ChainErrors.scalarText(item);
            final Integer flag = text == null ? null : TCP_FLAGS.get(text.toLowerCase(Locale.ROOT));
            if (flag == null)
            {
                errors.add(item, "bad tcp_flags item " + item.describe(),
                    "write a list of flags that must all be set, from syn, ack, fin, rst, e.g. [syn, ack]");
            }
            else
            {
                mask |= flag;
            }
        }
        if (items.isEmpty())
        {
            errors.add(node, "empty tcp_flags list", "list the flags that must all be set, e.g. [syn], or remove 'tcp_flags'");
        }
        return mask;
    }
}
