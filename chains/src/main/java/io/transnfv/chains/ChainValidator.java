package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Walks one chain document's {@link YamlNode} tree, checks every key and value, and builds
 * the {@link ChainSpec}. Keeps going after an error so one run reports every problem; builds
 * nothing if there was any. One instance per document; setup only, not thread-safe.
 */
final class ChainValidator
{
    static final List<String> TOP_KEYS = List.of("name", "description", "vnfs", "edges", "settings");
    static final List<String> VNF_KEYS = List.of("name", "type", "params");
    static final List<String> EDGE_KEYS = List.of("from", "output", "to", "when");
    static final List<String> WHEN_KEYS =
        List.of("proto", "ip_version", "src_net", "dst_net", "src_port", "dst_port", "tcp_flags");
    static final List<String> SETTINGS_KEYS = List.of("punctuation", "executor_threads", "traffic", "output");
    static final List<String> PUNCTUATION_KEYS = List.of("transactions", "interval");
    static final List<String> TRAFFIC_KEYS = List.of("generate", "pcap", "loop");

    private static final Pattern VNF_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final Map<String, Integer> PROTOCOLS =
        Map.of("tcp", PacketFlyweight.PROTO_TCP, "udp", PacketFlyweight.PROTO_UDP, "icmp", PacketFlyweight.PROTO_ICMP);
    private static final Map<String, Integer> TCP_FLAGS = new LinkedHashMap<>();
    private static final int MAX_EXECUTOR_THREADS = 4096;

    static
    {
        TCP_FLAGS.put("syn", PacketFlyweight.TCP_SYN);
        TCP_FLAGS.put("ack", PacketFlyweight.TCP_ACK);
        TCP_FLAGS.put("fin", PacketFlyweight.TCP_FIN);
        TCP_FLAGS.put("rst", PacketFlyweight.TCP_RST);
    }

    private final VnfRegistry registry;
    private final String source;
    private final Path baseDirectory;
    private final List<ChainError> errors;

    /** A VNF as far as validation got: {@code node} is null if it had errors. */
    private record Vnf(String name, YamlNode at, VnfNode node, List<String> outputs)
    {
    }

    /** An edge whose endpoints resolved, for the graph checks. */
    private record Edge(int from, String output, int to, boolean conditional, YamlNode at, EdgeSpec spec)
    {
    }

    /**
     * @param registry      the VNF types.
     * @param source        the name errors carry.
     * @param baseDirectory where relative pcap paths resolve, or null for the working directory.
     * @param errors        where problems are added.
     */
    ChainValidator(final VnfRegistry registry, final String source, final Path baseDirectory, final List<ChainError> errors)
    {
        this.registry = registry;
        this.source = source;
        this.baseDirectory = baseDirectory;
        this.errors = errors;
    }

    /** @return the chain, or null if an error was added. */
    ChainSpec validate(final YamlNode root)
    {
        final int errorsBefore = errors.size();
        final YamlNode.MapNode top = expectMap(root, "the chain",
            "write a map with the keys name, vnfs, edges and settings (see docs/chain-yaml.md)");
        if (top == null)
        {
            return null;
        }
        checkKeys(top, TOP_KEYS, "at the top level");
        final String name = requiredText(top, "name", "the chain", "add 'name: my-chain' at the top of the file");
        final YamlNode descriptionNode = top.get("description");
        final String description = descriptionNode == null ? "" : optionalText(descriptionNode, "'description'");

        final List<Vnf> vnfs = vnfs(top);
        final List<Edge> edges = edges(top.get("edges"), vnfs);
        checkGraph(vnfs, edges);
        final RunSettings settings = settings(top.get("settings"));

        if (errors.size() > errorsBefore || name == null || vnfs.isEmpty())
        {
            return null;
        }
        final List<VnfNode> nodes = new ArrayList<>(vnfs.size());
        for (final Vnf vnf : vnfs)
        {
            nodes.add(vnf.node());
        }
        final List<EdgeSpec> edgeSpecs = new ArrayList<>(edges.size());
        for (final Edge edge : edges)
        {
            edgeSpecs.add(edge.spec());
        }
        return new ChainSpec(name, description, nodes, edgeSpecs, settings);
    }

    // ---------------------------------------------------------------------------------- VNFs

