package io.transnfv.chains;

import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.TableSettings;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.builtin.tenant.TenantClassifierFactory;
import io.transnfv.vnf.builtin.tenant.TenantLimiterFactory;
import io.transnfv.vnf.builtin.tenant.TenantMatch;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv6Cidr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code tenants:} section and compiles the tenants into one chain DAG that the
 * engine and the serial oracle run like any other (docs/tenants.md):
 *
 * <pre>
 *   ingress (tenant-classifier) ── output &lt;t&gt; ──► &lt;t&gt; (tenant-limiter) ──► &lt;t&gt;-&lt;entry vnf&gt; ──► &lt;t&gt;-&lt;vnf&gt; ...
 * </pre>
 *
 * Each tenant's chain (a bundled one by name, or inline {@code vnfs:}/{@code edges:}) is read
 * by the same {@link VnfsReader}, {@link EdgesReader} and {@link ChainGraphCheck} as a plain
 * chain, with the tenant's {@code params:} overrides merged in, and its VNFs renamed
 * {@code <tenant>-<vnf>}: every VNF instance owns its tables, so a tenant's tables are a
 * namespace no other tenant's VNF can reach. Setup only.
 */
final class TenantsReader
{
    /** The name of the classifier VNF every multi-tenant chain starts with. */
    static final String CLASSIFIER = "ingress";

    static final List<String> TENANT_KEYS = List.of("name", "match", "chain", "params", "limits");
    static final List<String> MATCH_KEYS = List.of("vlan", "src_net", "dst_net", "dscp");
    static final List<String> LIMIT_KEYS = List.of("pps", "burst", "entries");
    static final List<String> CHAIN_KEYS = List.of("vnfs", "edges");
    /** Keys of issue-level features that this build refuses rather than ignores. */
    static final Map<String, String> NOT_BUILT = Map.of(
        "weight", "a tenant's share of executor time is not built: every executor serves every tenant",
        "affinity", "pinning a tenant to executors is not built: every executor serves every tenant",
        "input_port", "matching on the input port is not built: no packet source records the port or capture interface a packet came in on;"
            + " match on vlan, src_net, dst_net or dscp");

    private static final Pattern TENANT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final long MAX_PPS = 1_000_000_000L;

    private final VnfRegistry registry;
    private final ChainErrors errors;

    /**
     * The compiled chain.
     *
     * @param vnfs  the classifier, then per tenant its limiter and its VNFs, as the graph checks see them.
     * @param edges the compiled edges.
     */
    record Compiled(List<VnfsReader.Vnf> vnfs, List<EdgeSpec> edges)
    {
    }

    /** One tenant as far as reading got. */
    private record Tenant(String name, YamlNode at, YamlNode matchAt, TenantMatch match, List<VnfsReader.Vnf> vnfs, List<EdgeSpec> edges,
        long pps, long burst)
    {
    }

    /**
     * @param registry the VNF types tenants' chains may use.
     * @param errors   where problems are added.
     */
    TenantsReader(final VnfRegistry registry, final ChainErrors errors)
    {
        this.registry = registry;
        this.errors = errors;
    }

    /**
     * @param entry        the {@code tenants:} entry.
     * @param defaultEntry the {@code default_tenant:} entry, or null.
     * @return the compiled chain, or null if an error was added.
     */
    Compiled read(final YamlNode.Entry entry, final YamlNode.Entry defaultEntry)
    {
        final int errorsBefore = errors.count();
        final YamlNode.SeqNode list = errors.expectSeq(entry.value(), "'tenants'",
            "write a list: one '- name: <tenant>' item per tenant, each with 'match:' and 'chain:'");
        if (list == null)
        {
            return null;
        }
        if (list.items().isEmpty())
        {
            errors.addAtKey(entry, "'tenants' is empty", "list at least one tenant: '- name: web' with 'chain: lb'");
            return null;
        }
        final List<Tenant> tenants = new ArrayList<>();
        final Map<String, Tenant> byName = new HashMap<>();
        for (final YamlNode item : list.items())
        {
            final Tenant tenant = tenant(item, byName);
            if (tenant != null)
            {
                tenants.add(tenant);
                byName.putIfAbsent(tenant.name(), tenant);
            }
        }
        checkReachable(tenants);
        final int defaultTenant = defaultTenant(defaultEntry, tenants);
        if (errors.count() > errorsBefore)
        {
            return null;
        }
        return compile(tenants, defaultTenant, entry);
    }

