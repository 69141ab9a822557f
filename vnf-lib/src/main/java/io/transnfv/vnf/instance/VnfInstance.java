package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One VNF of a chain after setup: its name and type, and the ids it declared, with their
 * names for reports. Construction calls {@link Vnf#setup(VnfSetup)}, then adds the drop
 * reasons every instance has: {@value #VNF_ERROR}, a packet on which the VNF's code threw, and
 * {@value #STATE_FULL}, a packet whose transaction would have added an entry to a full table.
 */
public final class VnfInstance
{
    /** The drop reason of a packet on which the VNF's code threw (see {@link #vnfErrorReason()}). */
    public static final String VNF_ERROR = "vnf-error";
    /** The drop reason of a packet refused a new entry in a full table (see {@link #stateFullReason()}). */
    public static final String STATE_FULL = "state-full";
    /** The prefix of the alert type a state checker's violations are raised as. */
    public static final String CHECKER_ALERT_PREFIX = "checker:";
    /** Why a shared table refuses every consistency hint but {@code serializable}. */
    public static final String SHARED_HINTS = "it is shared by several VNFs of the chain, whose accesses the engine orders as the oracle does";
    private static final Pattern CHECKER_NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    private final String name;
    private final String type;
    private final Vnf vnf;
    private final List<String> outputs = new ArrayList<>();
    private final List<String> dropReasons = new ArrayList<>();
    private final List<String> alertTypes = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();
    private final List<Integer> tables = new ArrayList<>();
    private final List<TableSpec> roles = new ArrayList<>();
    private final List<Integer> sharedTables = new ArrayList<>();
    private final Map<String, VnfCounter> counters = new LinkedHashMap<>();
    private final List<Checker> checkers = new ArrayList<>();
    private long expiryIntervalNs;
    private final int vnfErrorReason;
    private final int stateFullReason;

    /**
     * @param name    the instance's name in the chain.
     * @param type    its VNF type.
     * @param vnf     the VNF, not yet set up.
     * @param catalog where its tables are registered.
     */
    public VnfInstance(final String name, final String type, final Vnf vnf, final TableCatalog catalog)
    {
        this(name, type, vnf, catalog, Set.of());
    }

    /**
     * @param name        the instance's name in the chain.
     * @param type        its VNF type.
     * @param vnf         the VNF, not yet set up.
     * @param catalog     where its tables are registered.
     * @param commutative its tables the chain sets {@code consistency: commutative} on, by name.
     * @throws IllegalArgumentException if one of them is not a table of the VNF or its VNF cannot
     *                                  honour the hint ({@link TableSpec#notCommutative()}).
     */
    public VnfInstance(final String name, final String type, final Vnf vnf, final TableCatalog catalog, final Set<String> commutative)
    {
        this(name, type, vnf, catalog, commutative, Set.of(), Set.of());
    }

    /**
     * @param name          the instance's name in the chain.
     * @param type          its VNF type.
     * @param vnf           the VNF, not yet set up.
     * @param catalog       where its tables are registered.
     * @param commutative   its tables the chain sets {@code consistency: commutative} on, by name.
     * @param fireAndForget its tables the chain sets {@code consistency: fire-and-forget} on, by name.
     * @param staleReads    its tables the chain sets {@code consistency: {stale-reads: <bound>}} on, by name.
     * @throws IllegalArgumentException if one of them is not a table of the VNF, its VNF cannot
     *                                  honour the hint ({@link TableSpec#notCommutative()},
     *                                  {@link TableSpec#notForgettable()}, {@link TableSpec#notStaleReadable()})
     *                                  or a table has two hints.
     */
    public VnfInstance(
        final String name, final String type, final Vnf vnf, final TableCatalog catalog, final Set<String> commutative,
        final Set<String> fireAndForget, final Set<String> staleReads)
    {
        this(name, type, vnf, catalog, commutative, fireAndForget, staleReads, Map.of());
    }

    /**
     * @param name          the instance's name in the chain.
     * @param type          its VNF type.
     * @param vnf           the VNF, not yet set up.
     * @param catalog       where its tables are registered; a shared table is registered once,
     *                      owned by {@value TableCatalog#SHARED_OWNER}, by the first instance bound to it.
     * @param commutative   its tables the chain sets {@code consistency: commutative} on, by name.
     * @param fireAndForget its tables the chain sets {@code consistency: fire-and-forget} on, by name.
     * @param staleReads    its tables the chain sets {@code consistency: {stale-reads: <bound>}} on, by name.
     * @param shared        the chain's shared table bound to each of its roles ({@link VnfSetup#sharedTable}), by role.
     * @throws IllegalArgumentException as above, or if a role bound is not one the VNF declares, or
     *                                  a shared table is bound to roles that do not agree on its
     *                                  key kind, initial value or type.
     */
    public VnfInstance(
        final String name, final String type, final Vnf vnf, final TableCatalog catalog, final Set<String> commutative,
        final Set<String> fireAndForget, final Set<String> staleReads, final Map<String, String> shared)
    {
        this.name = name;
        this.type = type;
        this.vnf = vnf;
        outputs.add(VnfSetup.DEFAULT_OUTPUT);
        dropReasons.add("none");
        final Setup setup = new Setup(catalog, commutative, fireAndForget, staleReads, shared);
        vnf.setup(setup);
        for (final String role : shared.keySet())
        {
            if (roles.stream().noneMatch(r -> r.name().equals(role)))
            {
                throw new IllegalArgumentException("VNF '" + name + "' has no shared table role '" + role + "'; its roles are "
                    + roles.stream().map(TableSpec::name).toList());
            }
        }
        for (final String table : staleReads)
        {
            final int id = catalog.find(name, table);
            if (id < 0)
            {
                throw new IllegalArgumentException("VNF '" + name + "' has no table '" + table + "'");
            }
            if (!catalog.spec(id).honoursStaleReads())
            {
                throw new IllegalArgumentException("table '" + table + "' of VNF '" + name + "' cannot have stale reads: "
                    + catalog.spec(id).notStaleReadable());
            }
            if (commutative.contains(table) || fireAndForget.contains(table))
            {
                throw new IllegalArgumentException("table '" + table + "' of VNF '" + name + "' has two consistency hints");
            }
        }
        for (final String table : fireAndForget)
        {
            final int id = catalog.find(name, table);
            if (id < 0)
            {
                throw new IllegalArgumentException("VNF '" + name + "' has no table '" + table + "'");
            }
            if (!catalog.spec(id).honoursFireAndForget())
            {
                throw new IllegalArgumentException("table '" + table + "' of VNF '" + name + "' cannot be fire-and-forget: "
                    + catalog.spec(id).notForgettable());
            }
            if (commutative.contains(table))
            {
                throw new IllegalArgumentException("table '" + table + "' of VNF '" + name + "' cannot be both commutative and fire-and-forget");
            }
        }
        for (final String table : commutative)
        {
            final int id = catalog.find(name, table);
            if (id < 0)
            {
                throw new IllegalArgumentException("VNF '" + name + "' has no table '" + table + "'");
            }
            if (!catalog.spec(id).honoursCommutative())
            {
                throw new IllegalArgumentException("table '" + table + "' of VNF '" + name + "' cannot be commutative: "
                    + catalog.spec(id).notCommutative());
            }
        }
        vnfErrorReason = setup.dropReason(VNF_ERROR);
        stateFullReason = setup.dropReason(STATE_FULL);
    }

    /** @return the id of the drop reason {@value #STATE_FULL}, declared after {@value #VNF_ERROR}. */
    public int stateFullReason()
    {
        return stateFullReason;
    }

    /** @return the id of the drop reason {@value #VNF_ERROR}, declared after the VNF's own. */
    public int vnfErrorReason()
    {
        return vnfErrorReason;
    }

    /** @return the instance's name. */
    public String name()
    {
        return name;
    }

    /** @return its VNF type. */
    public String type()
    {
        return type;
    }

    /** @return the VNF. */
    public Vnf vnf()
    {
        return vnf;
    }

    /** @return output names by id (0 is {@value VnfSetup#DEFAULT_OUTPUT}). */
    public List<String> outputs()
    {
        return Collections.unmodifiableList(outputs);
    }

    /** @return the id of a declared output, or -1. */
    public int outputId(final String output)
    {
        return outputs.indexOf(output);
    }

    /** @return drop reason names by id (0 is unused). */
    public List<String> dropReasons()
    {
        return Collections.unmodifiableList(dropReasons);
    }

    /** @return alert type names by id. */
    public List<String> alertTypes()
    {
        return Collections.unmodifiableList(alertTypes);
    }

    /**
     * Declares an alert type a chain's table trigger raises on this VNF's packets, after setup.
     *
     * @return its id: the VNF's own alert type of that name if it declared one, else a new one.
     */
    public int triggerAlert(final String alert)
    {
        if (alert == null || alert.isBlank())
        {
            throw new IllegalArgumentException(name + ": alert names must not be blank");
        }
        final int existing = alertTypes.indexOf(alert);
        if (existing >= 0)
        {
            return existing;
        }
        alertTypes.add(alert);
        return alertTypes.size() - 1;
    }

    /** @return the state checkers it declared, in declaration order. */
    public List<Checker> checkers()
    {
        return Collections.unmodifiableList(checkers);
    }

    /**
     * A state checker as declared: its name, what it checks, and the check.
     *
     * @param name        unique in the VNF, lower-case words joined by {@code -}.
     * @param description what must hold.
     * @param check       the check.
     */
    public record Checker(String name, String description, StateChecker check)
    {
    }

    /** @return tag names by id. */
    public List<String> tags()
    {
        return Collections.unmodifiableList(tags);
    }

    /** @return the global ids of the tables it declared. */
    public List<Integer> tables()
    {
        return Collections.unmodifiableList(tables);
    }

    /** @return the shared table roles it declared ({@link VnfSetup#sharedTable}), bound or not, in declaration order. */
    public List<TableSpec> roles()
    {
        return Collections.unmodifiableList(roles);
    }

    /** @return the global ids of the chain's shared tables bound to its roles, in declaration order. */
    public List<Integer> sharedTables()
    {
        return Collections.unmodifiableList(sharedTables);
    }

    /**
     * @return why {@code role} cannot be bound to a shared table declared as {@code table}, or null
     *         if it can: the role and the table must agree on the key kind, and every role bound to
     *         one table on its initial value and type (the first bound gives them).
     */
    public static String mismatch(final TableSpec role, final TableSpec table)
    {
        if (role.keyKind() != table.keyKind())
        {
            return "its keys are " + role.keyKind().name().toLowerCase(java.util.Locale.ROOT) + " keys, the table's are "
                + table.keyKind().name().toLowerCase(java.util.Locale.ROOT) + " keys";
        }
        if (role.type() != table.type() || role.initialValue() != table.initialValue() || role.ringCapacity() != table.ringCapacity()
            || !role.fields().equals(table.fields()) || !java.util.Objects.equals(role.packed(), table.packed()))
        {
            return "it holds " + role.typeText() + " values with initial value " + role.initialValue() + ", the table "
                + table.typeText() + " values with initial value " + table.initialValue();
        }
        return null;
    }

    /** @return its counters by full name. */
    public Map<String, VnfCounter> counters()
    {
        return Collections.unmodifiableMap(counters);
    }

    /** @return the period of its {@code expire} calls in packet time, 0 for never. */
    public long expiryIntervalNs()
    {
        return expiryIntervalNs;
    }

    private final class Setup implements VnfSetup
    {
        private final TableCatalog catalog;
        private final Set<String> commutative;
        private final Set<String> fireAndForget;
        private final Set<String> staleReads;

        private final Map<String, String> shared;

        Setup(final TableCatalog catalog, final Set<String> commutative, final Set<String> fireAndForget, final Set<String> staleReads,
            final Map<String, String> shared)
        {
            this.catalog = catalog;
            this.shared = shared;
            this.commutative = commutative;
            this.fireAndForget = fireAndForget;
            this.staleReads = staleReads;
        }

        @Override
        public boolean staleReads(final int table)
        {
            final TableSpec spec = catalog.spec(table);
            return spec.honoursStaleReads() && staleReads.contains(spec.name()) && name.equals(catalog.owner(table));
        }

        @Override
        public boolean fireAndForget(final int table)
        {
            final TableSpec spec = catalog.spec(table);
            return spec.honoursFireAndForget() && fireAndForget.contains(spec.name()) && name.equals(catalog.owner(table));
        }

        @Override
        public boolean commutative(final int table)
        {
            final TableSpec spec = catalog.spec(table);
            return spec.honoursCommutative() && commutative.contains(spec.name()) && name.equals(catalog.owner(table));
        }

        @Override
        public String instanceName()
        {
            return name;
        }

        @Override
        public int table(final TableSpec spec)
        {
            final int id = catalog.add(name, spec);
            tables.add(id);
            return id;
        }

        @Override
        public int sharedTable(final TableSpec role)
        {
            if (roles.stream().anyMatch(r -> r.name().equals(role.name())))
            {
                throw new IllegalArgumentException(name + " declares shared table role '" + role.name() + "' twice");
            }
            roles.add(role);
            final String bound = shared.get(role.name());
            if (bound == null)
            {
                return -1;
            }
            int id = catalog.find(TableCatalog.SHARED_OWNER, bound);
            if (id < 0)
            {
                // no owner, so no expiry by time, and serializable: every hint refused
                id = catalog.add(TableCatalog.SHARED_OWNER, new TableSpec(bound, TableScope.CROSS_FLOW, role.keyKind(), role.initialValue(),
                    role.description(), null, SHARED_HINTS, SHARED_HINTS, SHARED_HINTS, role.type(), role.ringCapacity(), role.fields(),
                    role.packed()));
            }
            else
            {
                final String why = mismatch(role, catalog.spec(id));
                if (why != null)
                {
                    throw new IllegalArgumentException("role '" + role.name() + "' of VNF '" + name + "' cannot be bound to shared table '"
                        + bound + "': " + why);
                }
            }
            sharedTables.add(id);
            return id;
        }

        @Override
        public int output(final String output)
        {
            return idOf(outputs, output);
        }

        @Override
        public int dropReason(final String reason)
        {
            return idOf(dropReasons, reason);
        }

        @Override
        public int alertType(final String alert)
        {
            return idOf(alertTypes, alert);
        }

        @Override
        public int tag(final String tag)
        {
            return idOf(tags, tag);
        }

        @Override
        public VnfCounter counter(final String counter)
        {
            return counters.computeIfAbsent(name + "." + counter, VnfCounter::new);
        }

        @Override
        public void expiryIntervalNs(final long intervalNs)
        {
            if (intervalNs < 0)
            {
                throw new IllegalArgumentException("expiry interval must be >= 0: " + intervalNs);
            }
            expiryIntervalNs = intervalNs;
        }

        @Override
        public void checker(final String checker, final String description, final StateChecker check)
        {
            if (checker == null || !CHECKER_NAME.matcher(checker).matches())
            {
                throw new IllegalArgumentException(name + ": checker name '" + checker
                    + "' must be lower-case words joined by '-', e.g. port-owned-by-its-mapping");
            }
            if (check == null)
            {
                throw new IllegalArgumentException(name + ": checker '" + checker + "' has no check");
            }
            for (final Checker declared : checkers)
            {
                if (declared.name().equals(checker))
                {
                    throw new IllegalArgumentException(name + ": checker '" + checker + "' is declared twice");
                }
            }
            checkers.add(new Checker(checker, description == null ? "" : description, check));
        }

        private int idOf(final List<String> names, final String value)
        {
            if (value == null || value.isBlank())
            {
                throw new IllegalArgumentException(name + ": names must not be blank");
            }
            final int existing = names.indexOf(value);
            if (existing >= 0)
            {
                return existing;
            }
            names.add(value);
            return names.size() - 1;
        }
    }
}