    private List<Vnf> vnfs(final YamlNode.MapNode top)
    {
        final List<Vnf> vnfs = new ArrayList<>();
        final YamlNode.Entry entry = top.entry("vnfs");
        if (entry == null)
        {
            error(top, "missing 'vnfs'", "add 'vnfs:' with at least one '- name: ...' and 'type: ...'");
            return vnfs;
        }
        final YamlNode.SeqNode list = expectSeq(entry.value(), "'vnfs'",
            "write a list: one '- name: ...' item per VNF, each with 'type:'");
        if (list == null)
        {
            return vnfs;
        }
        if (list.items().isEmpty())
        {
            errorAtKey(entry, "'vnfs' is empty", "list at least one VNF: '- name: nat' with 'type: nat'");
            return vnfs;
        }
        final Map<String, Vnf> byName = new HashMap<>();
        for (final YamlNode item : list.items())
        {
            final Vnf vnf = vnf(item, byName);
            if (vnf != null && !byName.containsKey(vnf.name()))
            {
                vnfs.add(vnf);
                byName.put(vnf.name(), vnf);
            }
        }
        return vnfs;
    }

    private Vnf vnf(final YamlNode item, final Map<String, Vnf> byName)
    {
        final YamlNode.MapNode map = expectMap(item, "a VNF", "write '- name: <name>' with 'type: <type>' below it");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.size();
        checkKeys(map, VNF_KEYS, "in a VNF");
        final String name = requiredText(map, "name", "a VNF", "add 'name: <unique name>' to this VNF");
        final YamlNode nameNode = map.get("name");
        if (name != null && !VNF_NAME.matcher(name).matches())
        {
            error(nameNode, "bad VNF name '" + name + "'",
                "use a letter, then letters, digits, '-' or '_' (e.g. 'nat-1')");
        }
        else if (name != null && byName.containsKey(name))
        {
            final YamlNode first = byName.get(name).at();
            error(nameNode, "duplicate VNF name '" + name + "' (first used at " + first.line() + ":" + first.column() + ")",
                "give each VNF a unique name, e.g. '" + name + "-2'");
        }
        final String where = name == null ? "this VNF" : "VNF '" + name + "'";
        final String type = requiredText(map, "type", where,
            "add 'type: <type>' (known types: " + String.join(", ", registry.types().keySet()) + ")");
        VnfFactory factory = null;
        if (type != null)
        {
            factory = registry.find(type);
            if (factory == null)
            {
                error(map.get("type"), "unknown VNF type '" + type + "'", suggestion(type, registry.types().keySet(), "types"));
            }
        }
        final YamlNode paramsNode = map.get("params");
        YamlNode.MapNode params = null;
        if (paramsNode != null && !(paramsNode instanceof YamlNode.Scalar s && s.isNull()))
        {
            params = expectMap(paramsNode, "'params'", "write a map of parameter: value, e.g. '{ pool_size: 4096 }'");
        }
        if (factory == null || name == null)
        {
            return name == null ? null : new Vnf(name, nameNode, null, List.of());
        }
        final VnfConfig config = params(map, params, factory, where);
        if (config == null || errors.size() > errorsBefore)
        {
            return new Vnf(name, nameNode, null, List.of());
        }
        final VnfNode node = new VnfNode(name, factory, config);
        try
        {
            final VnfInstance instance = new VnfInstance(name, type, node.create(), new TableCatalog());
            return new Vnf(name, nameNode, node, instance.outputs());
        }
        catch (final VnfConfigException e)
        {
            final YamlNode at = e.param() != null && params != null && params.get(e.param()) != null
                ? params.get(e.param()) : map;
            error(at, where + ": " + e.getMessage(), paramFix(factory, e.param()));
        }
        catch (final RuntimeException e)
        {
            error(map, where + " (type " + type + ") failed to set up: " + e.getMessage(),
                "check its parameters against 'type " + type + "' in docs/chain-yaml.md");
        }
        return new Vnf(name, nameNode, null, List.of());
    }

