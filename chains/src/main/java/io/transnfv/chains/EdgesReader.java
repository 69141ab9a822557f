package io.transnfv.chains;

import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketPredicate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code edges:} section: each edge's endpoints (VNFs read before), output and
 * {@code when:} test (through {@link WhenReader}). The graph as a whole is checked by
 * {@link ChainGraphCheck}. Setup only.
 */
final class EdgesReader
{
    static final List<String> EDGE_KEYS = List.of("from", "output", "to", "when");

    private final ChainErrors errors;
    private final WhenReader when;

    /**
     * An edge whose endpoints resolved, for the graph checks.
     *
     * @param from        index of the source VNF, or -1 if the edge is broken but names its target.
     * @param output      the source's output.
     * @param to          index of the target VNF.
     * @param conditional whether the edge has a {@code when:} test.
     * @param at          the edge's map.
     * @param spec        what the runtime builds, or null if the edge had errors.
     */
    record Edge(int from, String output, int to, boolean conditional, YamlNode at, EdgeSpec spec)
    {
    }

    /** @param errors where problems are added. */
    EdgesReader(final ChainErrors errors)
    {
        this.errors = errors;
        this.when = new WhenReader(errors);
    }

    /**
     * @param edgesNode the section, or null if the chain has none.
     * @param vnfs      the VNFs read, whose names edges may use.
     * @return the edges that name a known target, in file order.
     */
    List<Edge> read(final YamlNode edgesNode, final List<VnfsReader.Vnf> vnfs)
    {
        final List<Edge> edges = new ArrayList<>();
        if (ChainErrors.isAbsent(edgesNode))
        {
            return edges;
        }
        final YamlNode.SeqNode list = errors.expectSeq(edgesNode, "'edges'", "write a list: '- from: <vnf>' with 'to: <vnf>'");
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

    private Edge edge(final YamlNode item, final List<VnfsReader.Vnf> vnfs, final Map<String, Integer> index)
    {
        final YamlNode.MapNode map = errors.expectMap(item, "an edge", "write '- from: <vnf>' with 'to: <vnf>' below it");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.count();
        errors.checkKeys(map, EDGE_KEYS, "in an edge");
        final String from = errors.requiredText(map, "from", "an edge", "add 'from: <vnf name>' to this edge");
        final String to = errors.requiredText(map, "to", "an edge", "add 'to: <vnf name>' to this edge");
        final Integer fromIndex = from == null ? null : vnfIndex(map.get("from"), from, index);
        final Integer toIndex = to == null ? null : vnfIndex(map.get("to"), to, index);
        String output = VnfSetup.DEFAULT_OUTPUT;
        final YamlNode outputNode = map.get("output");
        if (outputNode != null)
        {
            output = errors.optionalText(outputNode, "'output'");
            if (output != null && fromIndex != null)
            {
                final VnfsReader.Vnf source = vnfs.get(fromIndex);
                if (source.node() != null && !source.outputs().contains(output))
                {
                    errors.add(outputNode, "VNF '" + from + "' (type " + source.node().type() + ") has no output '" + output + "'",
                        ChainErrors.suggestion(output, source.outputs(), "outputs"));
                }
            }
        }
        PacketPredicate predicate = EdgeSpec.ALWAYS;
        String whenText = "";
        final YamlNode whenNode = map.get("when");
        if (!ChainErrors.isAbsent(whenNode))
        {
            final YamlNode.MapNode whenMap = errors.expectMap(whenNode, "'when'",
                "write a map of header tests, e.g. '{ proto: tcp, dst_port: 80 }'");
            if (whenMap != null && !whenMap.isEmpty())
            {
                predicate = when.read(whenMap);
                whenText = whenMap.toFlowText();
            }
        }
        if (errors.count() > errorsBefore || fromIndex == null || toIndex == null || output == null || predicate == null)
        {
            // An edge that names a VNF still counts for reachability, so one typo is reported once.
            return fromIndex != null && toIndex != null && output != null
                ? new Edge(fromIndex, output, toIndex, predicate != EdgeSpec.ALWAYS, map, null)
                : brokenEdgeTarget(toIndex, map);
        }
        return new Edge(fromIndex, output, toIndex, predicate != EdgeSpec.ALWAYS, map,
            new EdgeSpec(from, output, predicate, whenText, to));
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
            errors.add(at, "no VNF named '" + name + "'", ChainErrors.suggestion(name, index.keySet(), "VNFs"));
        }
        return i;
    }
}