    private Compiled compile(final List<Tenant> tenants, final int defaultTenant, final YamlNode.Entry entry)
    {
        final List<String> names = new ArrayList<>();
        final List<TenantMatch> matches = new ArrayList<>();
        final List<List<String>> members = new ArrayList<>();
        for (final Tenant tenant : tenants)
        {
            names.add(tenant.name());
            matches.add(tenant.match());
            final List<String> own = new ArrayList<>();
            own.add(tenant.name());
            tenant.vnfs().forEach(v -> own.add(v.name()));
            members.add(own);
        }
        final YamlNode at = entry.value();
        final List<VnfsReader.Vnf> vnfs = new ArrayList<>();
        final List<EdgeSpec> edges = new ArrayList<>();
        final TenantClassifierFactory classifier = new TenantClassifierFactory(names, matches, defaultTenant, members);
        final List<String> classifierOutputs = new ArrayList<>();
        classifierOutputs.add("out");
        classifierOutputs.addAll(names);
        vnfs.add(new VnfsReader.Vnf(CLASSIFIER, at, new VnfNode(CLASSIFIER, classifier, VnfConfig.of(List.of(), Map.of())),
            classifierOutputs, List.of(), List.of()));
        final TenantLimiterFactory limiter = new TenantLimiterFactory();
        final Map<String, YamlNode> used = new HashMap<>();
        used.put(CLASSIFIER, at);
        for (final Tenant tenant : tenants)
        {
            final Map<String, Object> limits = new LinkedHashMap<>();
            limits.put("pps", tenant.pps());
            limits.put("burst", tenant.burst());
            vnfs.add(new VnfsReader.Vnf(tenant.name(), tenant.at(), new VnfNode(tenant.name(), limiter, VnfConfig.of(limiter.params(), limits)),
                List.of("out"), tenant.pps() > 0 ? List.of("bucket") : List.of(), List.of()));
            edges.add(new EdgeSpec(CLASSIFIER, tenant.name(), EdgeSpec.ALWAYS, "", tenant.name()));
            edges.add(new EdgeSpec(tenant.name(), "out", EdgeSpec.ALWAYS, "", tenant.vnfs().get(0).name()));
            vnfs.addAll(tenant.vnfs());
            edges.addAll(tenant.edges());
        }
        final int errorsBefore = errors.count();
        for (final VnfsReader.Vnf vnf : vnfs)
        {
            final YamlNode first = used.putIfAbsent(vnf.name(), vnf.at());
            if (first != null && vnf.at() != first)
            {
                errors.add(vnf.at(), "the name '" + vnf.name() + "' is taken twice in the compiled chain (first at "
                    + first.line() + ":" + first.column() + "): tenants' VNFs are named <tenant>-<vnf>, the classifier '"
                    + CLASSIFIER + "' and each tenant's limiter after the tenant",
                    "rename the tenant or the VNF so that no two names meet");
            }
        }
        return errors.count() > errorsBefore ? null : new Compiled(vnfs, edges);
    }