    private VnfConfig params(
        final YamlNode.MapNode vnf, final YamlNode.MapNode params, final VnfFactory factory, final String where)
    {
        final Map<String, ParamSpec> specs = new LinkedHashMap<>();
        for (final ParamSpec spec : factory.params())
        {
            specs.put(spec.name(), spec);
        }
        final Map<String, Object> raw = new LinkedHashMap<>();
        boolean ok = true;
        if (params != null)
        {
            for (final YamlNode.Entry entry : params.entries())
            {
                final ParamSpec spec = specs.get(entry.key());
                if (spec == null)
                {
                    ok = false;
                    errorAtKey(entry, "unknown parameter '" + entry.key() + "' for VNF type '" + factory.type() + "'",
                        specs.isEmpty() ? "type '" + factory.type() + "' takes no parameters: remove it"
                            : suggestion(entry.key(), specs.keySet(), "parameters"));
                    continue;
                }
                if (entry.value() instanceof YamlNode.Scalar s && s.isNull())
                {
                    ok = false;
                    error(entry.value(), "no value for parameter '" + entry.key() + "'",
                        paramFix(factory, entry.key()) + (spec.required() ? "" : ", or remove the line to use the default"));
                    continue;
                }
                final Object value = entry.value().toPlain();
                try
                {
                    VnfConfig.of(List.of(asOptional(spec)), Map.of(entry.key(), value));
                    raw.put(entry.key(), value);
                }
                catch (final VnfConfigException e)
                {
                    ok = false;
                    error(entry.value(), e.getMessage(), paramFix(factory, entry.key()));
                }
            }
        }
        for (final ParamSpec spec : specs.values())
        {
            if (spec.required() && (params == null || params.get(spec.name()) == null))
            {
                ok = false;
                error(vnf, where + " is missing parameter '" + spec.name() + "' (" + spec.description() + ")",
                    "add '" + spec.name() + ": <" + spec.kind().expected() + ">' under 'params:'");
            }
        }
        if (!ok)
        {
            return null;
        }
        try
        {
            return VnfConfig.of(factory.params(), raw);
        }
        catch (final VnfConfigException e)
        {
            final YamlNode at = e.param() != null && params != null && params.get(e.param()) != null
                ? params.get(e.param()) : vnf;
            error(at, e.getMessage(), paramFix(factory, e.param()));
            return null;
        }
    }

    private static ParamSpec asOptional(final ParamSpec spec)
    {
        // A stand-in default lets VnfConfig check one value at a time, so every bad value is reported.
        return spec.required()
            ? new ParamSpec(spec.name(), spec.kind(), false, "", spec.min(), spec.max(), spec.description()) : spec;
    }

    private static String paramFix(final VnfFactory factory, final String param)
    {
        if (param == null)
        {
            return "check the parameters of type '" + factory.type() + "' in docs/chain-yaml.md";
        }
        for (final ParamSpec spec : factory.params())
        {
            if (spec.name().equals(param))
            {
                final StringBuilder fix = new StringBuilder("write ").append(spec.kind().expected());
                final boolean hasMin = Double.isFinite(spec.min());
                final boolean hasMax = Double.isFinite(spec.max());
                if (hasMin || hasMax)
                {
                    fix.append("; allowed: [").append(hasMin ? bound(spec.min()) : "-inf").append(", ")
                        .append(hasMax ? bound(spec.max()) : "+inf").append(']');
                    if (spec.kind() == ParamKind.DURATION)
                    {
                        fix.append(" nanoseconds");
                    }
                }
                return fix.append(" ('").append(spec.name()).append("': ").append(spec.description()).append(')')
                    .toString();
            }
        }
        return "check the parameters of type '" + factory.type() + "' in docs/chain-yaml.md";
    }

    private static String bound(final double d)
    {
        return d == Math.rint(d) ? Long.toString((long)d) : Double.toString(d);
    }

    // --------------------------------------------------------------------------------- edges

