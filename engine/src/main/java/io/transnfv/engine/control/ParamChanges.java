package io.transnfv.engine.control;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.vnf.api.LiveChange;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import org.jctools.queues.MpscArrayQueue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Changes of VNF parameters while a chain runs, and where in the traffic each took effect. A
 * change is checked and prepared where it is asked ({@link #offer}: the HTTP control plane's
 * thread) or before the run ({@link #schedule}: a change script replayed), and applied by the
 * executor at a <em>packet position</em> P, with no batch in flight: packets 0 to P - 1 (in the
 * order the source gives them) saw the old values, packets from P on see the new ones, in every
 * callback (pre-processing, state functions, post-processing, housekeeping).
 *
 * <pre>
 *  POST /params/nat ──offer──► MpscArrayQueue ─┐    executor, reading the source:
 *  change script ──schedule──► by position ────┴──► cutAt(read) ─► read no packet at or past it
 *                                                   ─► batches in flight finish ─► apply(P)
 *                                                   ─► applied(): vnf, parameter, old, new, P
 * </pre>
 *
 * <p>The serial oracle applies the same changes before it reads packet P, so a run and its
 * oracle given the changes at the same positions stay chain-output equivalent. One per executor:
 * the changes are prepared on that executor's own VNF instances.
 */
public final class ParamChanges
{
    /** Changes waiting at once, beyond which {@link #offer} refuses (the asker says: busy, try again). */
    public static final int CAPACITY = 64;

    /**
     * One parameter's change, as it took effect.
     *
     * @param vnf       the VNF instance's name.
     * @param parameter the parameter's name.
     * @param oldValue  its value before, as YAML writes it ({@link ParamSpec#plain}).
     * @param newValue  its value from {@code atPacket} on, likewise.
     * @param atPacket  the packet position: the packets read from the source before the first that
     *                  saw the new value.
     */
    public record Applied(String vnf, String parameter, Object oldValue, Object newValue, long atPacket)
    {
    }

    /** One request: some parameters of one VNF, prepared, waiting to be applied. */
    public static final class Change
    {
        private final int vnf;
        private final Map<String, Object> oldValues;
        private final Map<String, Object> newValues;
        private final LiveChange change;
        private final long scheduledAt;
        private volatile long appliedAt = -1;
        private volatile boolean dropped;

        private Change(
            final int vnf, final Map<String, Object> oldValues, final Map<String, Object> newValues, final LiveChange change,
            final long scheduledAt)
        {
            this.vnf = vnf;
            this.oldValues = oldValues;
            this.newValues = newValues;
            this.change = change;
            this.scheduledAt = scheduledAt;
        }

        /** @return the packet position it took effect at, or -1 while it waits (or if it never will). */
        public long appliedAt()
        {
            return appliedAt;
        }

        /** @return true if the run ended before it was applied: it never will be. */
        public boolean dropped()
        {
            return dropped;
        }

        /** @return the new values by parameter, as YAML writes them. */
        public Map<String, Object> newValues()
        {
            return newValues;
        }
    }

    private final ChainRuntime runtime;
    /** Per VNF, its configuration with every change asked so far: the next change is prepared against it. */
    private final VnfConfig[] asked;
    private final MpscArrayQueue<Change> live = new MpscArrayQueue<>(CAPACITY);
    private final ArrayDeque<Change> scheduled = new ArrayDeque<>();
    private final List<Applied> applied = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean ended;

    /** @param runtime the executor's chain: its VNF instances take the changes. */
    public ParamChanges(final ChainRuntime runtime)
    {
        this.runtime = runtime;
        this.asked = new VnfConfig[runtime.size()];
        for (int v = 0; v < asked.length; v++)
        {
            asked[v] = runtime.spec().vnfs().get(v).config();
        }
    }

    /**
     * @param vnf a VNF instance's name.
     * @return its index in the chain, or -1 if the chain has none of that name.
     */
    public int vnfIndex(final String vnf)
    {
        for (int v = 0; v < runtime.size(); v++)
        {
            if (runtime.instance(v).name().equals(vnf))
            {
                return v;
            }
        }
        return -1;
    }

    /**
     * Checks and prepares a change and queues it for the next point with no batch in flight; any
     * thread. Changes are applied in the order they were offered.
     *
     * @param vnf    the VNF instance's name.
     * @param values new values by parameter name, as chain YAML writes them.
     * @return the change, whose {@link Change#appliedAt()} tells where it took effect, once it has.
     * @throws IllegalArgumentException if the chain has no such VNF, or a parameter is not live.
     * @throws VnfConfigException       for an unknown parameter or a bad value (the chain validator's messages).
     * @throws IllegalStateException    if the run has ended or {@link #CAPACITY} changes already wait.
     */
    public synchronized Change offer(final String vnf, final Map<String, ?> values)
    {
        if (ended)
        {
            throw new IllegalStateException("the run has ended");
        }
        final Change change = prepare(vnf, values, -1);
        if (!live.offer(change))
        {
            throw new IllegalStateException(CAPACITY + " changes are already waiting");
        }
        asked[change.vnf] = askedAfter(change);
        return change;
    }

    /**
     * Schedules a change at packet position {@code atPacket}: a change script replayed. Call before
     * the run, in position order.
     *
     * @throws IllegalArgumentException as {@link #offer}, or for a position before the last scheduled.
     * @throws VnfConfigException       as {@link #offer}.
     */
    public synchronized void schedule(final long atPacket, final String vnf, final Map<String, ?> values)
    {
        if (atPacket < 0 || !scheduled.isEmpty() && scheduled.peekLast().scheduledAt > atPacket)
        {
            throw new IllegalArgumentException("change of '" + vnf + "' at packet " + atPacket + ": changes are scheduled in"
                + " packet order, from 0");
        }
        final Change change = prepare(vnf, values, atPacket);
        scheduled.addLast(change);
        asked[change.vnf] = askedAfter(change);
    }

    private VnfConfig askedAfter(final Change change)
    {
        return asked[change.vnf].with(runtime.spec().vnfs().get(change.vnf).factory().params(), change.newValues);
    }

    private Change prepare(final String vnf, final Map<String, ?> values, final long atPacket)
    {
        final int v = vnfIndex(vnf);
        if (v < 0)
        {
            throw new IllegalArgumentException("no VNF '" + vnf + "' in this chain");
        }
        final VnfNode node = runtime.spec().vnfs().get(v);
        final List<ParamSpec> specs = node.factory().params();
        final Map<String, ParamSpec> byName = new LinkedHashMap<>();
        for (final ParamSpec spec : specs)
        {
            byName.put(spec.name(), spec);
        }
        final VnfConfig before = asked[v];
        final VnfConfig next = before.with(specs, values);
        final Map<String, Object> oldValues = new LinkedHashMap<>();
        final Map<String, Object> newValues = new LinkedHashMap<>();
        for (final String name : values.keySet())
        {
            final ParamSpec spec = byName.get(name);
            if (!spec.live())
            {
                throw new IllegalArgumentException("parameter '" + name + "' of VNF '" + vnf + "' cannot change while the"
                    + " chain runs");
            }
            oldValues.put(name, spec.plain(before.asMap().get(name)));
            newValues.put(name, spec.plain(next.asMap().get(name)));
        }
        final LiveChange prepared = runtime.instance(v).vnf().prepareChange(next);
        return new Change(v, oldValues, newValues, prepared, atPacket);
    }

    /**
     * Executor only: where reading must stop until changes are applied.
     *
     * @param read packets read from the source so far.
     * @return {@code read} if a change offered waits, else the position of the next scheduled
     *         change, else {@link Long#MAX_VALUE}.
     */
    public long cutAt(final long read)
    {
        if (!live.isEmpty())
        {
            return read;
        }
        final Change next = scheduled.peekFirst();
        return next == null ? Long.MAX_VALUE : next.scheduledAt;
    }

    /**
     * Executor only, with no batch in flight and {@code read} packets read, none of them waiting
     * for pre-processing: applies the scheduled changes due there and every change offered.
     *
     * @param read packets read from the source so far: the position the changes take effect at.
     */
    public void apply(final long read)
    {
        while (!scheduled.isEmpty() && scheduled.peekFirst().scheduledAt <= read)
        {
            apply(scheduled.pollFirst(), read);
        }
        Change change;
        while ((change = live.relaxedPoll()) != null)
        {
            apply(change, read);
        }
    }

    private void apply(final Change change, final long read)
    {
        change.change.apply();
        final String vnf = runtime.instance(change.vnf).name();
        for (final Map.Entry<String, Object> e : change.newValues.entrySet())
        {
            applied.add(new Applied(vnf, e.getKey(), change.oldValues.get(e.getKey()), e.getValue(), read));
        }
        change.appliedAt = read;
    }

    /**
     * A resumed run, before its first packet: the changes its checkpoint carries (applied by the
     * interrupted run before the cut, in the order they took effect) are applied to this
     * executor's VNF instances, so packets from the cut on see the parameters they saw in the
     * interrupted run, and are listed first among {@link #applied()}; later changes are prepared
     * against the parameters they left. Executor only, with no batch in flight and nothing
     * offered or scheduled yet.
     *
     * @param carried the checkpoint's changes.
     * @throws IllegalArgumentException if a change names a VNF or parameter the chain does not have,
     *                                   or a value it refuses (a checkpoint of another chain).
     */
    public synchronized void restore(final List<Applied> carried)
    {
        if (!applied.isEmpty() || !live.isEmpty() || !scheduled.isEmpty())
        {
            throw new IllegalStateException("parameter changes are restored before any other");
        }
        final boolean[] changed = new boolean[asked.length];
        for (final Applied change : carried)
        {
            final int v = vnfIndex(change.vnf());
            if (v < 0)
            {
                throw new IllegalArgumentException("a checkpoint changes parameter '" + change.parameter() + "' of VNF '"
                    + change.vnf() + "', which this chain does not have");
            }
            final Map<String, Object> value = new LinkedHashMap<>();
            value.put(change.parameter(), change.newValue());
            asked[v] = asked[v].with(runtime.spec().vnfs().get(v).factory().params(), value);
            changed[v] = true;
        }
        for (int v = 0; v < asked.length; v++)
        {
            if (changed[v])
            {
                runtime.instance(v).vnf().prepareChange(asked[v]).apply();
            }
        }
        applied.addAll(carried);
    }

    /**
     * The run has ended: changes still waiting will never be applied, and later offers are
     * refused. Called by the executor once its threads are done.
     */
    public synchronized void close()
    {
        ended = true;
        Change change;
        while ((change = live.relaxedPoll()) != null)
        {
            change.dropped = true;
        }
        for (final Change left : scheduled)
        {
            left.dropped = true;
        }
    }

    /** @return true once the run has ended ({@link #close}). */
    public boolean ended()
    {
        return ended;
    }

    /** @return every parameter change applied so far, in the order they took effect. */
    public List<Applied> applied()
    {
        synchronized (applied)
        {
            return List.copyOf(applied);
        }
    }
}
