package io.transnfv.engine.chain;

import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.Map;
import java.util.Objects;

/**
 * One VNF of a chain: its unique name, its type's factory, its validated parameters and the
 * sizes given to its tables. Each runtime creates its own {@link Vnf} with {@link #create()}.
 *
 * @param name            unique in the chain, e.g. {@code nat}.
 * @param factory         the type's factory.
 * @param config          parameters validated against {@code factory.params()}.
 * @param expectedEntries entries to size each named table for (YAML {@code tables: {t: {expected_entries: n}}});
 *                        tables not named grow as keys arrive.
 * @param distributions   how each named table spreads over a scaled-out run's instances (YAML
 *                        {@code tables: {t: {distribution: by-flow}}}); tables not named follow their scope.
 */
public record VnfNode(
    String name, VnfFactory factory, VnfConfig config, Map<String, Long> expectedEntries,
    Map<String, TableDistribution> distributions)
{
    /** Checks the fields are present and freezes the maps. */
    public VnfNode
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(config, "config");
        expectedEntries = Map.copyOf(expectedEntries);
        distributions = Map.copyOf(distributions);
    }

    /** A node whose tables follow their scope when scaled out. */
    public VnfNode(final String name, final VnfFactory factory, final VnfConfig config, final Map<String, Long> expectedEntries)
    {
        this(name, factory, config, expectedEntries, Map.of());
    }

    /** A node whose tables grow as keys arrive. */
    public VnfNode(final String name, final VnfFactory factory, final VnfConfig config)
    {
        this(name, factory, config, Map.of(), Map.of());
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