    private List<Edge> edges(final YamlNode edgesNode, final List<Vnf> vnfs)
    {
        final List<Edge> edges = new ArrayList<>();
        if (edgesNode == null || edgesNode instanceof YamlNode.Scalar s && s.isNull())
        {
            return edges;
        }
        final YamlNode.SeqNode list = expectSeq(edgesNode, "'edges'", "write a list: '- from: <vnf>' with 'to: <vnf>'");
        if (list == null)
        {
            return edges;
        }
        final Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < vnfs.size(); i++)
        {
            index.put(vnfs.get(i).name(), i);
        }
        for (final YamlNode item : list.items())
        {
            final Edge edge = edge(item, vnfs, index);
            if (edge != null)
            {
                edges.add(edge);
            }
        }
        return edges;
    }

    private Edge edge(final YamlNode item, final List<Vnf> vnfs, final Map<String, Integer> index)
    {
        final YamlNode.MapNode map = expectMap(item, "an edge", "write '- from: <vnf>' with 'to: <vnf>' below it");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.size();
        checkKeys(map, EDGE_KEYS, "in an edge");
        final String from = requiredText(map, "from", "an edge", "add 'from: <vnf name>' to this edge");
        final String to = requiredText(map, "to", "an edge", "add 'to: <vnf name>' to this edge");
        final Integer fromIndex = from == null ? null : vnfIndex(map.get("from"), from, index);
        final Integer toIndex = to == null ? null : vnfIndex(map.get("to"), to, index);
        String output = VnfSetup.DEFAULT_OUTPUT;
        final YamlNode outputNode = map.get("output");
        if (outputNode != null)
        {
            output = optionalText(outputNode, "'output'");
            if (output != null && fromIndex != null)
            {
                final Vnf source = vnfs.get(fromIndex);
                if (source.node() != null && !source.outputs().contains(output))
                {
                    error(outputNode, "VNF '" + from + "' (type " + source.node().type() + ") has no output '" + output + "'",
                        suggestion(output, source.outputs(), "outputs"));
                }
            }
        }
        PacketPredicate when = EdgeSpec.ALWAYS;
        String whenText = "";
        final YamlNode whenNode = map.get("when");
        if (whenNode != null && !(whenNode instanceof YamlNode.Scalar s && s.isNull()))
        {
            final YamlNode.MapNode whenMap = expectMap(whenNode, "'when'",
                "write a map of header tests, e.g. '{ proto: tcp, dst_port: 80 }'");
            if (whenMap != null && !whenMap.isEmpty())
            {
                when = predicate(whenMap);
                whenText = whenMap.toFlowText();
            }
        }
        if (errors.size() > errorsBefore || fromIndex == null || toIndex == null || output == null || when == null)
        {
            // An edge that names a VNF still counts for reachability, so one typo is reported once.
            return fromIndex != null && toIndex != null && output != null
                ? new Edge(fromIndex, output, toIndex, when != EdgeSpec.ALWAYS, map, null) : brokenEdgeTarget(toIndex, map);
        }
        return new Edge(fromIndex, output, toIndex, when != EdgeSpec.ALWAYS, map,
            new EdgeSpec(from, output, when, whenText, to));
    }

    private static Edge brokenEdgeTarget(final Integer toIndex, final YamlNode at)
    {
        return toIndex == null ? null : new Edge(-1, "", toIndex, true, at, null);
    }

    private Integer vnfIndex(final YamlNode at, final String name, final Map<String, Integer> index)
    {
        final Integer i = index.get(name);
        if (i == null)
        {
            error(at, "no VNF named '" + name + "'", suggestion(name, index.keySet(), "VNFs"));
        }
        return i;
    }

    // ---------------------------------------------------------------------------- predicates

    private PacketPredicate predicate(final YamlNode.MapNode when)
    {
        final int errorsBefore = errors.size();
        checkKeys(when, WHEN_KEYS, "in 'when'");
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
            final String text = scalarText(versionNode);
            if ("4".equals(text) || "6".equals(text))
            {
                ipVersion = Integer.parseInt(text);
            }
            else
            {
                error(versionNode, "bad ip_version " + versionNode.describe(), "write 4 or 6");
            }
        }
        final Cidr srcNet = cidr(when.get("src_net"), "src_net");
        final Cidr dstNet = cidr(when.get("dst_net"), "dst_net");
        final int[] srcPorts = ports(when.get("src_port"), "src_port");
        final int[] dstPorts = ports(when.get("dst_port"), "dst_port");
        final int tcpFlags = tcpFlags(when.get("tcp_flags"));

        if (ipVersion == 6 && (srcNet != null || dstNet != null))
        {
            error(versionNode, "'ip_version: 6' contradicts the IPv4 prefix in "
                + (srcNet != null ? "'src_net'" : "'dst_net'") + ": no packet can match",
                "remove 'ip_version: 6' or the IPv4 prefix (src_net and dst_net are IPv4 only)");
        }
        if (protocol >= 0 && protocol != PacketFlyweight.PROTO_TCP && tcpFlags != 0)
        {
            error(protoNode, "'tcp_flags' needs TCP but 'proto' is " + protoNode.describe() + ": no packet can match",
                "write 'proto: tcp' or remove 'tcp_flags'");
        }
        if (protocol >= 0 && protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP
            && (srcPorts != null || dstPorts != null))
        {
            error(protoNode, "ports need TCP or UDP but 'proto' is " + protoNode.describe() + ": no packet can match",
                "write 'proto: tcp' or 'proto: udp', or remove the port tests");
        }
        if (errors.size() > errorsBefore)
        {
            return null;
        }
        return new HeaderPredicate(protocol, ipVersion, srcNet, dstNet, srcPorts, dstPorts, tcpFlags);
    }

    private int protocol(final YamlNode node)
    {
        final String text = scalarText(node);
        if (text != null)
        {
            final Integer named = PROTOCOLS.get(text.toLowerCase(Locale.ROOT));
            if (named != null)
            {
                return named;
            }
            final long number = wholeNumber(node);
            if (number >= 0 && number <= 255)
            {
                return (int)number;
            }
        }
        error(node, "bad proto " + node.describe(), "write tcp, udp, icmp or an IP protocol number 0-255");
        return HeaderPredicate.ANY;
    }

    private Cidr cidr(final YamlNode node, final String key)
    {
        if (node == null)
        {
            return null;
        }
        final String text = scalarText(node);
        if (text != null)
        {
            try
            {
                return Cidr.parse(text);
            }
            catch (final IllegalArgumentException e)
            {
                error(node, "bad " + key + ": " + e.getMessage(), "write an IPv4 prefix a.b.c.d/n, e.g. 10.0.0.0/8");
                return null;
            }
        }
        error(node, "bad " + key + " " + node.describe(), "write an IPv4 prefix a.b.c.d/n, e.g. 10.0.0.0/8");
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
            error(node, "empty " + key + " list: no packet can match", "list at least one port, or remove '" + key + "'");
            return null;
        }
        final int[] ports = new int[items.size()];
        boolean ok = true;
        for (int i = 0; i < items.size(); i++)
        {
            final long port = wholeNumber(items.get(i));
            if (port < 0 || port > 65535)
            {
                error(items.get(i), "bad " + key + " " + items.get(i).describe(),
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
            final String text = scalarText(item);
            final Integer flag = text == null ? null : TCP_FLAGS.get(text.toLowerCase(Locale.ROOT));
            if (flag == null)
            {
                error(item, "bad tcp_flags item " + item.describe(),
                    "write a list of flags that must all be set, from syn, ack, fin, rst, e.g. [syn, ack]");
            }
            else
            {
                mask |= flag;
            }
        }
        if (items.isEmpty())
        {
            error(node, "empty tcp_flags list", "list the flags that must all be set, e.g. [syn], or remove 'tcp_flags'");
        }
        return mask;
    }

    // --------------------------------------------------------------------------------- graph

    private void checkGraph(final List<Vnf> vnfs, final List<Edge> edges)
    {
        if (vnfs.isEmpty())
        {
            return;
        }
        final List<List<Edge>> out = new ArrayList<>(vnfs.size());
        for (int i = 0; i < vnfs.size(); i++)
        {
            out.add(new ArrayList<>());
        }
        final Set<Integer> targetsOfBrokenEdges = new HashSet<>();
        for (final Edge edge : edges)
        {
            if (edge.from() < 0)
            {
                targetsOfBrokenEdges.add(edge.to());
            }
            else
            {
                out.get(edge.from()).add(edge);
            }
        }
        checkShadowedEdges(vnfs, out);
        checkCycles(vnfs, out);
        final boolean[] reached = new boolean[vnfs.size()];
        final ArrayDeque<Integer> queue = new ArrayDeque<>();
        reached[0] = true;
        queue.add(0);
        while (!queue.isEmpty())
        {
            for (final Edge edge : out.get(queue.poll()))
            {
                if (!reached[edge.to()])
                {
                    reached[edge.to()] = true;
                    queue.add(edge.to());
                }
            }
        }
        for (int i = 1; i < vnfs.size(); i++)
        {
            if (!reached[i] && !targetsOfBrokenEdges.contains(i))
            {
                final String name = vnfs.get(i).name();
                error(vnfs.get(i).at(), "VNF '" + name + "' is unreachable from the entry VNF '" + vnfs.get(0).name() + "'",
                    "add an edge '- from: <vnf> to: " + name + "', or remove it; every packet starts at the first VNF listed");
            }
        }
    }

    private void checkShadowedEdges(final List<Vnf> vnfs, final List<List<Edge>> out)
    {
        for (final List<Edge> fromOne : out)
        {
            final Map<String, Edge> unconditional = new HashMap<>();
            for (final Edge edge : fromOne)
            {
                final Edge earlier = unconditional.get(edge.output());
                if (earlier != null)
                {
                    error(edge.at(), "this edge is never taken: the edge at " + earlier.at().line() + ":"
                        + earlier.at().column() + " from '" + vnfs.get(edge.from()).name() + "' output '" + edge.output()
                        + "' has no 'when' and takes every packet first",
                        "move this edge above that one, or give that edge a 'when'");
                }
                else if (!edge.conditional())
                {
                    unconditional.put(edge.output(), edge);
                }
            }
        }
    }

    private void checkCycles(final List<Vnf> vnfs, final List<List<Edge>> out)
    {
        final int[] state = new int[vnfs.size()]; // 0 unvisited, 1 on the path, 2 done
        final ArrayDeque<Edge> path = new ArrayDeque<>();
        for (int i = 0; i < vnfs.size(); i++)
        {
            if (state[i] == 0)
            {
                findCycles(i, vnfs, out, state, path);
            }
        }
    }

    private void findCycles(
        final int vertex, final List<Vnf> vnfs, final List<List<Edge>> out, final int[] state, final ArrayDeque<Edge> path)
    {
        state[vertex] = 1;
        for (final Edge edge : out.get(vertex))
        {
            if (state[edge.to()] == 1)
            {
                reportCycle(edge, vnfs, path);
            }
            else if (state[edge.to()] == 0)
            {
                path.addLast(edge);
                findCycles(edge.to(), vnfs, out, state, path);
                path.removeLast();
            }
        }
        state[vertex] = 2;
    }

    private void reportCycle(final Edge closing, final List<Vnf> vnfs, final ArrayDeque<Edge> path)
    {
        final List<Edge> cycle = new ArrayList<>();
        final List<Edge> onPath = new ArrayList<>(path);
        for (int i = onPath.size() - 1; i >= 0 && (cycle.isEmpty() || cycle.get(0).from() != closing.to()); i--)
        {
            cycle.add(0, onPath.get(i));
        }
        if (closing.from() == closing.to())
        {
            cycle.clear();
        }
        cycle.add(closing);
        final StringBuilder names = new StringBuilder(vnfs.get(closing.to()).name());
        final StringBuilder where = new StringBuilder();
        for (final Edge edge : cycle)
        {
            names.append(" -> ").append(vnfs.get(edge.to()).name());
            where.append(where.length() == 0 ? "" : ", ").append(vnfs.get(edge.from()).name()).append(" -> ")
                .append(vnfs.get(edge.to()).name()).append(" at ").append(edge.at().line()).append(':')
                .append(edge.at().column());
        }
        error(closing.at(), "the edges form a cycle: " + names,
            "a chain is a DAG: remove or redirect one of these edges (" + where + ")");
    }

    // ------------------------------------------------------------------------------ settings

    private RunSettings settings(final YamlNode node)
    {
        final RunSettings defaults = RunSettings.defaults();
        if (node == null || node instanceof YamlNode.Scalar s && s.isNull())
        {
            return defaults;
        }
        final YamlNode.MapNode map = expectMap(node, "'settings'",
            "write a map with punctuation, executor_threads, traffic and output");
        if (map == null)
        {
            return null;
        }
        checkKeys(map, SETTINGS_KEYS, "in 'settings'");
        int transactions = defaults.punctuationTransactions();
        long intervalNs = defaults.punctuationIntervalNs();
        final YamlNode punctuationNode = map.get("punctuation");
        if (punctuationNode != null)
        {
            final YamlNode.MapNode punctuation = expectMap(punctuationNode, "'punctuation'",
                "write '{ transactions: 256, interval: 1ms }'");
            if (punctuation != null)
            {
                checkKeys(punctuation, PUNCTUATION_KEYS, "in 'punctuation'");
                final YamlNode t = punctuation.get("transactions");
                if (t != null)
                {
                    transactions = (int)boundedNumber(t, "punctuation transactions", 1, Integer.MAX_VALUE, transactions);
                }
                final YamlNode interval = punctuation.get("interval");
                if (interval != null)
                {
                    intervalNs = duration(interval, "punctuation interval", intervalNs);
                }
            }
        }
        int threads = defaults.executorThreads();
        final YamlNode threadsNode = map.get("executor_threads");
        if (threadsNode != null)
        {
            threads = (int)boundedNumber(threadsNode, "executor_threads", 0, MAX_EXECUTOR_THREADS, threads);
        }
        final TrafficSpec traffic = traffic(map.get("traffic"), defaults.traffic());
        Path output = null;
        final YamlNode outputNode = map.get("output");
        if (outputNode != null && !(outputNode instanceof YamlNode.Scalar s && s.isNull()))
        {
            output = outputFile(outputNode);
        }
        if (traffic == null)
        {
            return null;
        }
        return new RunSettings(transactions, intervalNs, threads, traffic, output);
    }

    private long boundedNumber(final YamlNode node, final String what, final long min, final long max, final long fallback)
    {
        final long value = wholeNumber(node);
        if (value == Long.MIN_VALUE || value < min || value > max)
        {
            error(node, "bad " + what + " " + node.describe(),
                "write a whole number in [" + min + ", " + max + "]"
                    + (what.equals("executor_threads") ? " (0 = one per core)" : ""));
            return fallback;
        }
        return value;
    }

    private long duration(final YamlNode node, final String what, final long fallback)
    {
        final String text = scalarText(node);
        try
        {
            if (text != null)
            {
                final long ns = VnfConfig.parseDurationNs(text);
                if (ns > 0)
                {
                    return ns;
                }
            }
        }
        catch (final IllegalArgumentException e)
        {
            // reported below with what to write
        }
        error(node, "bad " + what + " " + node.describe(), "write a positive duration with a unit: ns, us, ms, s, m or h, e.g. 1ms");
        return fallback;
    }

    private TrafficSpec traffic(final YamlNode node, final TrafficSpec fallback)
    {
        if (node == null)
        {
            return fallback;
        }
        final YamlNode.MapNode map = expectMap(node, "'traffic'",
            "write '{ generate: { packets: 1000000 } }' or '{ pcap: trace.pcap, loop: 1 }'");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.size();
        checkKeys(map, TRAFFIC_KEYS, "in 'traffic'");
        final YamlNode.Entry generate = map.entry("generate");
        final YamlNode.Entry pcap = map.entry("pcap");
        final YamlNode.Entry loop = map.entry("loop");
        if (generate != null && pcap != null)
        {
            final YamlNode.Entry second = generate.keyLine() > pcap.keyLine()
                || generate.keyLine() == pcap.keyLine() && generate.keyColumn() > pcap.keyColumn() ? generate : pcap;
            errorAtKey(second, "'traffic' has both 'generate' and 'pcap'",
                "keep one: 'generate: { ... }' for synthetic packets, or 'pcap: <file>' to replay a capture");
            return null;
        }
        if (generate == null && pcap == null)
        {
            error(map, "'traffic' needs 'generate' or 'pcap'",
                "add 'generate: { packets: 1000000 }' or 'pcap: <file>'");
            return null;
        }
        if (generate != null)
        {
            if (loop != null)
            {
                errorAtKey(loop, "'loop' applies to pcap traffic only", "remove 'loop' (use 'packets:' under 'generate')");
            }
            final Map<String, String> parameters = generator(generate.value());
            return errors.size() > errorsBefore || parameters == null ? null : TrafficSpec.generate(parameters);
        }
        int loops = 1;
        if (loop != null)
        {
            loops = (int)boundedNumber(loop.value(), "loop", 1, Integer.MAX_VALUE, 1);
        }
        final Path file = pcapFile(pcap.value());
        return errors.size() > errorsBefore || file == null ? null : TrafficSpec.pcap(file, loops);
    }

    private Map<String, String> generator(final YamlNode node)
    {
        if (node instanceof YamlNode.Scalar s && s.isNull())
        {
            return Map.of();
        }
        final YamlNode.MapNode map = expectMap(node, "'generate'",
            "write a map of generator parameters, e.g. '{ packets: 1000000, new_conn_ratio: 0.05 }'");
        if (map == null)
        {
            return null;
        }
        final Map<String, String> values = new TreeMap<>();
        final Map<String, YamlNode> nodes = new HashMap<>();
        boolean ok = true;
        for (final YamlNode.Entry entry : map.entries())
        {
            if (!GeneratorConfig.KEYS.contains(entry.key()))
            {
                errorAtKey(entry, "unknown generator parameter '" + entry.key() + "'",
                    suggestion(entry.key(), GeneratorConfig.KEYS, "generator parameters"));
                ok = false;
                continue;
            }
            final String text = generatorValue(entry.value());
            if (text == null)
            {
                error(entry.value(), "bad generator parameter '" + entry.key() + "': " + entry.value().describe(),
                    entry.key().equals("dst_ports") ? "write a port or a list of ports, e.g. [80, 443]" : "write a single value");
                ok = false;
                continue;
            }
            try
            {
                GeneratorConfig.fromMap(Map.of(entry.key(), text));
                values.put(entry.key(), text);
                nodes.put(entry.key(), entry.value());
            }
            catch (final IllegalArgumentException e)
            {
                error(entry.value(), e.getMessage(), "see 'generate' in docs/chain-yaml.md for each parameter's range");
                ok = false;
            }
        }
        if (!ok)
        {
            return null;
        }
        try
        {
            GeneratorConfig.fromMap(values);
        }
        catch (final IllegalArgumentException e)
        {
            YamlNode at = map;
            for (final Map.Entry<String, YamlNode> named : nodes.entrySet())
            {
                if (e.getMessage() != null && e.getMessage().contains("'" + named.getKey() + "'"))
                {
                    at = named.getValue();
                    break;
                }
            }
            error(at, e.getMessage(), "see 'generate' in docs/chain-yaml.md for each parameter's range");
            return null;
        }
        return values;
    }

    private static String generatorValue(final YamlNode node)
    {
        if (node instanceof YamlNode.Scalar s)
        {
            return s.isNull() ? null : s.text();
        }
        if (node instanceof YamlNode.SeqNode seq && !seq.items().isEmpty())
        {
            final StringBuilder out = new StringBuilder();
            for (final YamlNode item : seq.items())
            {
                if (!(item instanceof YamlNode.Scalar s) || s.isNull())
                {
                    return null;
                }
                out.append(out.length() == 0 ? "" : ",").append(s.text());
            }
            return out.toString();
        }
        return null;
    }

    private Path pcapFile(final YamlNode node)
    {
        final String text = scalarText(node);
        if (text == null || text.isBlank())
        {
            error(node, "bad pcap " + node.describe(), "write the path of a .pcap or .pcapng file");
            return null;
        }
        final Path given = Path.of(text);
        final Path file = given.isAbsolute() || baseDirectory == null ? given : baseDirectory.resolve(given);
        if (!Files.isRegularFile(file))
        {
            error(node, "pcap file not found: " + file.toAbsolutePath().normalize(),
                "check the path; a relative path resolves against "
                    + (baseDirectory == null ? "the working directory" : "the chain file's directory " + baseDirectory));
            return null;
        }
        return file.normalize();
    }

    private Path outputFile(final YamlNode node)
    {
        final String text = scalarText(node);
        if (text == null || text.isBlank())
        {
            error(node, "bad output " + node.describe(), "write the path of the .pcap file to write");
            return null;
        }
        final Path file = Path.of(text);
        final Path directory = file.toAbsolutePath().getParent();
        if (directory != null && !Files.isDirectory(directory))
        {
            error(node, "output directory does not exist: " + directory,
                "create it, or write a path in an existing directory (relative paths resolve against the working directory)");
            return null;
        }
        return file;
    }

    // ------------------------------------------------------------------------------- helpers

    private void checkKeys(final YamlNode.MapNode map, final List<String> known, final String where)
    {
        for (final YamlNode.Entry entry : map.entries())
        {
            if (!known.contains(entry.key()))
            {
                errorAtKey(entry, "unknown key '" + entry.key() + "' " + where, suggestion(entry.key(), known, "keys"));
            }
        }
    }

    private String requiredText(final YamlNode.MapNode map, final String key, final String owner, final String fix)
    {
        final YamlNode node = map.get(key);
        if (node == null)
        {
            error(map, owner + " is missing '" + key + "'", fix);
            return null;
        }
        final String text = scalarText(node);
        if (text == null || text.isBlank())
        {
            error(node, "'" + key + "' must be text, not " + node.describe(), fix);
            return null;
        }
        return text;
    }

    private String optionalText(final YamlNode node, final String what)
    {
        final String text = scalarText(node);
        if (text == null)
        {
            error(node, what + " must be text, not " + node.describe(), "write a single value on the line");
        }
        return text;
    }

    private YamlNode.MapNode expectMap(final YamlNode node, final String what, final String fix)
    {
        if (node instanceof YamlNode.MapNode map)
        {
            return map;
        }
        error(node, what + " must be a map, not " + node.describe(), fix);
        return null;
    }

    private YamlNode.SeqNode expectSeq(final YamlNode node, final String what, final String fix)
    {
        if (node instanceof YamlNode.SeqNode seq)
        {
            return seq;
        }
        error(node, what + " must be a list, not " + node.describe(), fix);
        return null;
    }

    /** @return the scalar's text, or null for a map, a list or null. */
    private static String scalarText(final YamlNode node)
    {
        return node instanceof YamlNode.Scalar s && !s.isNull() ? s.text() : null;
    }

    /** @return the whole number the node holds (digits, '_' allowed), or Long.MIN_VALUE. */
    private static long wholeNumber(final YamlNode node)
    {
        if (!(node instanceof YamlNode.Scalar s) || s.kind() == YamlNode.Scalar.Kind.NULL
            || s.kind() == YamlNode.Scalar.Kind.BOOLEAN || s.kind() == YamlNode.Scalar.Kind.FLOAT)
        {
            return Long.MIN_VALUE;
        }
        final String text = s.text().replace("_", "");
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9') || text.length() > 18)
        {
            return Long.MIN_VALUE;
        }
        return Long.parseLong(text);
    }

    private static String suggestion(final String given, final Collection<String> known, final String what)
    {
        final String closest = ClosestName.of(given, known);
        final String list = "known " + what + ": " + (known.isEmpty() ? "none" : String.join(", ", known));
        return closest == null ? "write one of the " + list : "did you mean '" + closest + "'? (" + list + ")";
    }

    private void error(final YamlNode at, final String message, final String fix)
    {
        errors.add(new ChainError(source, at.line(), at.column(), message, fix));
    }

    private void errorAtKey(final YamlNode.Entry entry, final String message, final String fix)
    {
        errors.add(new ChainError(source, entry.keyLine(), entry.keyColumn(), message, fix));
    }
}
