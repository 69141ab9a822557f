package io.transnfv.chains;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.TableDistribution;
import io.transnfv.engine.chain.TableSettings;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.vnf.api.StateType;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;


import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the {@code vnfs:} section: each VNF's name, type and parameters (the last through
 * {@link ParamsReader}), and sets each one up once to learn its outputs. Setup only.
 */
final class VnfsReader
{
    static final List<String> VNF_KEYS = List.of("name", "type", "params", "tables", "shared");
    /** Keys of a table's entry under a VNF's {@code tables:}. */
    static final List<String> TABLE_KEYS = List.of("expected_entries", "capacity", "when_full", "trigger", "store", "distribution", "consistency", "type");
    /** The most entries a table may be sized for: 2^30, a billion keys. */
    static final long MAX_EXPECTED_ENTRIES = 1L << 30;
    /** The {@code consistency} whose updates run as adds that commute. */
    static final String COMMUTATIVE = "commutative";
    /** The {@code consistency} whose updates nobody waits for. */
    static final String FIRE_AND_FORGET = "fire-and-forget";
    /** The {@code consistency} whose reads see the batch start: {@code {stale-reads: <bound>}}. */
    static final String STALE_READS = "stale-reads";
    /** The largest stale-reads bound, in batches. */
    static final long MAX_STALE_BATCHES = 1_000_000;
    static final List<String> TRIGGER_KEYS = List.of("above", "alert");

    private static final Pattern VNF_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

    private final VnfRegistry registry;
    private final ChainErrors errors;
    private final ParamsReader params;
    /** The chain's shared tables, which VNFs bind with {@code shared:}; null where a chain cannot have them (a tenant's). */
    private SharedTablesReader sharedTables;
    /** Every table of the VNFs read so far with its distribution, declared or by default, in file order. */
    private final List<Distributed> distributed = new ArrayList<>();

    /**
     * A table's distribution over a scaled-out run's instances.
     *
     * @param table        {@code vnf.table}.
     * @param distribution declared, or its scope's default.
     * @param declared     where it is declared, or null for a default.
     */
    private record Distributed(String table, TableDistribution distribution, YamlNode declared)
    {
    }

    /**
     * A VNF as far as reading got: {@code node} is null if it had errors.
     *
     * @param name    its name.
     * @param at      where its name is written.
     * @param node    what the runtime builds, or null.
     * @param outputs its outputs, empty if it had errors.
     * @param tables  its tables' names, empty if it had errors.
     * @param checkers its state checkers' names, empty if it had errors.
     */
    record Vnf(String name, YamlNode at, VnfNode node, List<String> outputs, List<String> tables, List<String> checkers)
    {
        Vnf(final String name, final YamlNode at)
        {
            this(name, at, null, List.of(), List.of(), List.of());
        }
    }

    /**
     * @param registry the VNF types.
     * @param errors   where problems are added.
     */
    VnfsReader(final VnfRegistry registry, final ChainErrors errors)
    {
        this.registry = registry;
        this.errors = errors;
        this.params = new ParamsReader(errors);
    }

    /** Lets the VNFs read next bind the chain's shared tables ({@code shared:}). */
    void sharedTables(final SharedTablesReader reader)
    {
        this.sharedTables = reader;
    }