    private Tenant tenant(final YamlNode item, final Map<String, Tenant> byName)
    {
        final YamlNode.MapNode map = errors.expectMap(item, "a tenant", "write '- name: <tenant>' with 'match:' and 'chain:' below it");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.count();
        refuseNotBuilt(map, "in a tenant");
        checkKeys(map, TENANT_KEYS, "in a tenant");
        final String name = errors.requiredText(map, "name", "a tenant", "add 'name: <unique name>' to this tenant");
        final YamlNode nameNode = map.get("name");
        if (name != null && (!TENANT_NAME.matcher(name).matches() || CLASSIFIER.equals(name)))
        {
            errors.add(nameNode, "bad tenant name '" + name + "'" + (CLASSIFIER.equals(name) ? ": '" + CLASSIFIER + "' names the classifier" : ""),
                "use a letter, then letters, digits, '-' or '_' (e.g. 'web'), other than '" + CLASSIFIER + "'");
        }
        else if (name != null && byName.containsKey(name))
        {
            final YamlNode first = byName.get(name).at();
            errors.add(nameNode, "duplicate tenant name '" + name + "' (first used at " + first.line() + ":" + first.column() + ")",
                "give each tenant a unique name, e.g. '" + name + "-2'");
        }
        final String where = name == null ? "this tenant" : "tenant '" + name + "'";
        final YamlNode matchNode = map.get("match");
        final TenantMatch match = ChainErrors.isAbsent(matchNode) ? TenantMatch.ANY : match(matchNode, where);
        final YamlNode.MapNode params = paramsMap(map.get("params"), where);
        final long[] limits = limits(map.get("limits"), where);
        final YamlNode chainNode = map.get("chain");
        List<VnfsReader.Vnf> vnfs = List.of();
        List<EdgeSpec> edges = List.of();
        if (chainNode == null)
        {
            errors.add(map, where + " is missing 'chain'",
                "add 'chain: <bundled chain>' (" + String.join(", ", bundledTenantChains()) + ") or an inline 'chain: { vnfs: [...], edges: [...] }'");
        }
        else if (name != null)
        {
            final YamlNode.MapNode chain = chainTree(chainNode, where);
            if (chain != null)
            {
                final List<VnfsReader.Vnf> read = new ArrayList<>();
                final List<EdgeSpec> readEdges = new ArrayList<>();
                readChain(chain, params, name, where, limits[2], read, readEdges);
                vnfs = read;
                edges = readEdges;
            }
        }
        if (name == null || errors.count() > errorsBefore)
        {
            // kept without VNFs so its name counts for duplicates; the reachability check skips it
            return name == null ? null : new Tenant(name, nameNode, map, match, List.of(), List.of(), 0, 0);
        }
        return new Tenant(name, nameNode, matchNode == null ? map : matchNode, match, vnfs, edges, limits[0], limits[1]);
    }

    /** Reports keys of features not built, with what to do instead. */
    private void refuseNotBuilt(final YamlNode.MapNode map, final String where)
    {
        for (final YamlNode.Entry entry : map.entries())
        {
            final String why = NOT_BUILT.get(entry.key());
            if (why != null)
            {
                errors.addAtKey(entry, "'" + entry.key() + "' " + where + ": " + why, "remove '" + entry.key() + "' (docs/tenants.md, 'Not built')");
            }
        }
    }

    private void checkKeys(final YamlNode.MapNode map, final List<String> known, final String where)
    {
        for (final YamlNode.Entry entry : map.entries())
        {
            if (!known.contains(entry.key()) && !NOT_BUILT.containsKey(entry.key()))
            {
                errors.addAtKey(entry, "unknown key '" + entry.key() + "' " + where, ChainErrors.suggestion(entry.key(), known, "keys"));
            }
        }
    }

    /** @return the tenant's chain as a map with {@code vnfs:} and {@code edges:}, or null after an error. */
    private YamlNode.MapNode chainTree(final YamlNode chainNode, final String where)
    {
        final String bundled = ChainErrors.scalarText(chainNode);
        if (bundled != null)
        {
            final List<String> known = bundledTenantChains();
            if (!known.contains(bundled))
            {
                errors.add(chainNode, "unknown chain '" + bundled + "' for " + where
                    + (ChainLoader.SHARED_TABLES_CHAIN.equals(bundled) ? ": a tenant's chain cannot share tables between its VNFs"
                        : ChainLoader.BUNDLED.contains(bundled) ? ": a tenant's chain cannot have tenants itself" : ""),
                    ChainErrors.suggestion(bundled, known, "bundled chains") + ", or write the chain inline: '{ vnfs: [...], edges: [...] }'");
                return null;
            }
            final String resource = ChainLoader.BUNDLED_DIRECTORY + bundled + ".yaml";
            final List<ChainError> bundledErrors = new ArrayList<>();
            final YamlNode root = new YamlTreeReader(new ChainErrors("classpath:" + resource, bundledErrors)).read(ChainLoader.readResource(resource));
            if (!(root instanceof YamlNode.MapNode map) || !bundledErrors.isEmpty())
            {
                errors.add(chainNode, "the bundled chain '" + bundled + "' does not read: " + bundledErrors, "name another chain");
                return null;
            }
            // Positions inside a bundled chain are its file's; the tenant's 'chain:' is where its problems are reported.
            final YamlNode.MapNode chain = new YamlNode.MapNode(chainNode.line(), chainNode.column());
            for (final String key : CHAIN_KEYS)
            {
                final YamlNode.Entry entry = map.entry(key);
                if (entry != null)
                {
                    chain.put(new YamlNode.Entry(key, chainNode.line(), chainNode.column(), entry.value()));
                }
            }
            return chain;
        }
        final YamlNode.MapNode inline = errors.expectMap(chainNode, "'chain' of " + where,
            "name a bundled chain (" + String.join(", ", bundledTenantChains()) + ") or write '{ vnfs: [...], edges: [...] }'");
        if (inline != null)
        {
            checkKeys(inline, CHAIN_KEYS, "in the chain of " + where);
        }
        return inline;
    }

