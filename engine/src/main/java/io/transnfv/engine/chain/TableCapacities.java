package io.transnfv.engine.chain;

import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.tpg.txn.AdmissionGate;
import io.transnfv.vnf.api.ActivityClock;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How much each table of a chain may hold, and the capacity checks that keep it there (see
 * {@code docs/design/expiry.md}, "Capacity checks"). A table has a capacity of its own (the
 * chain's {@code capacity:}), shares one derived from the heap with the other tables without
 * one, or has none (tables keyed by an index, bounded by their VNF's configuration, and the
 * fragment tracker's). A check counts each bounded table's entries, evicts from a full table
 * that asks for it ({@code when_full: evict}), and closes every full table to new entries in
 * the {@link AdmissionGate} until a later check finds it under: a write that would add an entry
 * to a closed table aborts its transaction (an ADD: one to a key absent at the check, see
 * {@link AdmissionGate#admitsAdd}). Checks run between two transactions of the serial
 * order, at the same packets on every executor, so every executor refuses and evicts the same.
 *
 * <p>Which tables a check judges: in a chain without tenants, all of them at every check. In a
 * chain of tenants, each tenant's tables are a check group of their own ({@link CheckGroups}):
 * they are judged at the checks their tenant's own packets place (every
 * {@link #checkEveryPackets(int)} of them, from the tenant's tables alone), and at a housekeeping
 * tick only the tables of a VNF whose own expiry period falls in it; so where a tenant's table
 * closes does not depend on the other tenants' traffic or periods. Tables no tenant owns are
 * judged at every check.
 *
 * <pre>
 *  check:  entries per bounded table ──► evict (when_full: evict) down to 7/8 of the capacity
 *                                    └─► gate: closed = entries >= capacity (shared: their sum)
 * </pre>
 *
 * <p>One per runtime; checked by the thread that runs housekeeping, between batches.
 */
public final class TableCapacities
{
    /**
     * Bytes one entry may take at its peak, for the shared capacity: the engine's slot and mark
     * at the load limit, the expiry index, and both arrays while a table doubles.
     */
    public static final long BYTES_PER_ENTRY = 128;
    /** The smallest shared capacity, however small the heap. */
    public static final long MIN_SHARED_CAPACITY = 1L << 16;
    /** {@link #capacity} of a table that shares the default capacity with the others without their own. */
    public static final long SHARED = -1;
    /** {@link #capacity} of a table without a bound. */
    public static final long UNBOUNDED = Long.MAX_VALUE;
    /** A table that evicts when full keeps 1 - 1/this of its capacity, so it does not evict at every check. */
    static final long EVICT_SLACK = 8;
    /** Bounds of the packets between two capacity checks. */
    static final long MIN_CHECK_EVERY = 1024;
    static final long MAX_CHECK_EVERY = 1L << 20;

    private final TableCatalog catalog;
    private final VnfInstance[] instances;
    private final long[] capacities;
    private final long sharedCapacity;
    private final AdmissionGate admission;
    private final boolean[] evicts;
    private final int[] owner;
    /** Per table, its tenant (check group), -1 if no tenant owns it; all -1 in a chain without tenants. */
    private final int[] tenantOf;
    private final boolean tenants;
    private final long[] evicted;
    /** Per check group, packets of the group between two of its checks. */
    private final long[] checkEvery;
    /** Activity times of a table's entries, for the eviction cutoff; grows to the largest table evicted from. */
    private long[] activity = new long[0];
    private long checks;

    /**
     * @param catalog      every table of the chain, the fragment tracker's included.
     * @param given        capacities the chain gives, by table id (0 or absent: none of its own).
     * @param evicting     tables that evict when full; each has a capacity of its own and a VNF
     *                     that {@link io.transnfv.vnf.api.Vnf#evicts evicts} from it.
     * @param instances    the chain's VNFs, whose names own the tables.
     * @param ownerOf      each table's VNF (index into {@code instances}), -1 for the fragment tracker's.
     * @param stores       each table's store: only heap tables share the heap-derived capacity.
     * @param maxHeapBytes the heap's limit, for the shared capacity.
     * @param tenantOf     each table's tenant, -1 for none; null for a chain without tenants.
     * @param tenantCount  the chain's tenants (check groups), 0 for a chain without tenants.
     */
    TableCapacities(final TableCatalog catalog, final Map<Integer, Long> given, final List<Integer> evicting, final VnfInstance[] instances,
        final int[] ownerOf, final StoreKind[] stores, final long maxHeapBytes, final int[] tenantOf, final int tenantCount)
    {
        this.catalog = catalog;
        this.instances = instances;
        final int n = catalog.size();
        capacities = capacities(catalog, given, stores);
        sharedCapacity = sharedCapacity(maxHeapBytes);
        evicts = new boolean[n];
        owner = ownerOf.clone();
        evicted = new long[n];
        final long[] initial = new long[n];
        tenants = tenantCount > 0;
        this.tenantOf = new int[n];
        Arrays.fill(this.tenantOf, -1);
        if (tenants)
        {
            System.arraycopy(tenantOf, 0, this.tenantOf, 0, n);
        }
        // per check group (a tenant; the whole chain's one without tenants): its smallest capacity and bounded tables
        final int groups = Math.max(1, tenantCount);
        final long[] smallest = new long[groups];
        final int[] bounded = new int[groups];
        Arrays.fill(smallest, sharedCapacity);
        for (int t = 0; t < n; t++)
        {
            initial[t] = catalog.spec(t).initialValue();
            final int group = tenants ? this.tenantOf[t] : 0;
            if (capacities[t] != UNBOUNDED && group >= 0)
            {
                bounded[group]++;
                if (capacities[t] != SHARED)
                {
                    smallest[group] = Math.min(smallest[group], capacities[t]);
                }
            }
        }
        for (final int t : evicting)
        {
            if (capacities[t] == SHARED || capacities[t] == UNBOUNDED || owner[t] < 0)
            {
                throw new IllegalArgumentException("table " + catalog.qualifiedName(t) + " evicts when full but has no capacity of its own");
            }
            evicts[t] = true;
        }
        admission = new AdmissionGate(initial);
        checkEvery = new long[groups];
        for (int g = 0; g < groups; g++)
        {
            checkEvery[g] = Math.max(MIN_CHECK_EVERY, Math.min(MAX_CHECK_EVERY, smallest[g] / 8 / Math.max(1, bounded[g])));
        }
    }

    /**
     * Each table's capacity: the chain's where it gives one, else {@link #SHARED}; tables keyed
     * by an index ({@link KeyKind#INDEX}: servers, ports, counters) are bounded by their VNF's
     * configuration, the fragment tracker's by {@code max_held}, and tables in an off-heap store
     * (Chronicle Map, Redis) by their store, not by the heap: {@link #UNBOUNDED} unless the chain
     * gives one.
     */
    static long[] capacities(final TableCatalog catalog, final Map<Integer, Long> given, final StoreKind[] stores)
    {
        final long[] out = new long[catalog.size()];
        for (int t = 0; t < out.length; t++)
        {
            final long own = given.getOrDefault(t, 0L);
            out[t] = own > 0 ? own
                : ChainRuntime.FRAGMENTS_OWNER.equals(catalog.owner(t)) || catalog.spec(t).keyKind() == KeyKind.INDEX
                    || stores[t] != StoreKind.HEAP ? UNBOUNDED : SHARED;
        }
        return out;
    }

    /**
     * @param maxHeapBytes the heap's limit ({@code -Xmx}).
     * @return the entries the tables without a capacity of their own may hold together: a quarter
     *         of the heap at {@link #BYTES_PER_ENTRY} each, at least {@link #MIN_SHARED_CAPACITY}.
     */
    public static long sharedCapacity(final long maxHeapBytes)
    {
        return Math.max(MIN_SHARED_CAPACITY, maxHeapBytes / 4 / BYTES_PER_ENTRY);
    }

    /**
     * @return the entries {@code table} may hold before it refuses new ones: its own capacity,
     *         {@link #SHARED} if it shares {@link #sharedCapacity()} with the other tables without
     *         one, or {@link #UNBOUNDED}.
     */
    public long capacity(final int table)
    {
        return capacities[table];
    }

    /** @return the entries the tables without a capacity of their own may hold together. */
    public long sharedCapacity()
    {
        return sharedCapacity;
    }

    /** @return the tables closed to new entries: give it to every operation executor of the runtime. */
    public AdmissionGate admission()
    {
        return admission;
    }

    /**
     * @param group a check group: 0 in a chain without tenants, else a tenant's index.
     * @return packets of the group between two of its capacity checks: an eighth of the smallest
     *         capacity among the group's tables (the shared capacity at most) divided by the number
     *         of its bounded tables (a packet may add an entry to each), within
     *         [{@value #MIN_CHECK_EVERY}, {@value #MAX_CHECK_EVERY}]. A table holds at most its
     *         capacity plus what the transactions of that many of its group's packets insert.
     */
    public long checkEveryPackets(final int group)
    {
        return checkEvery[group];
    }

    /** @return {@link #checkEveryPackets(int)} of every check group, by group: for the ticker. */
    public long[] checkEveryByGroup()
    {
        return checkEvery.clone();
    }

    /** @return the most packets of a group between two of its checks, over the groups: a bound for any table. */
    public long checkEveryPackets()
    {
        long most = 0;
        for (final long every : checkEvery)
        {
            most = Math.max(most, every);
        }
        return most;
    }

    /** @return true if {@code table} evicts when full; false if it refuses new entries. */
    public boolean evicts(final int table)
    {
        return evicts[table];
    }

    /** @return true if {@code table} refuses new entries now (full at the last check). */
    public boolean full(final int table)
    {
        return admission.closed(table);
    }

    /** @return entries {@code table} evicted so far. */
    public long evicted(final int table)
    {
        return evicted[table];
    }

    /** @return capacity checks so far. */
    public long checks()
    {
        return checks;
    }

    /** The capacity check of every table: {@link #check(StateMaintenance, ChainRuntime.ExpiryListener, long, long, int)} at a tick of every VNF. */
    public void check(final StateMaintenance state, final ChainRuntime.ExpiryListener listener)
    {
        checkTables(state, listener, ExpiryTicker.CHECK, Long.MIN_VALUE, ALL_GROUPS);
    }

    /**
     * The capacity check, between two transactions of the serial order: a table judged at it and
     * at or over its capacity (the shared tables: their entries together at or over the shared
     * capacity) is closed to new entries until a later check finds it under; one that evicts
     * first gives up its least recently active entries. A VNF whose eviction throws is told to
     * {@code listener} like a housekeeping fault, and its table is then closed if still full.
     *
     * @param tickNs  the housekeeping tick the check runs at, {@link ExpiryTicker#CHECK} for none.
     * @param sinceNs the tick before it ({@link ExpiryTicker#sinceNs}).
     * @param group   the check group whose own check falls here ({@link ExpiryTicker#checkGroup}),
     *                or {@link ExpiryTicker#NO_GROUP}. In a chain without tenants every table is
     *                judged whatever the group; in a chain of tenants, the group's tables, the
     *                tables of each VNF whose own expiry period falls in the tick, and the tables
     *                no tenant owns.
     */
    public void check(final StateMaintenance state, final ChainRuntime.ExpiryListener listener, final long tickNs, final long sinceNs,
        final int group)
    {
        checkTables(state, listener, tickNs, sinceNs, group);
    }

    /** {@link #check} group that judges every table. */
    private static final int ALL_GROUPS = -2;

    private boolean judged(final int table, final long tickNs, final long sinceNs, final int group)
    {
        final int tenant = tenantOf[table];
        if (!tenants || group == ALL_GROUPS || tenant < 0 || tenant == group)
        {
            return true;
        }
        if (tickNs == ExpiryTicker.CHECK || tickNs == ExpiryTicker.NONE)
        {
            return false;
        }
        // at a tick, the tables of a VNF whose own period falls in it, as the VNF's expiry (ChainRuntime#vnfTickNs)
        final long own = instances[owner[table]].expiryIntervalNs();
        return own > 0 && Math.floorDiv(tickNs, own) * own > sinceNs;
    }

    private void checkTables(final StateMaintenance state, final ChainRuntime.ExpiryListener listener, final long tickNs, final long sinceNs,
        final int group)
    {
        checks++;
        long shared = 0;
        for (int t = 0; t < capacities.length; t++)
        {
            if (capacities[t] == SHARED)
            {
                shared += state.size(t);
            }
        }
        final boolean sharedFull = shared >= sharedCapacity;
        for (int t = 0; t < capacities.length; t++)
        {
            final long capacity = capacities[t];
            if (capacity == UNBOUNDED || !judged(t, tickNs, sinceNs, group))
            {
                continue;
            }
            admission.checked(t);
            if (evicts[t] && state.size(t) >= capacity)
            {
                evict(t, capacity - capacity / EVICT_SLACK, state, listener);
            }
            admission.close(t, capacity == SHARED ? sharedFull : state.size(t) >= capacity);
        }
    }

    /**
     * Evicts from {@code table} down to about {@code keep} entries: asks its VNF to remove every
     * entry at or before the activity time of rank {@code entries - keep} (entries active at that
     * very time go too).
     */
    private void evict(final int table, final long keep, final StateMaintenance state, final ChainRuntime.ExpiryListener listener)
    {
        final int size = state.size(table);
        final int remove = (int)Math.min(size, size - keep);
        if (remove <= 0)
        {
            return;
        }
        if (activity.length < size)
        {
            activity = new long[size];
        }
        final long[] times = activity;
        final ActivityClock clock = catalog.spec(table).activity();
        final int[] n = {0};
        state.forEach(table, (key, value) ->
        {
            if (n[0] < times.length)
            {
                times[n[0]++] = clock.activity(value);
            }
        });
        final long cutoff = Selection.kthSmallest(times, n[0], Math.min(remove, n[0]) - 1);
        final int vnf = owner[table];
        listener.expiring(vnf);
        try
        {
            instances[vnf].vnf().evict(table, cutoff, state);
        }
        catch (final Throwable t)
        {
            listener.expiryFailed(vnf, t);
        }
        finally
        {
            listener.expiring(-1);
        }
        evicted[table] += Math.max(0, size - state.size(table));
    }

    /**
     * @param counters the run's counters at a checkpoint's cut.
     * @return them followed by the tables closed now (1 each, 0 if open), so that a resumed run
     *         refuses the writes an uninterrupted one would: it restarts between two checks.
     */
    public long[] withClosed(final long[] counters)
    {
        final long[] out = Arrays.copyOf(counters, counters.length + capacities.length);
        for (int t = 0; t < capacities.length; t++)
        {
            out[counters.length + t] = admission.closed(t) ? 1 : 0;
        }
        return out;
    }

    /**
     * Takes the closed tables back from counters written by {@link #withClosed}.
     *
     * @return the run's counters without them.
     * @throws IllegalArgumentException if there are fewer counters than tables.
     */
    public long[] restoreClosed(final long[] counters)
    {
        final int n = counters.length - capacities.length;
        if (n < 0)
        {
            throw new IllegalArgumentException(counters.length + " counters, fewer than the chain's " + capacities.length + " tables");
        }
        for (int t = 0; t < capacities.length; t++)
        {
            admission.close(t, counters[n + t] != 0);
        }
        return Arrays.copyOf(counters, n);
    }
}
