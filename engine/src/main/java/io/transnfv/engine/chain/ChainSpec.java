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
 * @param sharedTables the tables its VNFs share (YAML {@code shared_tables:}), in file order; each is
 *                    bound by at least one VNF.
 */
public record ChainSpec(String name, String description, List<VnfNode> vnfs, List<EdgeSpec> edges, RunSettings settings,
    List<SharedTableSpec> sharedTables)
{
    /** A chain whose VNFs share no table. */
    public ChainSpec(final String name, final String description, final List<VnfNode> vnfs, final List<EdgeSpec> edges,
        final RunSettings settings)
    {
        this(name, description, vnfs, edges, settings, List.of());
    }

    /** Copies the lists. */
    public ChainSpec
    {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        vnfs = List.copyOf(vnfs);
        edges = List.copyOf(edges);
        sharedTables = List.copyOf(sharedTables);
        Objects.requireNonNull(settings, "settings");
        if (vnfs.isEmpty())
        {
            throw new IllegalArgumentException("a chain needs at least one VNF");
        }
    }

    /** @return a copy with other settings. */
    public ChainSpec withSettings(final RunSettings newSettings)
    {
        return new ChainSpec(name, description, vnfs, edges, newSettings, sharedTables);
    }

    /**
     * @param what the executor or tool that cannot run them, e.g. {@code "the Flink job"}.
     * @throws IllegalArgumentException if the chain's VNFs share tables: for executors that run
     *                                  stages apart and would not see one table's history in the
     *                                  oracle's order.
     */
    public void refuseSharedTables(final String what)
    {
        if (!sharedTables.isEmpty())
        {
            throw new IllegalArgumentException("chain '" + name + "' shares table '" + sharedTables.get(0).name() + "' between VNFs, which "
                + what + " cannot run in the oracle's order; fix: run it with the transnfv engine (executor tpg) or the serial oracle,"
                + " or remove 'shared_tables:' (docs/chain-yaml.md#shared_tables--tables-several-vnfs-share)");
        }
    }
}