    /** The bundled chains a tenant may name: those without tenants or shared tables of their own. */
    static List<String> bundledTenantChains()
    {
        return ChainLoader.BUNDLED.stream().filter(name -> !name.equals(ChainLoader.TENANTS_CHAIN)
            && !name.equals(ChainLoader.SHARED_TABLES_CHAIN)).toList();
    }

    /**
     * Reads one tenant's chain with its parameter overrides merged in, and adds its VNFs and
     * edges, renamed {@code <tenant>-<vnf>}, to {@code vnfs} and {@code edges}.
     */
    private void readChain(
        final YamlNode.MapNode chain, final YamlNode.MapNode params, final String tenant, final String where, final long entries,
        final List<VnfsReader.Vnf> vnfs, final List<EdgeSpec> edges)
    {
        final int errorsBefore = errors.count();
        final YamlNode.MapNode top = new YamlNode.MapNode(chain.line(), chain.column());
        final YamlNode.Entry vnfsEntry = chain.entry("vnfs");
        if (vnfsEntry != null)
        {
            top.put(new YamlNode.Entry("vnfs", vnfsEntry.keyLine(), vnfsEntry.keyColumn(), withOverrides(vnfsEntry.value(), params, where)));
        }
        final List<VnfsReader.Vnf> read = new VnfsReader(registry, errors).read(top);
        final List<EdgesReader.Edge> readEdges = new EdgesReader(errors).read(chain.get("edges"), read);
        new ChainGraphCheck(errors, read, readEdges).check();
        if (errors.count() > errorsBefore || read.isEmpty())
        {
            return;
        }
        for (final VnfsReader.Vnf vnf : read)
        {
            final String name = tenant + "-" + vnf.name();
            final VnfNode node = vnf.node();
            final Map<String, TableSettings> tables = entries > 0 ? limited(node.tables(), vnf.tables(), entries) : node.tables();
            vnfs.add(new VnfsReader.Vnf(name, vnf.at(), new VnfNode(name, node.factory(), node.config(), tables, node.stores(),
                node.distributions(), node.commutative()), vnf.outputs(), vnf.tables(), vnf.checkers()));
        }
        for (final EdgesReader.Edge edge : readEdges)
        {
            final EdgeSpec spec = edge.spec();
            edges.add(new EdgeSpec(tenant + "-" + spec.from(), spec.output(), spec.when(), spec.whenText(), tenant + "-" + spec.to()));
        }
    }

    /** @return each table's settings with its capacity at most {@code entries} (the tenant's {@code limits: entries}). */
    private static Map<String, TableSettings> limited(final Map<String, TableSettings> declared, final List<String> tables, final long entries)
    {
        final Map<String, TableSettings> out = new LinkedHashMap<>();
        for (final String table : tables)
        {
            final TableSettings own = declared.get(table);
            if (own == null)
            {
                out.put(table, new TableSettings(0, entries));
            }
            else
            {
                final long capacity = own.capacity() == 0 ? entries : Math.min(own.capacity(), entries);
                out.put(table, new TableSettings(Math.min(own.expectedEntries(), capacity), capacity, own.evict(), own.trigger()));
            }
        }
        return out;
    }

