package io.transnfv.engine.chain;

import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One VNF of a chain: its unique name, its type's factory, its validated parameters and what
 * the chain says about its tables (sizes, capacities, triggers, stores, distributions). Each
 * runtime creates its own {@link Vnf} with {@link #create()}.
 *
 * @param name          unique in the chain, e.g. {@code nat}.
 * @param factory       the type's factory.
 * @param config        parameters validated against {@code factory.params()}.
 * @param tables        settings of each named table (YAML {@code tables: {t: {...}}}); tables not
 *                      named grow as keys arrive, up to the default capacity.
 * @param stores        the store of each table that names its own (YAML {@code tables: {t: {store: chronicle}}});
 *                      the others are in the chain's default store ({@link StoreSettings#defaultKind()}).
 * @param distributions how each named table spreads over a scaled-out run's instances (YAML
 *                      {@code tables: {t: {distribution: by-flow}}}); tables not named follow their scope.
 * @param commutative   the tables whose updates the VNF runs as ADDs (YAML
 *                      {@code tables: {t: {consistency: commutative}}}); the others are
 *                      {@code serializable}, the default.
 * @param fireAndForget the tables whose updates the VNF runs as fire-and-forget DEFERs (YAML
 *                      {@code tables: {t: {consistency: fire-and-forget}}}).
 * @param staleReads    the tables whose reads see the batch start, with the bound in batches the
 *                      chain accepts (YAML {@code tables: {t: {consistency: {stale-reads: 1}}}}).
 * @param shared        the chain's shared table bound to each of its table roles, by role (YAML
 *                      {@code shared: {blocklist: blocked}}); roles not named are unbound.
 */
public record VnfNode(
    String name, VnfFactory factory, VnfConfig config, Map<String, TableSettings> tables, Map<String, StoreKind> stores,
    Map<String, TableDistribution> distributions, Set<String> commutative, Set<String> fireAndForget, Map<String, Integer> staleReads,
    Map<String, String> shared)
{
    /** A node bound to no shared table. */
    public VnfNode(
        final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables,
        final Map<String, StoreKind> stores, final Map<String, TableDistribution> distributions, final Set<String> commutative,
        final Set<String> fireAndForget, final Map<String, Integer> staleReads)
    {
        this(name, factory, config, tables, stores, distributions, commutative, fireAndForget, staleReads, Map.of());
    }

    /** A node with no stale-reads table. */
    public VnfNode(
        final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables,
        final Map<String, StoreKind> stores, final Map<String, TableDistribution> distributions, final Set<String> commutative,
        final Set<String> fireAndForget)
    {
        this(name, factory, config, tables, stores, distributions, commutative, fireAndForget, Map.of());
    }

    /** A node with no fire-and-forget table. */
    public VnfNode(
        final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables,
        final Map<String, StoreKind> stores, final Map<String, TableDistribution> distributions, final Set<String> commutative)
    {
        this(name, factory, config, tables, stores, distributions, commutative, Set.of());
    }

    /** A node whose tables are all serializable. */
    public VnfNode(
        final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables,
        final Map<String, StoreKind> stores, final Map<String, TableDistribution> distributions)
    {
        this(name, factory, config, tables, stores, distributions, Set.of());
    }

    /** Checks the fields are present and freezes the maps. */
    public VnfNode
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(config, "config");
        tables = Map.copyOf(tables);
        stores = Map.copyOf(stores);
        distributions = Map.copyOf(distributions);
        commutative = Set.copyOf(commutative);
        fireAndForget = Set.copyOf(fireAndForget);
        staleReads = Map.copyOf(staleReads);
        shared = Map.copyOf(shared);
    }

    /** A node whose tables follow their scope when scaled out. */
    public VnfNode(
        final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables,
        final Map<String, StoreKind> stores)
    {
        this(name, factory, config, tables, stores, Map.of());
    }

    /** A node whose tables are all in the chain's default store and follow their scope when scaled out. */
    public VnfNode(final String name, final VnfFactory factory, final VnfConfig config, final Map<String, TableSettings> tables)
    {
        this(name, factory, config, tables, Map.of(), Map.of());
    }

    /** A node whose tables grow as keys arrive, up to the default capacity. */
    public VnfNode(final String name, final VnfFactory factory, final VnfConfig config)
    {
        this(name, factory, config, Map.of(), Map.of(), Map.of());
    }

    /** @return the VNF type name. */
    public String type()
    {
        return factory.type();
    }

    /** @return a new VNF instance of this node. */
    public Vnf create()
    {
        return factory.create(config);
    }
}
