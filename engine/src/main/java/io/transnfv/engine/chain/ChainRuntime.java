package io.transnfv.engine.chain;

import io.transnfv.engine.ingress.CheckGroups;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.builtin.tenant.TenantClassifierFactory;
import io.transnfv.vnf.builtin.tenant.TenantMatch;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chain ready to run: fresh VNF instances set up on their own table catalogue, the
 * fragment tracker that runs before the entry VNF (its tables in the same catalogue, owned by
 * {@value #FRAGMENTS_OWNER}), the tables the chain shares between VNFs (owned by
 * {@value TableCatalog#SHARED_OWNER}, with the fused segment of stages that touch them), and the
 * DAG compiled into arrays for routing without look-ups. Every executor builds its own
 * runtime from the same {@link ChainSpec}, so executors never share state. Immutable after
 * construction; {@link #route} may be called from any thread.
 */
public final class ChainRuntime
{
    /** {@link #route} result for a packet that leaves the chain. */
    public static final int EGRESS = -1;
    /** The owner name of the fragment tracker's tables and counters. */
    public static final String FRAGMENTS_OWNER = "ingress";

    private final ChainSpec spec;
    private final TableCatalog catalog = new TableCatalog();
    private final VnfInstance[] instances;
    private final int[][] edgeOutput;
    private final PacketPredicate[][] edgePredicate;
    private final int[][] edgeTarget;
    private final int[] topologicalOrder;
    private final int[] stageOf;
    private final long expiryIntervalNs;
    private final FragmentTracker tracker;
    private final VnfInstance fragments;
    /** The state checkers the chain runs, in the VNFs' order, and the VNF of each. */
    private final VnfInstance.Checker[] checkers;
    private final int[] checkerVnf;
    /** Every violated checker so far, by VNF and name, in the order first found. */
    private final Map<String, Tally> checkerTallies = new LinkedHashMap<>();
    private long checks;
    /** The tables' capacities and the checks that keep them. */
    private final TableCapacities capacities;
    /** The tables' triggers. */
    private final TableTriggers triggers;
    /** Per table, the store its committed state lives in. */
    private final StoreKind[] storeKinds;
    /** The tenants' matches, in the classifier's order (empty for a chain without tenants), and the default tenant. */
    private final List<TenantMatch> tenantMatches;
    private final int defaultTenant;
    /** A chain of tenants: their names, each one's limiter (instance), and the tenant of each instance and table (-1: none). */
    private final List<String> tenantNames;
    private final int[] tenantLimiter;
    private final int[] tenantOfInstance;
    private final int[] tenantOfTable;
    /** The stages that touch a shared table, first to last, run fused; -1 for none. */
    private final int fusedFirstStage;
    private final int fusedLastStage;

    /**
     * @param spec a validated chain.
     * @throws IllegalArgumentException if an edge names an unknown VNF or output, or the
     *                                  graph has a cycle.
     */
    public ChainRuntime(final ChainSpec spec)
    {
        this.spec = spec;
        final List<VnfNode> nodes = spec.vnfs();
        final int n = nodes.size();
        instances = new VnfInstance[n];
        final Map<String, Integer> index = new HashMap<>();
        final Map<Integer, Long> given = new HashMap<>();
        final Map<Integer, StoreKind> sharedStores = new HashMap<>();
        final List<Integer> evicting = new ArrayList<>();
        final Map<Integer, Long> triggerAbove = new HashMap<>();
        final Map<Integer, Integer> triggerAlert = new HashMap<>();
        long interval = 0;
        for (int i = 0; i < n; i++)
        {
            final VnfNode node = nodes.get(i);
            if (index.put(node.name(), i) != null)
            {
                throw new IllegalArgumentException("duplicate VNF name '" + node.name() + "'");
            }
            final Vnf vnf = node.create();
            if (!spec.sharedTables().isEmpty() && TableCatalog.SHARED_OWNER.equals(node.name()))
            {
                throw new IllegalArgumentException("VNF name '" + node.name() + "' is the owner name of the chain's shared tables");
            }
            instances[i] = new VnfInstance(node.name(), node.type(), vnf, catalog, node.commutative(), node.fireAndForget(),
                node.staleReads().keySet(), node.shared());
            for (final Map.Entry<String, TableSettings> named : node.tables().entrySet())
            {
                final int table = catalog.find(node.name(), named.getKey());
                if (table < 0)
                {
                    throw new IllegalArgumentException("VNF '" + node.name() + "' has no table '" + named.getKey() + "'");
                }
                catalog.expectEntries(table, named.getValue().expectedEntries());
                given.put(table, named.getValue().capacity());
                final TableSettings.Trigger trigger = named.getValue().trigger();
                if (trigger != null)
                {
                    triggerAbove.put(table, trigger.above());
                    triggerAlert.put(table, instances[i].triggerAlert(trigger.alert()));
                }
                if (named.getValue().evict())
                {
                    if (!vnf.evicts(table))
                    {
                        throw new IllegalArgumentException("VNF '" + node.name() + "' cannot evict from table '" + named.getKey() + "'");
                    }
                    evicting.add(table);
                }
            }
            final long own = instances[i].expiryIntervalNs();
            if (own > 0)
            {
                // ticks on every multiple of every VNF's own period: each VNF keeps its own ticks
                interval = interval == 0 ? own : gcd(interval, own);
            }
        }
        expiryIntervalNs = interval;
        for (final SharedTableSpec shared : spec.sharedTables())
        {
            final int table = catalog.find(TableCatalog.SHARED_OWNER, shared.name());
            if (table < 0)
            {
                throw new IllegalArgumentException("no VNF binds shared table '" + shared.name() + "'");
            }
            if (catalog.spec(table).keyKind() != shared.keyKind())
            {
                throw new IllegalArgumentException("shared table '" + shared.name() + "' has " + shared.keyKind() + " keys, but its VNFs use "
                    + catalog.spec(table).keyKind() + " keys");
            }
            catalog.expectEntries(table, shared.expectedEntries());
            given.put(table, shared.capacity());
            sharedStores.put(table, shared.store());
        }
        final CheckerSettings checkerSettings = spec.settings().checkers();
        final List<VnfInstance.Checker> enabled = new ArrayList<>();
        final List<Integer> enabledVnf = new ArrayList<>();
        final List<String> known = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            known.add(instances[i].name());
            for (final VnfInstance.Checker checker : instances[i].checkers())
            {
                known.add(instances[i].name() + "." + checker.name());
                if (checkerSettings.selects(instances[i].name(), checker.name()))
                {
                    enabled.add(checker);
                    enabledVnf.add(i);
                }
            }
        }
        if (checkerSettings.enabled() != null)
        {
            for (final String name : checkerSettings.enabled())
            {
                if (!known.contains(name))
                {
                    throw new IllegalArgumentException("no checker or VNF named '" + name + "'; the chain's checkers are "
                        + known.stream().filter(k -> k.indexOf('.') > 0).toList());
                }
            }
        }
        checkers = enabled.toArray(new VnfInstance.Checker[0]);
        checkerVnf = enabledVnf.stream().mapToInt(Integer::intValue).toArray();
        final FragmentSettings fragmentSettings = spec.settings().fragments();
        tracker = new FragmentTracker(fragmentSettings.timeoutNs(), fragmentSettings.maxHeld());
        fragments = new VnfInstance(FRAGMENTS_OWNER, "fragments", tracker, catalog);
        // each table's VNF (-1: a shared table's, in the store it names, or the fragment tracker's, whose few entries are always in
        // the heap)
        final int[] ownerOf = new int[catalog.size()];
        storeKinds = new StoreKind[catalog.size()];
        final long[] above = new long[catalog.size()];
        final int[] alert = new int[catalog.size()];
        for (int t = 0; t < ownerOf.length; t++)
        {
            final Integer vnf = index.get(catalog.owner(t));
            ownerOf[t] = vnf == null ? -1 : vnf;
            storeKinds[t] = vnf == null ? sharedStores.getOrDefault(t, StoreKind.HEAP)
                : nodes.get(vnf).stores().getOrDefault(catalog.spec(t).name(), spec.settings().stores().defaultKind());
            above[t] = triggerAbove.getOrDefault(t, 0L);
            alert[t] = triggerAlert.getOrDefault(t, -1);
        }
        // a chain of tenants: each tenant's tables are a check group of their own (its limiter and its VNFs')
        tenantOfTable = new int[catalog.size()];
        Arrays.fill(tenantOfTable, -1);
        tenantOfInstance = new int[n];
        Arrays.fill(tenantOfInstance, -1);
        if (n > 0 && nodes.get(0).factory() instanceof TenantClassifierFactory classifier)
        {
            tenantMatches = classifier.matches();
            defaultTenant = classifier.defaultTenant();
            tenantNames = classifier.tenants();
            tenantLimiter = new int[tenantNames.size()];
            for (int tenant = 0; tenant < tenantNames.size(); tenant++)
            {
                final List<String> members = classifier.members().get(tenant);
                tenantLimiter[tenant] = index.get(members.get(0));
                for (final String member : members)
                {
                    tenantOfInstance[index.get(member)] = tenant;
                }
            }
            for (int t = 0; t < ownerOf.length; t++)
            {
                tenantOfTable[t] = ownerOf[t] >= 0 ? tenantOfInstance[ownerOf[t]] : -1;
            }
        }
        else
        {
            tenantMatches = List.of();
            defaultTenant = -1;
            tenantNames = List.of();
            tenantLimiter = new int[0];
        }
        capacities = new TableCapacities(catalog, given, evicting, instances, ownerOf, storeKinds, Runtime.getRuntime().maxMemory(),
            tenantOfTable, tenantMatches.size());
        triggers = new TableTriggers(catalog.size(), n, above, alert, ownerOf);
        final List<List<int[]>> edges = new ArrayList<>();
        final List<List<PacketPredicate>> predicates = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            edges.add(new ArrayList<>());
            predicates.add(new ArrayList<>());
        }
        for (final EdgeSpec edge : spec.edges())
        {
            final Integer from = index.get(edge.from());
            final Integer to = index.get(edge.to());
            if (from == null || to == null)
            {
                throw new IllegalArgumentException("edge " + edge.from() + " -> " + edge.to() + " names an unknown VNF");
            }
            final int output = instances[from].outputId(edge.output());
            if (output < 0)
            {
                throw new IllegalArgumentException("VNF '" + edge.from() + "' has no output '" + edge.output()
                    + "'; its outputs are " + instances[from].outputs());
            }
            edges.get(from).add(new int[] {output, to});
            predicates.get(from).add(edge.when());
        }
        edgeOutput = new int[n][];
        edgeTarget = new int[n][];
        edgePredicate = new PacketPredicate[n][];
        for (int i = 0; i < n; i++)
        {
            final List<int[]> own = edges.get(i);
            edgeOutput[i] = new int[own.size()];
            edgeTarget[i] = new int[own.size()];
            edgePredicate[i] = predicates.get(i).toArray(new PacketPredicate[0]);
            for (int e = 0; e < own.size(); e++)
            {
                edgeOutput[i][e] = own.get(e)[0];
                edgeTarget[i][e] = own.get(e)[1];
            }
        }
        topologicalOrder = topologicalOrder(n);
        stageOf = new int[n];
        int first = -1;
        int last = -1;
        for (int s = 0; s < n; s++)
        {
            stageOf[topologicalOrder[s]] = s;
            if (!instances[topologicalOrder[s]].sharedTables().isEmpty())
            {
                first = first < 0 ? s : first;
                last = s;
            }
        }
        fusedFirstStage = first;
        fusedLastStage = last;
    }

    /**
     * @return the first stage (position in {@link #topologicalOrder()}) of the fused segment: the
     *         stages from the first to the last VNF bound to a shared table, which the engine runs
     *         packet by packet as the oracle does; -1 if the chain shares no table.
     */
    public int fusedFirstStage()
    {
        return fusedFirstStage;
    }

    /** @return the last stage of the fused segment ({@link #fusedFirstStage()}); -1 if the chain shares no table. */
    public int fusedLastStage()
    {
        return fusedLastStage;
    }

    /** @return the store table {@code table}'s committed state lives in. */
    public StoreKind storeKind(final int table)
    {
        return storeKinds[table];
    }

    /** @return the chain this runtime was built from. */
    public ChainSpec spec()
    {
        return spec;
    }

    /** @return every state table of the chain. */
    public TableCatalog catalog()
    {
        return catalog;
    }

    /** @return the number of VNFs. */
    public int size()
    {
        return instances.length;
    }

    /** @return VNF {@code i} (in declaration order; 0 is the entry). */
    public VnfInstance instance(final int i)
    {
        return instances[i];
    }

    /** @return the VNFs in an order where every edge goes forward (entry first). */
    public int[] topologicalOrder()
    {
        return topologicalOrder.clone();
    }

    /** @return VNF {@code i}'s position in {@link #topologicalOrder()}. */
    public int stageOf(final int i)
    {
        return stageOf[i];
    }

    private static long gcd(final long a, final long b)
    {
        long x = a;
        long y = b;
        while (y != 0)
        {
            final long r = x % y;
            x = y;
            y = r;
        }
        return x;
    }

    /**
     * @return the period of the housekeeping ticks in packet time: the greatest common divisor of
     *         the VNFs' own expiry periods, so that every multiple of each falls on a tick; 0 if no
     *         VNF asked for expiry.
     */
    public long expiryIntervalNs()
    {
        return expiryIntervalNs;
    }

    /**
     * @return the period of housekeeping ticks for executors that track fragments: the VNFs'
     *         expiry period, or the fragment timeout when no VNF asked for expiry.
     */
    public long tickIntervalNs()
    {
        return expiryIntervalNs > 0 ? expiryIntervalNs : tracker.timeoutNs();
    }

    /** @return the fragment tracker that runs before the entry VNF. */
    public FragmentTracker tracker()
    {
        return tracker;
    }

    /** @return the fragment tracker as an instance: its tables, counters and name. */
    public VnfInstance fragments()
    {
        return fragments;
    }

    /**
     * Where VNF {@code vnf}'s own expiry falls in a tick: the tick {@code tickNs} covers packet
     * time after {@code sinceNs} ({@link ExpiryTicker#sinceNs}); the VNF's housekeeping runs at
     * the last multiple of its own period in that span, if there is one, which is where a chain
     * of that VNF alone would run it (the first packet at or after the multiple). So a VNF's
     * expiry does not depend on the other VNFs' periods (a tenant's on the other tenants').
     *
     * @return the tick to run the VNF's {@code expire} at, or {@link ExpiryTicker#NONE} if none
     *         of its own falls in the span. A VNF with no period of its own runs at every tick.
     */
    public long vnfTickNs(final int vnf, final long tickNs, final long sinceNs)
    {
        final long own = instances[vnf].expiryIntervalNs();
        if (own <= 0)
        {
            return tickNs;
        }
        final long ownTick = Math.floorDiv(tickNs, own) * own;
        return ownTick > sinceNs ? ownTick : ExpiryTicker.NONE;
    }

    /** @return the tenants of a chain of tenants, in the classifier's order; empty for a chain without tenants. */
    public List<String> tenants()
    {
        return tenantNames;
    }

    /** @return tenant {@code tenant}'s limiter, the VNF instance named after it that counts the packets given to it. */
    public int tenantLimiter(final int tenant)
    {
        return tenantLimiter[tenant];
    }

    /** @return the tenant VNF instance {@code i} was compiled for, or -1 (the classifier; a chain without tenants). */
    public int tenantOfInstance(final int i)
    {
        return tenantOfInstance[i];
    }

    /** @return the tenant table {@code t} (catalogue index) belongs to, or -1 (the classifier's; a chain without tenants). */
    public int tenantOfTable(final int t)
    {
        return tenantOfTable[t];
    }

    /**
     * @return a new reader of the packets' check groups ({@link CheckGroups}), for the thread that
     *         reads packets and places ticks with an {@link ExpiryTicker} built with
     *         {@link TableCapacities#checkEveryByGroup()}.
     */
    public CheckGroups checkGroups()
    {
        return new CheckGroups(tenantMatches, defaultTenant);
    }

    /** @return a ticker of this chain's housekeeping period and capacity checks ({@link #tickIntervalNs}). */
    public ExpiryTicker newTicker()
    {
        return new ExpiryTicker(tickIntervalNs(), capacities.checkEveryByGroup());
    }

    /**
     * Housekeeping at tick {@code tickNs}, which covers packet time after {@code sinceNs}
     * ({@link ExpiryTicker#sinceNs}): the expiry of each VNF with a tick of its own in that span
     * ({@link #vnfTickNs}), then the fragment tracker's, then the capacity check; for
     * {@link ExpiryTicker#CHECK}, the capacity check alone. {@code checkGroup}
     * ({@link ExpiryTicker#checkGroup}) names the check group whose own check falls here, and
     * with the tick decides which tables the check judges ({@link TableCapacities#check}). Runs
     * alone, between two transactions. A VNF whose {@code expire} throws stops its housekeeping
     * for this tick and the others go on; the listener hears of it.
     */
    public void expire(final long tickNs, final long sinceNs, final int checkGroup, final StateMaintenance state,
        final ExpiryListener listener)
    {
        if (tickNs == ExpiryTicker.CHECK)
        {
            capacities.check(state, listener, tickNs, sinceNs, checkGroup);
            return;
        }
        if (expiryIntervalNs > 0)
        {
            for (int i = 0; i < instances.length; i++)
            {
                final long own = vnfTickNs(i, tickNs, sinceNs);
                if (own == ExpiryTicker.NONE)
                {
                    continue;
                }
                listener.expiring(i);
                try
                {
                    instances[i].vnf().expire(own, state);
                }
                catch (final Throwable t)
                {
                    listener.expiryFailed(i, t);
                }
            }
        }
        listener.expiring(-1);
        tracker.expire(tickNs, state);
        capacities.check(state, listener, tickNs, sinceNs, checkGroup);
    }

    /**
     * @param runCounters the run's counters at a checkpoint's cut ({@code RunStats.counters()}).
     * @return what a checkpoint keeps as counters: them, then the tables closed to new entries
     *         ({@link TableCapacities#withClosed}), then the VNFs' own counters ({@link VnfCounters}),
     *         so that a resumed run refuses and counts as an uninterrupted one would.
     */
    public long[] checkpointCounters(final long[] runCounters)
    {
        final long[] withClosed = capacities.withClosed(runCounters);
        final long[] vnf = VnfCounters.values(this);
        final long[] out = Arrays.copyOf(withClosed, withClosed.length + vnf.length);
        System.arraycopy(vnf, 0, out, withClosed.length, vnf.length);
        return out;
    }

    /**
     * Takes back what {@link #checkpointCounters} kept: closes the tables closed at the cut and
     * adds the VNFs' counters to this runtime's.
     *
     * @return the run's counters, to add to the run's statistics.
     * @throws IllegalArgumentException if the counters do not fit this chain.
     */
    public long[] restoreCheckpointCounters(final long[] kept)
    {
        final int vnf = VnfCounters.count(this);
        if (kept.length < vnf)
        {
            throw new IllegalArgumentException(kept.length + " counters, fewer than the chain's " + vnf + " VNF counters");
        }
        VnfCounters.add(this, Arrays.copyOfRange(kept, kept.length - vnf, kept.length));
        return capacities.restoreClosed(Arrays.copyOf(kept, kept.length - vnf));
    }

    /** @return the chain's table triggers: run {@link TableTriggers#fire} after each VNF's post-processing. */
    public TableTriggers triggers()
    {
        return triggers;
    }

    /** @return the tables' capacities, the gate that closes full ones, and the checks that keep them. */
    public TableCapacities capacities()
    {
        return capacities;
    }

    /** @return each table's entries in {@code state}, in the catalogue's order (allocates; for reports and progress). */
    public long[] liveEntries(final StateReader state)
    {
        final long[] entries = new long[catalog.size()];
        for (int t = 0; t < entries.length; t++)
        {
            entries[t] = state.size(t);
        }
        return entries;
    }

    /** @return the state checkers the chain runs, each {@code <vnf>.<checker>}, in the VNFs' order. */
    public List<String> checkerNames()
    {
        final List<String> names = new ArrayList<>(checkers.length);
        for (int c = 0; c < checkers.length; c++)
        {
            names.add(instances[checkerVnf[c]].name() + "." + checkers[c].name());
        }
        return names;
    }

    /**
     * Runs the chain's state checkers on committed state at a punctuation during the run, before
     * packet {@code sequence} (after that point's housekeeping). Runs alone: no transaction may be
     * in flight. O(the checked tables); allocates a few objects per check, and per violation.
     */
    public void runCheckers(final StateReader state, final long sequence)
    {
        runCheckers(state, "the check before packet #" + sequence);
    }

    /**
     * @return what the checks so far found (no check is run): the tally a checkpoint carries, so
     *         that a resumed run's report counts the checks before its cut too. Taken at a batch
     *         boundary, when no check runs; by any thread.
     */
    public synchronized CheckerReport checkersSoFar()
    {
        final CheckerSettings settings = spec.settings().checkers();
        return new CheckerReport(checkerNames(), settings.describe(spec.settings().punctuationTransactions()), checks, violations());
    }

    /**
     * Starts the tally from a checkpoint's, before the resumed run's first check.
     *
     * @param carriedChecks     the checks before the checkpoint's cut.
     * @param carriedViolations each checker violated at them: count, first report and keys.
     */
    public synchronized void restoreCheckers(final long carriedChecks, final List<CheckerReport.Violation> carriedViolations)
    {
        checks = carriedChecks;
        checkerTallies.clear();
        for (final CheckerReport.Violation v : carriedViolations)
        {
            final Tally tally = tally(v.vnf(), v.checker(), v.firstSeen());
            tally.count = v.count();
            tally.firstKey = Long.parseUnsignedLong(v.firstKey(), 16);
            tally.firstMessage = v.firstMessage();
            for (final RunReport.AlertSubject key : v.keys())
            {
                tally.keyCounts.put(Long.parseUnsignedLong(key.subject(), 16), key.count());
            }
        }
    }

    /**
     * Runs the chain's state checkers on the final committed state (no transaction may be in
     * flight) and reports what this check and every earlier one ({@link #runCheckers}) found. A
     * check that throws counts as a violation of {@code check-failed}, and the other checkers
     * still run. Allocates; off the hot path.
     */
    public synchronized CheckerReport finalCheck(final StateReader state)
    {
        runCheckers(state, "the end of the run");
        final CheckerSettings settings = spec.settings().checkers();
        return new CheckerReport(checkerNames(), settings.describe(spec.settings().punctuationTransactions()), checks, violations());
    }

    private List<CheckerReport.Violation> violations()
    {
        final List<CheckerReport.Violation> violations = new ArrayList<>(checkerTallies.size());
        for (final Tally t : checkerTallies.values())
        {
            violations.add(new CheckerReport.Violation(t.vnf, t.checker, t.count, Long.toHexString(t.firstKey), t.firstMessage,
                t.firstSeen, t.keys()));
        }
        return violations;
    }

    private synchronized void runCheckers(final StateReader state, final String when)
    {
        checks++;
        for (int c = 0; c < checkers.length; c++)
        {
            final String vnf = instances[checkerVnf[c]].name();
            final VnfInstance.Checker checker = checkers[c];
            final StateChecker.Violations sink = (key, message) -> tally(vnf, checker.name(), when).add(key, String.valueOf(message));
            try
            {
                checker.check().check(state, sink);
            }
            catch (final RuntimeException | AssertionError e)
            {
                tally(vnf, "check-failed", when).add(0L, checker.name() + " threw " + e);
            }
        }
    }

    private Tally tally(final String vnf, final String checker, final String when)
    {
        return checkerTallies.computeIfAbsent(vnf + '\u0000' + checker, k -> new Tally(vnf, checker, when));
    }

    /** One violated checker's count, first report and keys. */
    private static final class Tally
    {
        final String vnf;
        final String checker;
        final String firstSeen;
        final Long2LongHashMap keyCounts = new Long2LongHashMap(4, 0);
        long firstKey;
        String firstMessage;
        long count;

        Tally(final String vnf, final String checker, final String firstSeen)
        {
            this.vnf = vnf;
            this.checker = checker;
            this.firstSeen = firstSeen;
        }

        void add(final long key, final String message)
        {
            if (count++ == 0)
            {
                firstKey = key;
                firstMessage = message;
            }
            final long soFar = keyCounts.get(key);
            if (soFar != 0 || keyCounts.size() < RunStats.MAX_ALERT_SUBJECTS)
            {
                keyCounts.put(key, soFar + 1);
            }
        }

        List<RunReport.AlertSubject> keys()
        {
            final List<long[]> counted = new ArrayList<>();
            keyCounts.forEach((key, n) -> counted.add(new long[] {key, n}));
            counted.sort(Comparator.<long[]>comparingLong(e -> -e[1]).thenComparing((a, b) -> Long.compareUnsigned(a[0], b[0])));
            return counted.stream().map(e -> new RunReport.AlertSubject(Long.toHexString(e[0]), e[1])).toList();
        }
    }

    /** Hears about the VNFs' housekeeping: for fault isolation and for a watchdog's message. */
    public interface ExpiryListener
    {
        /** @param instance the VNF whose {@code expire} runs next, -1 for the fragment tracker. */
        void expiring(int instance);

        /**
         * @param instance the VNF whose {@code expire} threw.
         * @param thrown   what it threw.
         */
        void expiryFailed(int instance, Throwable thrown);
    }

    /**
     * @param from   the VNF the packet leaves.
     * @param output the output it leaves through.
     * @param packet the packet, for edge predicates.
     * @return the next VNF, or {@link #EGRESS}.
     */
    public int route(final int from, final int output, final PacketFlyweight packet)
    {
        final int[] outputs = edgeOutput[from];
        for (int e = 0; e < outputs.length; e++)
        {
            if (outputs[e] == output && edgePredicate[from][e].test(packet))
            {
                return edgeTarget[from][e];
            }
        }
        return EGRESS;
    }

    private int[] topologicalOrder(final int n)
    {
        final int[] inDegree = new int[n];
        for (int i = 0; i < n; i++)
        {
            for (final int t : edgeTarget[i])
            {
                inDegree[t]++;
            }
        }
        final int[] order = new int[n];
        int count = 0;
        final Deque<Integer> ready = new ArrayDeque<>();
        for (int i = 0; i < n; i++)
        {
            if (inDegree[i] == 0)
            {
                ready.add(i);
            }
        }
        while (!ready.isEmpty())
        {
            final int v = ready.poll();
            order[count++] = v;
            for (final int t : edgeTarget[v])
            {
                if (--inDegree[t] == 0)
                {
                    ready.add(t);
                }
            }
        }
        if (count != n)
        {
            throw new IllegalArgumentException("chain '" + spec.name() + "' has a cycle");
        }
        return order;
    }
}