    /** @return the chain's {@code vnfs:} list with each VNF's {@code params:} overridden by the tenant's. */
    private YamlNode withOverrides(final YamlNode vnfsNode, final YamlNode.MapNode params, final String where)
    {
        if (params == null || !(vnfsNode instanceof YamlNode.SeqNode list))
        {
            return vnfsNode;
        }
        final List<String> names = new ArrayList<>();
        final Map<String, YamlNode.MapNode> byName = new HashMap<>();
        for (final YamlNode item : list.items())
        {
            final String name = item instanceof YamlNode.MapNode map ? ChainErrors.scalarText(map.get("name")) : null;
            if (name != null)
            {
                names.add(name);
                byName.put(name, (YamlNode.MapNode)item);
            }
        }
        final Map<String, YamlNode.Entry> overrides = new HashMap<>();
        for (final YamlNode.Entry entry : params.entries())
        {
            if (!byName.containsKey(entry.key()))
            {
                errors.addAtKey(entry, "no VNF '" + entry.key() + "' in the chain of " + where, ChainErrors.suggestion(entry.key(), names, "VNFs"));
            }
            else if (errors.expectMap(entry.value(), "'params' of '" + entry.key() + "' in " + where,
                "write a map of parameter: value, e.g. '" + entry.key() + ": { idle_timeout: 30s }'") != null)
            {
                overrides.put(entry.key(), entry);
            }
        }
        final YamlNode.SeqNode merged = new YamlNode.SeqNode(list.line(), list.column());
        for (final YamlNode item : list.items())
        {
            final String name = item instanceof YamlNode.MapNode map ? ChainErrors.scalarText(map.get("name")) : null;
            final YamlNode.Entry override = name == null ? null : overrides.get(name);
            merged.add(override == null ? item : overridden((YamlNode.MapNode)item, override));
        }
        return merged;
    }

    /** @return a copy of a VNF's map, at the override's position, whose parameters are its own with the override's on top. */
    private static YamlNode.MapNode overridden(final YamlNode.MapNode vnf, final YamlNode.Entry override)
    {
        final YamlNode.MapNode copy = new YamlNode.MapNode(override.keyLine(), override.keyColumn());
        final YamlNode.MapNode params = new YamlNode.MapNode(override.value().line(), override.value().column());
        for (final YamlNode.Entry entry : ((YamlNode.MapNode)override.value()).entries())
        {
            params.put(entry);
        }
        if (vnf.get("params") instanceof YamlNode.MapNode own)
        {
            for (final YamlNode.Entry entry : own.entries())
            {
                params.put(entry);
            }
        }
        for (final YamlNode.Entry entry : vnf.entries())
        {
            copy.put(entry.key().equals("params") ? new YamlNode.Entry("params", entry.keyLine(), entry.keyColumn(), params) : entry);
        }
        if (copy.get("params") == null)
        {
            copy.put(new YamlNode.Entry("params", override.keyLine(), override.keyColumn(), params));
        }
        return copy;
    }

    private YamlNode.MapNode paramsMap(final YamlNode node, final String where)
    {
        return ChainErrors.isAbsent(node) ? null
            : errors.expectMap(node, "'params' of " + where, "write a map of <vnf>: { parameter: value }, e.g. '{ lb: { servers: 16 } }'");
    }

