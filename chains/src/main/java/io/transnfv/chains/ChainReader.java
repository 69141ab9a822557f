package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.vnf.api.VnfRegistry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one chain document's {@link YamlNode} tree into a {@link ChainSpec}: the top level
 * here, each section by its own reader, all adding to one {@link ChainErrors}. Keeps going
 * after an error so one run reports every problem; builds nothing if there was any.
 *
 * <pre>
 *   top level ──► SharedTablesReader (shared_tables; VnfsReader checks each VNF's shared: against it)
 *             ──► VnfsReader ──► EdgesReader ──► ChainGraphCheck ──► SettingsReader
 *   name,         name, type,    from, to,       shadowed edges,     punctuation, threads,
 *   description   ParamsReader   output,         cycles,             output, TrafficReader,
 *                                WhenReader      reachability        StoresReader (then checked
 *                                                                    against the VNFs' tables)
 * </pre>
 *
 * <p>One instance per document; setup only, not thread-safe.
 */
final class ChainReader
{
    static final List<String> TOP_KEYS = List.of("name", "description", "shared_tables", "vnfs", "edges", "tenants",
        "default_tenant", "settings");

    private final ChainErrors errors;
    private final VnfsReader vnfs;
    private final EdgesReader edges;
    private final SettingsReader settings;
    private final TenantsReader tenants;

    /**
     * @param registry      the VNF types.
     * @param errors        where problems are added.
     * @param baseDirectory where relative pcap paths resolve, or null for the working directory.
     */
    ChainReader(final VnfRegistry registry, final ChainErrors errors, final Path baseDirectory)
    {
        this.errors = errors;
        this.vnfs = new VnfsReader(registry, errors);
        this.edges = new EdgesReader(errors);
        this.settings = new SettingsReader(errors, baseDirectory);
        this.tenants = new TenantsReader(registry, errors);
    }

    /** @return the chain, or null if an error was added. */
    ChainSpec read(final YamlNode root)
    {
        final int errorsBefore = errors.count();
        final YamlNode.MapNode top = errors.expectMap(root, "the chain",
            "write a map with the keys name, vnfs, edges and settings (see docs/chain-yaml.md)");
        if (top == null)
        {
            return null;
        }
        errors.checkKeys(top, TOP_KEYS, "at the top level");
        final String name = errors.requiredText(top, "name", "the chain", "add 'name: my-chain' at the top of the file");
        final YamlNode descriptionNode = top.get("description");
        final String description = descriptionNode == null ? "" : errors.optionalText(descriptionNode, "'description'");

        final YamlNode.Entry tenantsEntry = top.entry("tenants");
        final YamlNode.Entry sharedEntry = top.entry("shared_tables");
        if (tenantsEntry != null)
        {
            if (sharedEntry != null)
            {
                errors.addAtKey(sharedEntry, "'shared_tables' beside 'tenants': tables shared across VNFs are not available in a chain of tenants",
                    "remove 'shared_tables:'; each tenant's VNFs keep tables of their own (docs/tenants.md)");
            }
            return readTenants(top, tenantsEntry, name, description, errorsBefore);
        }
        final YamlNode.Entry defaultTenant = top.entry("default_tenant");
        if (defaultTenant != null)
        {
            errors.addAtKey(defaultTenant, "'default_tenant' without 'tenants'", "remove it, or list the tenants under 'tenants:' (docs/tenants.md)");
        }
        final SharedTablesReader shared = new SharedTablesReader(errors);
        shared.read(sharedEntry);
        vnfs.sharedTables(shared);
        final List<VnfsReader.Vnf> readVnfs = vnfs.read(top);
        shared.checkUsed();
        final List<EdgesReader.Edge> readEdges = edges.read(top.get("edges"), readVnfs);
        new ChainGraphCheck(errors, readVnfs, readEdges).check();
        final RunSettings readSettings = settings.read(top.get("settings"));
        settings.stores().check(readVnfs, shared.inRedis());
        settings.checkers().check(readVnfs);

        if (errors.count() > errorsBefore || name == null || readVnfs.isEmpty())
        {
            return null;
        }
        final List<VnfNode> nodes = new ArrayList<>(readVnfs.size());
        for (final VnfsReader.Vnf vnf : readVnfs)
        {
            nodes.add(vnf.node());
        }
        final List<EdgeSpec> edgeSpecs = new ArrayList<>(readEdges.size());
        for (final EdgesReader.Edge edge : readEdges)
        {
            edgeSpecs.add(edge.spec());
        }
        return new ChainSpec(name, description, nodes, edgeSpecs, readSettings, shared.tables());
    }

    /** Reads a chain of tenants: compiled by {@link TenantsReader} into one DAG, instead of {@code vnfs:} and {@code edges:}. */
    private ChainSpec readTenants(
        final YamlNode.MapNode top, final YamlNode.Entry tenantsEntry, final String name, final String description, final int errorsBefore)
    {
        for (final String key : List.of("vnfs", "edges"))
        {
            final YamlNode.Entry entry = top.entry(key);
            if (entry != null)
            {
                errors.addAtKey(entry, "'" + key + "' beside 'tenants': a chain of tenants takes its VNFs from each tenant's 'chain:'",
                    "move these VNFs into a tenant's inline 'chain: { vnfs: [...], edges: [...] }', or remove 'tenants:'");
            }
        }
        final TenantsReader.Compiled compiled = tenants.read(tenantsEntry, top.entry("default_tenant"));
        final RunSettings readSettings = settings.read(top.get("settings"));
        if (compiled != null)
        {
            settings.stores().check(compiled.vnfs());
            settings.checkers().check(compiled.vnfs());
        }
        if (errors.count() > errorsBefore || name == null || compiled == null)
        {
            return null;
        }
        final List<VnfNode> nodes = new ArrayList<>(compiled.vnfs().size());
        for (final VnfsReader.Vnf vnf : compiled.vnfs())
        {
            nodes.add(vnf.node());
        }
        return new ChainSpec(name, description, nodes, compiled.edges(), readSettings);
    }
}
