package io.transnfv.engine.chain;

import java.util.List;
import java.util.Objects;

/**
 * A validated chain: a DAG of VNFs whose first node is the entry, its edges and its run
 * settings. The YAML loader guarantees names are unique, edges name existing VNFs and
 * outputs, the graph has no cycle and every VNF is reachable from the entry.
 *
 * @param name        the chain's name.
 * @param description one paragraph, may be empty.
 * @param vnfs        the nodes; the first receives every packet.
 * @param edges       the edges, in declaration order.
 * @param settings    the run settings.
 */
public record ChainSpec(String name, String description, List<VnfNode> vnfs, List<EdgeSpec> edges, RunSettings settings)
{
    /** Copies the lists. */
    public ChainSpec
    {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        vnfs = List.copyOf(vnfs);
        edges = List.copyOf(edges);
        Objects.requireNonNull(settings, "settings");
        if (vnfs.isEmpty())
        {
            throw new IllegalArgumentException("a chain needs at least one VNF");
        }
    }

    /** @return a copy with other settings. */
    public ChainSpec withSettings(final RunSettings newSettings)
    {
        return new ChainSpec(name, description, vnfs, edges, newSettings);
    }
}
