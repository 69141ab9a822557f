package io.transnfv.vnf.harness;

import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one VNF in the calling thread with the serial oracle's semantics: packets in,
 * verdicts and state out. For each {@link #offer(byte[], long)} it
 *
 * <pre>
 *  1. runs due expiry ticks: expire(k * interval) for every tick k * interval &lt;= packet time
 *  2. wraps a copy of the frame in a PacketFlyweight and calls preProcess
 *     (and checks that pre-processing left the frame untouched)
 *  3. applies the declared transaction with SerialApplier on a MapStateStore
 *  4. calls postProcess with an ActionRecorder and returns the Outcome
 * </pre>
 *
 * <p>Packets must be offered in non-decreasing timestamp order. The first tick is the first
 * multiple of the VNF's expiry interval after the first packet (or {@link #advanceTo}) time;
 * earlier ticks could only have swept empty tables. Not thread-safe; test tooling.
 */
public final class VnfHarness
{
    private final TableCatalog catalog = new TableCatalog();
    private final VnfInstance instance;
    private final MapStateStore store;
    private final TransactionLog log = new TransactionLog();
    private final SerialApplier applier = new SerialApplier();
    private final ActionRecorder recorder = new ActionRecorder();
    private final PacketFlyweight packet = new PacketFlyweight();
    private final long intervalNs;
    private boolean ticking;
    private long nextTickNs;
    private long lastTimestampNs = Long.MIN_VALUE;
    private long sequence;

    private VnfHarness(final String name, final String type, final Vnf vnf)
    {
        this.instance = new VnfInstance(name, type, vnf, catalog);
        this.store = new MapStateStore(catalog);
        this.intervalNs = instance.expiryIntervalNs();
    }

    /**
     * @param factory the VNF type; the instance is named after it.
     * @param params  raw parameter values, as YAML would give them.
     * @return a harness around a new instance.
     * @throws io.transnfv.vnf.api.VnfConfigException if the parameters are bad.
     */
    public static VnfHarness of(final VnfFactory factory, final Map<String, ?> params)
    {
        final VnfConfig config = VnfConfig.of(factory.params(), params);
        return new VnfHarness(factory.type(), factory.type(), factory.create(config));
    }

    /**
     * @param instanceName the instance's name (prefix of its counters and dump lines).
     * @param vnf          a VNF not yet set up.
     * @return a harness around it.
     */
    public static VnfHarness of(final String instanceName, final Vnf vnf)
    {
        return new VnfHarness(instanceName, vnf.getClass().getSimpleName(), vnf);
    }

    /**
     * Processes one packet.
     *
     * @param frame       an Ethernet frame; not modified (the harness works on a copy).
     * @param timestampNs its arrival time, not earlier than the previous packet's.
     * @return what the VNF did with it.
     */
    public Outcome offer(final byte[] frame, final long timestampNs)
    {
        if (timestampNs < lastTimestampNs)
        {
            throw new IllegalArgumentException(
                "packets must be offered in timestamp order: " + timestampNs + " after " + lastTimestampNs);
        }
        lastTimestampNs = timestampNs;
        advanceTo(timestampNs);

        final byte[] buffer = frame.clone();
        packet.wrap(buffer, 0, buffer.length);
        log.clear();
        final int t = log.begin(timestampNs, sequence++, packet);
        instance.vnf().preProcess(packet, log);
        log.end();
        if (!Arrays.equals(buffer, frame))
        {
            throw new IllegalStateException(instance.name() + ": preProcess modified the packet");
        }
        applier.apply(log, t, store);

        recorder.reset();
        instance.vnf().postProcess(packet, log.view(t), recorder);
        return outcome(log.abortReason(t), buffer);
    }

    /**
     * Runs every expiry tick due at {@code nowNs} (ticks at multiples of the VNF's interval),
     * each with its own tick time, as if time passed without packets.
     */
    public void advanceTo(final long nowNs)
    {
        if (intervalNs == 0)
        {
            return;
        }
        if (!ticking)
        {
            ticking = true;
            nextTickNs = Math.floorDiv(nowNs, intervalNs) * intervalNs + intervalNs;
        }
        while (nextTickNs <= nowNs)
        {
            instance.vnf().expire(nextTickNs, store);
            nextTickNs += intervalNs;
        }
        lastTimestampNs = Math.max(lastTimestampNs, nowNs);
    }

    /** @return the value of {@code key} in the VNF's table {@code table}. */
    public long state(final String table, final long key)
    {
        return store.get(tableId(table), key);
    }

    /** @return the number of entries of the VNF's table {@code table}. */
    public int size(final String table)
    {
        return store.size(tableId(table));
    }

    /** @return every table's entries in the stable dump form ({@link MapStateStore#dump()}). */
    public String dump()
    {
        return store.dump();
    }

    /**
     * @param name the counter's short name, as the VNF declared it.
     * @return the counter.
     * @throws IllegalArgumentException if the VNF declared no such counter.
     */
    public VnfCounter counter(final String name)
    {
        final VnfCounter counter = instance.counters().get(instance.name() + "." + name);
        if (counter == null)
        {
            throw new IllegalArgumentException("no counter '" + name + "'; declared: " + instance.counters().keySet());
        }
        return counter;
    }

    /**
     * Runs every state checker the VNF declared on its state now (between two packets, as at a
     * punctuation).
     *
     * @return each violation as {@code <checker> <key in hex>: <message>}, in the checkers' order; empty if all held.
     */
    public List<String> check()
    {
        final List<String> violations = new ArrayList<>();
        for (final VnfInstance.Checker checker : instance.checkers())
        {
            checker.check().check(store, (key, message) -> violations.add(checker.name() + " " + Long.toHexString(key) + ": " + message));
        }
        return violations;
    }

    /** @return the VNF instance under test, with the names it declared. */
    public VnfInstance instance()
    {
        return instance;
    }

    private int tableId(final String table)
    {
        final int id = catalog.find(instance.name(), table);
        if (id < 0)
        {
            throw new IllegalArgumentException("no table '" + table + "' in " + instance.name());
        }
        return id;
    }

    private Outcome outcome(final int abortReason, final byte[] buffer)
    {
        final List<String> alerts = new ArrayList<>(recorder.alertCount());
        for (int i = 0; i < recorder.alertCount(); i++)
        {
            alerts.add(instance.alertTypes().get(recorder.alertType(i)) + ":" + recorder.alertSubject(i));
        }
        final Map<String, Long> tags = new LinkedHashMap<>();
        for (int i = 0; i < recorder.tagCount(); i++)
        {
            tags.put(instance.tags().get(recorder.tag(i)), recorder.tagValue(i));
        }
        final boolean dropped = recorder.dropped();
        return new Outcome(
            dropped ? null : instance.outputs().get(recorder.output()),
            dropped ? instance.dropReasons().get(recorder.dropReason()) : null,
            abortReason != 0,
            abortReason,
            alerts,
            tags,
            buffer);
    }
}
