package io.transnfv.chains;

import io.transnfv.engine.chain.SharedTableSpec;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code shared_tables:} section, the tables several VNFs of the chain share, and checks
 * each VNF's {@code shared: {<role>: <table>}} against it: the role must be one its VNF type
 * declares, the table one the section declares, with the role's key kind, and every role bound to
 * one table must agree on what it holds; every declared table must be bound by some VNF. A table's
 * {@code store:} is read as a VNF table's (a table in Chronicle Map needs {@code expected_entries};
 * one in Redis is checked against the server with the VNFs' tables, {@link #inRedis()}). Setup
 * only.
 */
final class SharedTablesReader
{
    static final List<String> KEYS = List.of("name", "key", "expected_entries", "capacity", "store");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]*");

    private final ChainErrors errors;
    /** The declared tables by name, in file order, with where each is named. */
    private final Map<String, Declared> declared = new LinkedHashMap<>();
    /** Each bound table's first role, which the others must agree with. */
    private final Map<String, TableSpec> firstRole = new LinkedHashMap<>();

    /** A declared table, where its name is written and where its store is (null: not written). */
    private record Declared(SharedTableSpec spec, YamlNode at, YamlNode storeAt)
    {
    }

    SharedTablesReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /** Reads the section, if there is one. */
    void read(final YamlNode.Entry entry)
    {
        if (entry == null || ChainErrors.isAbsent(entry.value()))
        {
            return;
        }
        final YamlNode.SeqNode list = errors.expectSeq(entry.value(), "'shared_tables'",
            "write a list: one '- name: <table>' item per table, each with 'key: <kind>'");
        if (list == null)
        {
            return;
        }
        for (final YamlNode item : list.items())
        {
            final YamlNode.MapNode map = errors.expectMap(item, "a shared table", "write '- name: <table>' with 'key: host' below it");
            if (map == null)
            {
                continue;
            }
            errors.checkKeys(map, KEYS, "in a shared table");
            final String name = errors.requiredText(map, "name", "a shared table", "add 'name: <table>', e.g. 'name: blocked'");
            final String where = "shared table '" + name + "'";
            final String key = errors.requiredText(map, "key", where, "add 'key: <kind>', one of " + keyKinds());
            if (name == null)
            {
                continue;
            }
            if (!NAME.matcher(name).matches())
            {
                errors.add(map.get("name"), "bad shared table name '" + name + "'", "use a lower-case letter, then lower-case letters, digits, '-' or '_'");
                continue;
            }
            if (declared.containsKey(name))
            {
                final YamlNode first = declared.get(name).at();
                errors.add(map.get("name"), "duplicate shared table '" + name + "' (first declared at " + first.line() + ":" + first.column() + ")",
                    "give each shared table a unique name");
                continue;
            }
            final KeyKind kind = key == null ? null : keyKind(key);
            if (key != null && kind == null)
            {
                errors.add(map.get("key"), "unknown key kind '" + key + "' of " + where, ChainErrors.suggestion(key, keyKinds(), "key kinds"));
            }
            final YamlNode expected = map.get("expected_entries");
            final YamlNode capacity = map.get("capacity");
            final long entries = expected == null ? 0 : errors.boundedNumber(expected, "'expected_entries' of " + where,
                1, VnfsReader.MAX_EXPECTED_ENTRIES, " (room made at the start; more entries still fit)", 1);
            final long most = capacity == null ? 0 : errors.boundedNumber(capacity, "'capacity' of " + where,
                1, VnfsReader.MAX_EXPECTED_ENTRIES, " (the entries it may hold; new ones are refused beyond it)", 1);
            if (entries > 0 && most > 0 && entries > most)
            {
                errors.add(expected, "'expected_entries' " + entries + " of " + where + " is more than its capacity " + most,
                    "make room for at most the capacity: 'expected_entries: " + most + "'");
            }
            final YamlNode storeNode = map.get("store");
            final StoreKind store = ChainErrors.isAbsent(storeNode) ? StoreKind.HEAP
                : StoresReader.storeKind(errors, storeNode, "store of " + where);
            if (store == StoreKind.CHRONICLE && expected == null)
            {
                errors.add(storeNode, where + " is stored in chronicle but has no 'expected_entries'",
                    "add 'expected_entries: <n>' beside 'store: chronicle': Chronicle Map is sized for its entries when it is created");
            }
            if (kind != null)
            {
                declared.put(name, new Declared(new SharedTableSpec(name, kind, entries, most, store == null ? StoreKind.HEAP : store),
                    map.get("name"), storeNode));
            }
        }
    }

    /** @return true if the chain declares shared tables. */
    boolean any()
    {
        return !declared.isEmpty();
    }

    /**
     * Reads VNF {@code where}'s {@code shared:} map against the roles its type declares.
     *
     * @return the table bound to each role, by role; the bindings with errors left out.
     */
    Map<String, String> bindings(final YamlNode.Entry entry, final VnfInstance instance, final String where)
    {
        final Map<String, String> bound = new LinkedHashMap<>();
        if (entry == null || ChainErrors.isAbsent(entry.value()))
        {
            return bound;
        }
        final List<String> roles = instance.roles().stream().map(TableSpec::name).toList();
        final YamlNode.MapNode map = errors.expectMap(entry.value(), "'shared' of " + where,
            "write a map of role: shared table, e.g. '{ " + (roles.isEmpty() ? "blocklist" : roles.get(0)) + ": blocked }'");
        if (map == null)
        {
            return bound;
        }
        if (TableCatalog.SHARED_OWNER.equals(instance.name()))
        {
            errors.addAtKey(entry, "VNF name '" + instance.name() + "' is the name the chain's shared tables print under ('"
                + TableCatalog.SHARED_OWNER + ".<table>')", "rename the VNF");
        }
        for (final YamlNode.Entry binding : map.entries())
        {
            final TableSpec role = instance.roles().stream().filter(r -> r.name().equals(binding.key())).findFirst().orElse(null);
            if (role == null)
            {
                errors.addAtKey(binding, where + " (type " + instance.type() + ") has no shared table role '" + binding.key() + "'",
                    roles.isEmpty() ? "remove 'shared:': this VNF type shares no table" : ChainErrors.suggestion(binding.key(), roles, "roles"));
                continue;
            }
            final String table = ChainErrors.scalarText(binding.value());
            if (table == null)
            {
                errors.add(binding.value(), "role '" + binding.key() + "' of " + where + " must name a shared table, not "
                    + binding.value().describe(), "write the name of a table under 'shared_tables:'");
                continue;
            }
            final Declared declaration = declared.get(table);
            if (declaration == null)
            {
                errors.add(binding.value(), "role '" + binding.key() + "' of " + where + " names no shared table '" + table + "'",
                    declared.isEmpty() ? "declare it: 'shared_tables: [ { name: " + table + ", key: "
                        + role.keyKind().name().toLowerCase(Locale.ROOT) + " } ]' at the top level"
                        : ChainErrors.suggestion(table, declared.keySet(), "shared tables"));
                continue;
            }
            if (role.keyKind() != declaration.spec().keyKind())
            {
                errors.add(binding.value(), "role '" + binding.key() + "' of " + where + " cannot use shared table '" + table + "': its keys are "
                    + role.keyKind().name().toLowerCase(Locale.ROOT) + " keys, the table's are "
                    + declaration.spec().keyKind().name().toLowerCase(Locale.ROOT) + " keys",
                    "bind a table with 'key: " + role.keyKind().name().toLowerCase(Locale.ROOT) + "', or declare one");
                continue;
            }
            final TableSpec first = firstRole.putIfAbsent(table, role);
            final String why = first == null ? null : VnfInstance.mismatch(role, first);
            if (why != null)
            {
                errors.add(binding.value(), "role '" + binding.key() + "' of " + where + " cannot share table '" + table
                    + "' with the roles bound before it: " + why, "bind the role to a table of its own");
                continue;
            }
            bound.put(binding.key(), table);
        }
        return bound;
    }

    /** Refuses every declared table no VNF binds: a table nobody uses is a mistake in the chain. */
    void checkUsed()
    {
        for (final Declared d : declared.values())
        {
            if (!firstRole.containsKey(d.spec().name()))
            {
                errors.add(d.at(), "no VNF uses shared table '" + d.spec().name() + "'",
                    "bind it with 'shared: { <role>: " + d.spec().name() + " }' on the VNFs that use it, or remove it");
            }
        }
    }

    /**
     * @return the declared tables in Redis, by the name they print as ({@code chain.<table>}), each
     *         with the node of its {@code store:}: where an unreachable server is reported.
     */
    Map<String, YamlNode> inRedis()
    {
        final Map<String, YamlNode> out = new LinkedHashMap<>();
        for (final Declared d : declared.values())
        {
            if (d.spec().store() == StoreKind.REDIS)
            {
                out.put(TableCatalog.SHARED_OWNER + "." + d.spec().name(), d.storeAt());
            }
        }
        return out;
    }

    /** @return the declared tables, in file order. */
    List<SharedTableSpec> tables()
    {
        final List<SharedTableSpec> out = new ArrayList<>();
        for (final Declared d : declared.values())
        {
            out.add(d.spec());
        }
        return out;
    }

    private static KeyKind keyKind(final String text)
    {
        for (final KeyKind kind : KeyKind.values())
        {
            if (kind.name().toLowerCase(Locale.ROOT).equals(text))
            {
                return kind;
            }
        }
        return null;
    }

    private static List<String> keyKinds()
    {
        final List<String> names = new ArrayList<>();
        for (final KeyKind kind : KeyKind.values())
        {
            names.add(kind.name().toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