    /** @return {pps, burst, entries}: 0, 1 and 0 when absent; the burst is the rate's one second when only the rate is given. */
    private long[] limits(final YamlNode node, final String where)
    {
        final long[] limits = {0, 1, 0};
        if (ChainErrors.isAbsent(node))
        {
            return limits;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'limits' of " + where, "write '{ pps: <n>, burst: <n>, entries: <n> }'");
        if (map == null)
        {
            return limits;
        }
        refuseNotBuilt(map, "in the limits of " + where);
        checkKeys(map, LIMIT_KEYS, "in the limits of " + where);
        final YamlNode pps = map.get("pps");
        final YamlNode burst = map.get("burst");
        final YamlNode entries = map.get("entries");
        if (pps != null)
        {
            limits[0] = errors.boundedNumber(pps, "'pps' of " + where, 1, MAX_PPS, " (packets per second of packet time)", 0);
            limits[1] = Math.max(1, limits[0]);
        }
        if (burst != null)
        {
            if (pps == null)
            {
                errors.add(burst, "'burst' of " + where + " without 'pps'", "add 'pps: <n>' beside it: the burst is the token bucket's size");
            }
            else
            {
                limits[1] = errors.boundedNumber(burst, "'burst' of " + where, 1, Integer.MAX_VALUE, " (packets that may pass at once)", 1);
            }
        }
        if (entries != null)
        {
            limits[2] = errors.boundedNumber(entries, "'entries' of " + where, 1, VnfsReader.MAX_EXPECTED_ENTRIES,
                " (the most entries each of the tenant's tables may hold)", 0);
        }
        return limits;
    }

    private TenantMatch match(final YamlNode node, final String where)
    {
        final YamlNode.MapNode map = errors.expectMap(node, "'match' of " + where,
            "write a map of tests, e.g. '{ src_net: [10.0.0.0/24], vlan: 100 }'; without 'match' the tenant takes every packet");
        if (map == null)
        {
            return TenantMatch.ANY;
        }
        refuseNotBuilt(map, "in the match of " + where);
        checkKeys(map, MATCH_KEYS, "in the match of " + where);
        final List<Object> src = nets(map.get("src_net"), "src_net");
        final List<Object> dst = nets(map.get("dst_net"), "dst_net");
        return new TenantMatch(numbers(map.get("vlan"), "vlan", 0, 4095), ofType(src, Cidr.class), ofType(dst, Cidr.class),
            numbers(map.get("dscp"), "dscp", 0, 63), ofType(src, Ipv6Cidr.class), ofType(dst, Ipv6Cidr.class));
    }

    /** @return the prefixes of one family, or null when the test is absent (null). */
    private static <T> List<T> ofType(final List<Object> nets, final Class<T> type)
    {
        return nets == null ? null : nets.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private int[] numbers(final YamlNode node, final String key, final int min, final int max)
    {
        if (node == null)
        {
            return null;
        }
        final List<YamlNode> items = node instanceof YamlNode.SeqNode seq ? seq.items() : List.of(node);
        if (items.isEmpty())
        {
            errors.add(node, "empty " + key + " list: no packet can match", "list at least one value, or remove '" + key + "'");
            return null;
        }
        final int[] values = new int[items.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = (int)errors.boundedNumber(items.get(i), key, min, max, " or a list of them", 0);
        }
        Arrays.sort(values);
        return values;
    }

    /** @return the IPv4 ({@link Cidr}) and IPv6 ({@link Ipv6Cidr}) prefixes, in the order written; null when absent. */
    private List<Object> nets(final YamlNode node, final String key)
    {
        if (node == null)
        {
            return null;
        }
        final List<YamlNode> items = node instanceof YamlNode.SeqNode seq ? seq.items() : List.of(node);
        if (items.isEmpty())
        {
            errors.add(node, "empty " + key + " list: no packet can match", "list at least one prefix, or remove '" + key + "'");
            return null;
        }
        final List<Object> nets = new ArrayList<>();
        for (final YamlNode item : items)
        {
            final String text = ChainErrors.scalarText(item);
            try
            {
                if (text == null)
                {
                    throw new IllegalArgumentException("not a prefix: " + item.describe());
                }
                nets.add(Ipv6Cidr.isIpv6(text) ? Ipv6Cidr.parse(text) : Cidr.parse(text));
            }
            catch (final IllegalArgumentException e)
            {
                errors.add(item, "bad " + key + ": " + e.getMessage(),
                    "write an IPv4 prefix a.b.c.d/n, an IPv6 prefix such as 2001:db8::/32, or a list of them, e.g. [10.0.0.0/24, fd00:1::/48]");
            }
        }
        return nets;
    }

    /** Reports each tenant an earlier one's match covers: the classifier never gives it a packet. */
    private void checkReachable(final List<Tenant> tenants)
    {
        for (int later = 1; later < tenants.size(); later++)
        {
            for (int earlier = 0; earlier < later; earlier++)
            {
                final Tenant e = tenants.get(earlier);
                final Tenant l = tenants.get(later);
                if (!e.vnfs().isEmpty() && !l.vnfs().isEmpty() && e.match().covers(l.match()))
                {
                    errors.add(l.matchAt(), "tenant '" + l.name() + "' is never reached: tenant '" + e.name() + "' (at " + e.at().line() + ":"
                        + e.at().column() + ") comes first and " + (e.match().acceptsEverything() ? "has no match, so it takes every packet"
                        : "its match accepts every packet this one does"),
                        "move '" + l.name() + "' above '" + e.name() + "', or narrow the match of '" + e.name() + "'");
                    break;
                }
            }
        }
    }

    /** @return the index of the default tenant, or -1 without one. */
    private int defaultTenant(final YamlNode.Entry entry, final List<Tenant> tenants)
    {
        if (entry == null || ChainErrors.isAbsent(entry.value()))
        {
            return -1;
        }
        final String name = errors.optionalText(entry.value(), "'default_tenant'");
        final List<String> names = tenants.stream().map(Tenant::name).toList();
        final int index = name == null ? -1 : names.indexOf(name);
        if (name != null && index < 0)
        {
            errors.add(entry.value(), "no tenant '" + name + "'", ChainErrors.suggestion(name, names, "tenants"));
        }
        return index;
    }
}
