package io.transnfv.engine.chain;

import io.transnfv.vnf.instance.TableCatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a chain's table declarations ({@link TableDistribution}) make of a scaled-out run: the one
 * key every packet is routed by before the first VNF, and whether the instances are independent
 * (their union then equals the standalone run). Derived once from a runtime's catalogue;
 * immutable.
 *
 * <pre>
 *  any table single                      ─► SINGLE       every packet on instance 0
 *  by-flow and by-source-host both used  ─► refused      a connection's two directions have two source hosts
 *  some table by-source-host             ─► SOURCE_HOST  the source address
 *  otherwise (by-flow, per-subtask)      ─► HOST_PAIR    the unordered address pair and protocol: every
 *                                                        connection, both directions and its IP fragments
 * </pre>
 *
 * @param routing     the key packets are routed by.
 * @param reason      why, naming the table that decided it.
 * @param perSubtask  the tables each instance keeps its own copy of ({@code vnf.table}); empty
 *                    when the instances are independent.
 */
public record Partitioning(Routing routing, String reason, List<String> perSubtask)
{
    /** The key a packet is routed by. */
    public enum Routing
    {
        /** The unordered pair of addresses and the IP protocol. */
        HOST_PAIR,
        /** The source address. */
        SOURCE_HOST,
        /** None: every packet goes to the first instance. */
        SINGLE
    }

    /** Copies the list. */
    public Partitioning
    {
        Objects.requireNonNull(routing, "routing");
        perSubtask = List.copyOf(perSubtask);
    }

    /**
     * @return true if the instances share no table, so that the union of their outputs and states
     *         equals the standalone run's.
     */
    public boolean independent()
    {
        return routing == Routing.SINGLE || perSubtask.isEmpty();
    }

    /**
     * Derives the partitioning of {@code runtime}'s chain.
     *
     * @throws IllegalArgumentException with a {@code fix:} line if no routing key keeps every
     *                                  table's packets together.
     */
    public static Partitioning of(final ChainRuntime runtime)
    {
        // a shared table's packets come from several VNFs' keys: no routing key keeps them together
        runtime.spec().refuseSharedTables("a scaled-out run");
        final TableCatalog catalog = runtime.catalog();
        String single = null;
        String byFlow = null;
        String bySource = null;
        final List<String> perSubtask = new ArrayList<>();
        for (int t = 0; t < catalog.size(); t++)
        {
            final String owner = catalog.qualifiedName(t).substring(0, catalog.qualifiedName(t).indexOf('.'));
            if (ChainRuntime.FRAGMENTS_OWNER.equals(owner))
            {
                // keyed by datagram: its fragments share addresses and protocol under every routing
                continue;
            }
            final TableDistribution d = distributionOf(runtime.spec(), owner, catalog.spec(t).name(),
                TableDistribution.defaultFor(catalog.spec(t).scope()));
            final String name = catalog.qualifiedName(t);
            switch (d)
            {
                case SINGLE -> single = single == null ? name : single;
                case BY_FLOW -> byFlow = byFlow == null ? name : byFlow;
                case BY_SOURCE_HOST -> bySource = bySource == null ? name : bySource;
                case PER_SUBTASK -> perSubtask.add(name);
                default -> throw new IllegalStateException(d.toString());
            }
        }
        final String conflict = conflict(byFlow, bySource);
        if (conflict != null)
        {
            throw new IllegalArgumentException(conflict);
        }
        if (single != null)
        {
            return new Partitioning(Routing.SINGLE, "table " + single + " is single", perSubtask);
        }
        if (bySource != null)
        {
            return new Partitioning(Routing.SOURCE_HOST, "table " + bySource + " is by-source-host", perSubtask);
        }
        return new Partitioning(Routing.HOST_PAIR, byFlow == null ? "no table needs more than its flow"
            : "table " + byFlow + " is by-flow", perSubtask);
    }

    /**
     * @return why tables {@code byFlow} and {@code bySource} (either may be null) cannot both be
     *         kept local, with a {@code fix:} line; null if they can.
     */
    public static String conflict(final String byFlow, final String bySource)
    {
        if (byFlow == null || bySource == null)
        {
            return null;
        }
        return "table " + bySource + " is by-source-host and table " + byFlow + " is by-flow: the two directions of a"
            + " connection have two source hosts, so no routing key keeps both tables' packets on one instance\n"
            + "fix: declare one of them 'distribution: single' (every packet on one instance), or '" + byFlow
            + "' by-source-host if its flows only ever go one way";
    }

    private static TableDistribution distributionOf(
        final ChainSpec spec, final String vnf, final String table, final TableDistribution fallback)
    {
        for (final VnfNode node : spec.vnfs())
        {
            if (node.name().equals(vnf))
            {
                return node.distributions().getOrDefault(table, fallback);
            }
        }
        return fallback;
    }
}