    /** @return the VNFs with a usable name, in file order; empty if the section is missing or unusable. */
    List<Vnf> read(final YamlNode.MapNode top)
    {
        final List<Vnf> vnfs = new ArrayList<>();
        final YamlNode.Entry entry = top.entry("vnfs");
        if (entry == null)
        {
            errors.add(top, "missing 'vnfs'", "add 'vnfs:' with at least one '- name: ...' and 'type: ...'");
            return vnfs;
        }
        final YamlNode.SeqNode list = errors.expectSeq(entry.value(), "'vnfs'",
            "write a list: one '- name: ...' item per VNF, each with 'type:'");
        if (list == null)
        {
            return vnfs;
        }
        if (list.items().isEmpty())
        {
            errors.addAtKey(entry, "'vnfs' is empty", "list at least one VNF: '- name: nat' with 'type: nat'");
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
        checkPartitioning();
        return vnfs;
    }

    /**
     * Refuses declarations no single routing key can satisfy (see {@link Partitioning}), at the
     * declaration that makes the conflict: a standalone run would not mind, but a scaled-out one
     * could not keep the tables' packets together.
     */
    private void checkPartitioning()
    {
        Distributed byFlow = null;
        Distributed bySource = null;
        for (final Distributed d : distributed)
        {
            if (d.distribution() == TableDistribution.BY_FLOW && (byFlow == null || byFlow.declared() == null && d.declared() != null))
            {
                byFlow = d;
            }
            if (d.distribution() == TableDistribution.BY_SOURCE_HOST && (bySource == null || bySource.declared() == null && d.declared() != null))
            {
                bySource = d;
            }
        }
        if (byFlow == null || bySource == null)
        {
            return;
        }
        final String conflict = Partitioning.conflict(byFlow.table(), bySource.table());
        final int fix = conflict.indexOf("\nfix: ");
        final String byDefault = byFlow.declared() == null ? " (" + byFlow.table() + " declares nothing: a per-flow table is by-flow)" : "";
        errors.add(bySource.declared() != null ? bySource.declared() : byFlow.declared(), conflict.substring(0, fix) + byDefault,
            conflict.substring(fix + "\nfix: ".length()));
    }

    private Vnf vnf(final YamlNode item, final Map<String, Vnf> byName)
    {
        final YamlNode.MapNode map = errors.expectMap(item, "a VNF", "write '- name: <name>' with 'type: <type>' below it");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.count();
        errors.checkKeys(map, VNF_KEYS, "in a VNF");
        final String name = errors.requiredText(map, "name", "a VNF", "add 'name: <unique name>' to this VNF");
        final YamlNode nameNode = map.get("name");
        if (name != null && !VNF_NAME.matcher(name).matches())
        {
            errors.add(nameNode, "bad VNF name '" + name + "'",
                "use a letter, then letters, digits, '-' or '_' (e.g. 'nat-1')");
        }
        else if (name != null && byName.containsKey(name))
        {
            final YamlNode first = byName.get(name).at();
            errors.add(nameNode, "duplicate VNF name '" + name + "' (first used at " + first.line() + ":" + first.column() + ")",
                "give each VNF a unique name, e.g. '" + name + "-2'");
        }
        final String where = name == null ? "this VNF" : "VNF '" + name + "'";
        final String type = errors.requiredText(map, "type", where,
            "add 'type: <type>' (known types: " + String.join(", ", registry.types().keySet()) + ")");
        VnfFactory factory = null;
        if (type != null)
        {
            factory = registry.find(type);
            if (factory == null)
            {
                errors.add(map.get("type"), "unknown VNF type '" + type + "'",
                    ChainErrors.suggestion(type, registry.types().keySet(), "types"));
            }
        }
        final YamlNode paramsNode = map.get("params");
        YamlNode.MapNode paramsMap = null;
        if (!ChainErrors.isAbsent(paramsNode))
        {
            paramsMap = errors.expectMap(paramsNode, "'params'", "write a map of parameter: value, e.g. '{ pool_size: 4096 }'");
        }
        if (factory == null || name == null)
        {
            return name == null ? null : new Vnf(name, nameNode);
        }
        final VnfConfig config = params.read(map, paramsMap, factory, where);
        if (config == null || errors.count() > errorsBefore)
        {
            return new Vnf(name, nameNode);
        }
        final VnfNode plain = new VnfNode(name, factory, config);
        try
        {
            final TableCatalog catalog = new TableCatalog();
            final VnfInstance instance = new VnfInstance(name, type, plain.create(), catalog);
            final Map<String, TableSettings> sizes = new LinkedHashMap<>();
            final Map<String, StoreKind> stores = new LinkedHashMap<>();
            final Map<String, TableDistribution> distributions = new LinkedHashMap<>();
            final Map<String, YamlNode> declaredAt = new HashMap<>();
            final Set<String> commutative = new LinkedHashSet<>();
            final Set<String> fireAndForget = new LinkedHashSet<>();
            final Map<String, Integer> staleReads = new LinkedHashMap<>();
            tables(map.entry("tables"), catalog, instance, where, sizes, stores, distributions, declaredAt, commutative, fireAndForget,
                staleReads);
            final Map<String, String> bindings = sharedBindings(map.entry("shared"), instance, where);
            if (errors.count() > errorsBefore)
            {
                return new Vnf(name, nameNode);
            }
            final List<String> tableNames = new ArrayList<>();
            for (int t = 0; t < catalog.size(); t++)
            {
                final String table = catalog.spec(t).name();
                tableNames.add(table);
                distributed.add(new Distributed(name + "." + table,
                    distributions.getOrDefault(table, TableDistribution.defaultFor(catalog.spec(t).scope())), declaredAt.get(table)));
            }
            return new Vnf(name, nameNode, new VnfNode(name, factory, config, sizes, stores, distributions, commutative, fireAndForget, staleReads,
                bindings),
                instance.outputs(),
                tableNames, instance.checkers().stream().map(VnfInstance.Checker::name).toList());
        }
        catch (final VnfConfigException e)
        {
            errors.add(ParamsReader.at(e, paramsMap, map), where + ": " + e.getMessage(), ParamsReader.fix(factory, e.param()));
        }
        catch (final RuntimeException e)
        {
            errors.add(map, where + " (type " + type + ") failed to set up: " + e.getMessage(),
                "check its parameters against 'type " + type + "' in docs/chain-yaml.md");
        }
        return new Vnf(name, nameNode);
    }

    /** @return the chain's shared table bound to each of the VNF's roles ({@code shared:}), by role. */
    private Map<String, String> sharedBindings(final YamlNode.Entry entry, final VnfInstance instance, final String where)
    {
        if (entry == null || ChainErrors.isAbsent(entry.value()))
        {
            return Map.of();
        }
        if (sharedTables == null)
        {
            errors.addAtKey(entry, "'shared' in a tenant's chain: tables shared across VNFs are not available in a chain of tenants",
                "remove 'shared:'; a tenant's VNFs keep tables of their own (docs/tenants.md)");
            return Map.of();
        }
        return sharedTables.bindings(entry, instance, where);
    }

    /**
     * Reads a VNF's {@code tables:}: for each of its tables, the entries to size it for, its
     * capacity, what it does when full, its trigger, the store it lives in and how it spreads over
     * a scaled-out run, into {@code sizes}, {@code stores} and {@code distributions} (with where
     * each distribution is written; tables not written are absent), and the tables made
     * {@code consistency: commutative} into {@code commutative} and those made
     * {@code consistency: fire-and-forget} into {@code fireAndForget} and those given
     * {@code consistency: {stale-reads: <bound>}} into {@code staleReads}, with the bound.
     */
    private void tables(
        final YamlNode.Entry entry, final TableCatalog catalog, final VnfInstance instance, final String where,
        final Map<String, TableSettings> sizes, final Map<String, StoreKind> stores, final Map<String, TableDistribution> distributions,
        final Map<String, YamlNode> declaredAt, final Set<String> commutative, final Set<String> fireAndForget,
        final Map<String, Integer> staleReads)
    {
        if (entry == null || ChainErrors.isAbsent(entry.value()))
        {
            return;
        }
        final List<String> known = new ArrayList<>();
        final List<String> evictable = new ArrayList<>();
        for (int t = 0; t < catalog.size(); t++)
        {
            known.add(catalog.spec(t).name());
            if (instance.vnf().evicts(t))
            {
                evictable.add(catalog.spec(t).name());
            }
        }
        final YamlNode.MapNode tables = errors.expectMap(entry.value(), "'tables' of " + where,
            "write a map of table: { expected_entries: <n>, store: <store>, distribution: <how> }, e.g. '{ " + (known.isEmpty() ? "flows" : known.get(0))
                + ": { expected_entries: 100000 } }'");
        if (tables == null)
        {
            return;
        }
        for (final YamlNode.Entry table : tables.entries())
        {
            if (!known.contains(table.key()))
            {
                errors.addAtKey(table, where + " has no table '" + table.key() + "'",
                    known.isEmpty() ? "remove 'tables:': this VNF type keeps no state" : ChainErrors.suggestion(table.key(), known, "tables"));
                continue;
            }
            final YamlNode.MapNode settings = errors.expectMap(table.value(), "table '" + table.key() + "' of " + where,
                "write '{ expected_entries: <n> }', '{ capacity: <n> }', '{ store: chronicle, expected_entries: <n> }' or '{ distribution: by-flow }'");
            if (settings == null)
            {
                continue;
            }
            errors.checkKeys(settings, TABLE_KEYS, "in table '" + table.key() + "' of " + where);
            final YamlNode distribution = settings.get("distribution");
            if (distribution != null)
            {
                final String text = ChainErrors.scalarText(distribution);
                final TableDistribution parsed = text == null ? null : TableDistribution.parse(text);
                if (parsed == null)
                {
                    errors.add(distribution, (text == null ? "'distribution' must be text, not " + distribution.describe()
                        : "unknown distribution '" + text + "'") + " for table '" + table.key() + "' of " + where,
                        "write one of " + TableDistribution.names() + " (docs/flink.md#partitioning)");
                }
                else
                {
                    distributions.put(table.key(), parsed);
                    declaredAt.put(table.key(), distribution);
                }
            }
            final TableSpec spec = catalog.spec(catalog.find(instance.name(), table.key()));
            final YamlNode type = settings.get("type");
            if (type != null)
            {
                stateType(type, spec, where);
            }
            if (spec.type() == StateType.SET && !setTrigger(settings.get("trigger"), spec, where))
            {
                continue;
            }
            if (spec.type() == StateType.RING && settings.get("trigger") != null)
            {
                errors.add(settings.get("trigger"), "ring table '" + spec.name() + "' of " + where + " cannot have a trigger: its entries"
                    + " hold the values pushed and each ring's count of pushes, and a trigger cannot tell them apart",
                    "remove the table's 'trigger'");
                continue;
            }
            if (spec.type() == StateType.STRUCT && settings.get("trigger") != null)
            {
                errors.add(settings.get("trigger"), "struct table '" + spec.name() + "' of " + where + " cannot have a trigger: its entries"
                    + " are its fields " + String.join(", ", spec.fields()) + ", and a trigger cannot tell them apart",
                    "remove the table's 'trigger'");
                continue;
            }
            final YamlNode consistency = settings.get("consistency");
            final String hint = consistency == null ? null
                : consistency(consistency, settings.get("trigger"), catalog.spec(catalog.find(instance.name(), table.key())), catalog, where,
                    staleReads);
            if (COMMUTATIVE.equals(hint))
            {
                commutative.add(table.key());
            }
            else if (FIRE_AND_FORGET.equals(hint))
            {
                fireAndForget.add(table.key());
            }
            final YamlNode storeNode = settings.get("store");
            final StoreKind store = ChainErrors.isAbsent(storeNode) ? null
                : StoresReader.storeKind(errors, storeNode, "store of table '" + table.key() + "' of " + where);
            if (store != null)
            {
                stores.put(table.key(), store);
            }
            final YamlNode expected = settings.get("expected_entries");
            final YamlNode capacity = settings.get("capacity");
            if (store == StoreKind.CHRONICLE && expected == null)
            {
                errors.add(storeNode, "table '" + table.key() + "' of " + where + " is stored in chronicle but has no 'expected_entries'",
                    "add 'expected_entries: <n>' beside 'store: chronicle': Chronicle Map is sized for its entries when it is created");
                continue;
            }
            if (expected == null && capacity == null && settings.get("trigger") == null && settings.get("when_full") == null)
            {
                if (storeNode == null && distribution == null && consistency == null && type == null)
                {
                    errors.add(settings, "table '" + table.key() + "' of " + where + " sets neither 'expected_entries' nor 'capacity'",
                        "add 'expected_entries: <n>' (the entries to make room for at the start) or 'capacity: <n>' (the most it may hold)");
                }
                continue;
            }
            final long entries = expected == null ? 0 : errors.boundedNumber(expected, "'expected_entries' of table '" + table.key() + "' of " + where,
                1, MAX_EXPECTED_ENTRIES, " (room made at the start; more entries still fit)", 1);
            final long most = capacity == null ? 0 : errors.boundedNumber(capacity, "'capacity' of table '" + table.key() + "' of " + where,
                1, MAX_EXPECTED_ENTRIES, " (the entries it may hold; new ones are refused beyond it)", 1);
            if (entries > 0 && most > 0 && entries > most)
            {
                errors.add(expected, "'expected_entries' " + entries + " of table '" + table.key() + "' of " + where
                    + " is more than its capacity " + most, "make room for at most the capacity: 'expected_entries: " + most + "'");
                continue;
            }
            final boolean evict = whenFull(settings.get("when_full"), table.key(), most, evictable, where);
            final TableSettings.Trigger trigger = trigger(settings.get("trigger"), table.key(), where);
            sizes.put(table.key(), new TableSettings(entries, most, evict, trigger));
        }
    }

    /**
     * Reads {@code when_full}: {@code reject} (the default) or {@code evict}, which needs a
     * capacity of the table's own and a VNF that evicts from it.
     *
     * @return true for {@code evict}.
     */
    private boolean whenFull(final YamlNode node, final String table, final long capacity, final List<String> evictable, final String where)
    {
        if (node == null)
        {
            return false;
        }
        final String text = ChainErrors.scalarText(node);
        if ("reject".equals(text))
        {
            return false;
        }
        if (!"evict".equals(text))
        {
            errors.add(node, "bad 'when_full' " + (text == null ? "value" : "'" + text + "'") + " of table '" + table + "' of " + where,
                "write 'reject' (refuse new entries, the default) or 'evict' (remove the least recently active ones)");
            return false;
        }
        if (capacity == 0)
        {
            errors.add(node, "table '" + table + "' of " + where + " evicts when full but has no capacity of its own",
                "add 'capacity: <n>' beside 'when_full: evict'");
            return false;
        }
        if (!evictable.contains(table))
        {
            errors.add(node, where + " cannot evict from table '" + table + "'",
                evictable.isEmpty() ? "use 'when_full: reject': this VNF type evicts from none of its tables"
                    : "use 'when_full: reject', or evict from " + String.join(", ", evictable) + " (its other entries go with them)");
            return false;
        }
        return true;
    }

    /**
     * Reads a table's {@code consistency}: {@code serializable} (the default), {@code commutative}
     * or {@code fire-and-forget}, which the table's VNF must be able to honour
     * ({@link TableSpec#honoursCommutative()}: its updates of the table are deltas that never
     * read it; {@link TableSpec#honoursFireAndForget()}: nothing in its transactions reads the
     * table or the results of its updates) and which a trigger excludes (a trigger needs each
     * write's value before and after, and neither an add nor a fire-and-forget update has them).
     *
     * @return the hint the VNF honours ({@link #COMMUTATIVE}, {@link #FIRE_AND_FORGET}), or null
     *         for {@code serializable} and for a hint refused (an error is added).
     */
    private String consistency(
        final YamlNode node, final YamlNode trigger, final TableSpec spec, final TableCatalog catalog, final String where,
        final Map<String, Integer> staleReads)
    {
        if (node instanceof YamlNode.MapNode map)
        {
            return staleReads(map, trigger, spec, catalog, where, staleReads);
        }
        final String text = ChainErrors.scalarText(node);
        if ("serializable".equals(text))
        {
            return null;
        }
        final String table = spec.name();
        if (!COMMUTATIVE.equals(text) && !FIRE_AND_FORGET.equals(text))
        {
            errors.add(node, "bad 'consistency' " + (text == null ? "value" : "'" + text + "'") + " of table '" + table + "' of " + where,
                "write 'serializable' (every access ordered, the default), 'commutative' (updates run as adds that commute)"
                    + ", 'fire-and-forget' (updates nobody waits for, applied by the end of the batch)"
                    + " or '{ stale-reads: <bound> }' (reads see the batch start, at most <bound> batches old)"
                    + (STALE_READS.equals(text) ? "; 'stale-reads' needs its bound: '{ stale-reads: 1 }'" : ""));
            return null;
        }
        final boolean commutative = COMMUTATIVE.equals(text);
        if (commutative ? !spec.honoursCommutative() : !spec.honoursFireAndForget())
        {
            final List<String> honoured = new ArrayList<>();
            for (int t = 0; t < catalog.size(); t++)
            {
                if (commutative ? catalog.spec(t).honoursCommutative() : catalog.spec(t).honoursFireAndForget())
                {
                    honoured.add(catalog.spec(t).name());
                }
            }
            errors.add(node, "table '" + table + "' of " + where + " cannot be " + text + ": "
                + (commutative ? spec.notCommutative() : spec.notForgettable()),
                "remove 'consistency: " + text + "' (the table stays serializable)" + (honoured.isEmpty()
                    ? "; this VNF, as configured, can make none of its tables " + text
                    : "; this VNF, as configured, can make " + String.join(", ", honoured) + " " + text));
            return null;
        }
        if (trigger != null)
        {
            errors.add(node, "table '" + table + "' of " + where + " cannot be " + text + " and have a trigger: "
                + "a trigger compares each write's value before and after, and " + (commutative ? "an add" : "an update nobody waits for")
                + " sees neither",
                "remove 'consistency: " + text + "' or the table's 'trigger'");
            return null;
        }
        return text;
    }

    /**
     * Reads a table's {@code consistency: {stale-reads: <bound>}}: reads and choices of the table
     * see its committed value as of the batch start, at most {@code bound} batches old (0 and 1
     * both mean the batch start, which every bound allows), which the table's VNF must be able to
     * honour ({@link TableSpec#honoursStaleReads()}) and a trigger excludes.
     *
     * @return {@link #STALE_READS} with the bound put in {@code staleReads}, or null (an error is added).
     */
    private String staleReads(
        final YamlNode.MapNode map, final YamlNode trigger, final TableSpec spec, final TableCatalog catalog, final String where,
        final Map<String, Integer> staleReads)
    {
        final String table = spec.name();
        errors.checkKeys(map, List.of(STALE_READS), "in 'consistency' of table '" + table + "' of " + where);
        final YamlNode bound = map.get(STALE_READS);
        if (bound == null)
        {
            errors.add(map, "'consistency' of table '" + table + "' of " + where + " has no 'stale-reads'",
                "write '{ stale-reads: <bound> }', the most batches a read may lag behind (1: the batch start)");
            return null;
        }
        final long batches = errors.boundedNumber(bound, "'stale-reads' bound of table '" + table + "' of " + where, 0, MAX_STALE_BATCHES,
            " (batches a read may lag behind; 0 and 1 mean the batch start)", -1);
        if (batches < 0)
        {
            return null;
        }
        if (!spec.honoursStaleReads())
        {
            final List<String> honoured = new ArrayList<>();
            for (int t = 0; t < catalog.size(); t++)
            {
                if (catalog.spec(t).honoursStaleReads())
                {
                    honoured.add(catalog.spec(t).name());
                }
            }
            errors.add(bound, "table '" + table + "' of " + where + " cannot have stale reads: " + spec.notStaleReadable(),
                "remove 'consistency: { stale-reads: " + batches + " }' (the table stays serializable)" + (honoured.isEmpty()
                    ? "; this VNF, as configured, can give none of its tables stale reads"
                    : "; this VNF, as configured, can give " + String.join(", ", honoured) + " stale reads"));
            return null;
        }
        if (trigger != null)
        {
            errors.add(bound, "table '" + table + "' of " + where + " cannot have stale reads and a trigger: "
                + "a trigger compares each write's value before and after, and its updates are deltas that see neither",
                "remove 'consistency: { stale-reads: " + batches + " }' or the table's 'trigger'");
            return null;
        }
        staleReads.put(table, (int)batches);
        return STALE_READS;
    }

    /**
     * Reads a table's {@code type}, which states what the table's VNF declares it to hold
     * ({@link TableSpec#type()}): a chain cannot change it, and a type the VNF does not declare
     * is an error at the value, since the table's operations would not be that type's.
     */
    private void stateType(final YamlNode node, final TableSpec spec, final String where)
    {
        final String text = ChainErrors.scalarText(node);
        final StateType parsed = text == null ? null : StateType.parse(text);
        final List<String> names = new ArrayList<>();
        for (final StateType t : StateType.values())
        {
            names.add(t.yamlName());
        }
        if (parsed == null)
        {
            errors.add(node, "bad 'type' " + (text == null ? "value" : "'" + text + "'") + " of table '" + spec.name() + "' of " + where,
                "write one of " + String.join(", ", names) + ", or remove 'type:' (the VNF's declaration decides it)");
            return;
        }
        if (parsed != spec.type())
        {
            errors.add(node, "table '" + spec.name() + "' of " + where + " is a " + spec.type().yamlName() + " table, not a "
                + parsed.yamlName() + ": its VNF's operations on it are " + spec.type().yamlName() + " operations",
                "write 'type: " + spec.type().yamlName() + "', or remove 'type:'");
        }
    }

    /**
     * A set table's trigger fires when a set's size goes from at most {@code above} to more; its
     * member entries hold 1, so {@code above} below 1 would also fire on every member added.
     *
     * @return false if the trigger is refused (an error is added).
     */
    private boolean setTrigger(final YamlNode trigger, final TableSpec spec, final String where)
    {
        if (!(trigger instanceof YamlNode.MapNode map) || map.get("above") == null)
        {
            return true;
        }
        final YamlNode above = map.get("above");
        final long threshold = ChainErrors.wholeNumber(above);
        if (threshold != Long.MIN_VALUE && threshold < 1)
        {
            errors.add(above, "'above' " + threshold + " of the trigger of set table '" + spec.name() + "' of " + where
                + " would fire on every member added, not on the set's size",
                "write 'above: <n>' with n at least 1: the alert is raised when a set grows past n members");
            return false;
        }
        return true;
    }

    /**
     * Reads a table's {@code trigger: {above: <n>, alert: <name>}}.
     *
     * @return the trigger, or null if absent or wrong (the error recorded).
     */
    private TableSettings.Trigger trigger(final YamlNode node, final String table, final String where)
    {
        if (node == null)
        {
            return null;
        }
        final String what = "'trigger' of table '" + table + "' of " + where;
        final YamlNode.MapNode map = errors.expectMap(node, what, "write '{ above: <n>, alert: <name> }', e.g. '{ above: 10000, alert: heavy-hitter }'");
        if (map == null)
        {
            return null;
        }
        errors.checkKeys(map, TRIGGER_KEYS, "in " + what);
        final YamlNode above = map.get("above");
        final YamlNode alert = map.get("alert");
        if (above == null || alert == null)
        {
            errors.add(map, what + " is missing '" + (above == null ? "above" : "alert") + "'",
                "write '{ above: <n>, alert: <name> }': the alert is raised when a write takes a key's value above n");
            return null;
        }
        final long threshold = ChainErrors.wholeNumber(above);
        if (threshold == Long.MIN_VALUE)
        {
            errors.add(above, "bad 'above' of " + what + ": '" + ChainErrors.scalarText(above) + "'", "write a whole number, e.g. 10000");
            return null;
        }
        final String name = ChainErrors.scalarText(alert);
        if (name == null || !VNF_NAME.matcher(name).matches())
        {
            errors.add(alert, "bad 'alert' of " + what + ": " + (name == null ? "no name" : "'" + name + "'"),
                "write a name: a letter, then letters, digits, '-' or '_', e.g. heavy-hitter");
            return null;
        }
        return new TableSettings.Trigger(threshold, name);
    }
}
