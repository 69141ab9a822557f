package io.transnfv.cli.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.TableCapacities;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.instance.VnfInstance;
import org.HdrHistogram.Histogram;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A run's figures in the Prometheus text exposition format (version 0.0.4): counters end in
 * {@code _total}, units are in the names (seconds, bytes), every family has its HELP and TYPE.
 * The list of families is in {@code docs/operations.md}.
 *
 * <p>A scrape writes numbers and nothing else: every HELP/TYPE header and every series' name
 * with its escaped labels is encoded once, when the renderer is built (and again only if a VNF
 * declares new drop reasons, alert kinds or counters), into byte arrays that a render copies into
 * one buffer it keeps between scrapes. The latency histogram's buckets are summed over the
 * histogram's counts between two bounds, not walked value by value, and the JVM's management
 * beans are looked up once.
 *
 * <pre>
 *   built once:  "# HELP transnfv_vnf_packets_total ...\n# TYPE ... counter\n"   "transnfv_vnf_packets_total{vnf=\"nat\"} "
 *   per scrape:  header ─► prefix ─► digits ─► '\n' ─► prefix ─► digits ─► ...   (into the kept byte[])
 *                                   └─ one copy into a pooled Netty buffer ─► the socket
 * </pre>
 *
 * <p>Threads: one renderer per control plane, used by its one event loop thread only (it is
 * not thread-safe); it reads the run's immutable {@link RunSnapshot} and what the engine
 * publishes off the data path.
 */
final class PrometheusText
{
    /** Content type of the exposition format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Upper bounds of the latency histogram's buckets, in nanoseconds (printed in seconds). */
    private static final long[] LATENCY_BOUNDS_NS = {
        1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
        1_000_000_000, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L};
    /** Sub-buckets of the latency histogram checked for counts at once before the sum visits them one by one. */
    private static final int SUM_BLOCK = 64;

    private static final byte[] RUN_FINISHED = unlabelled("transnfv_run_finished", "gauge",
        "1 once the run has ended and these are its final figures, else 0.");
    private static final byte[] RUN_STOP_REQUESTED = unlabelled("transnfv_run_stop_requested", "gauge",
        "1 once a stop was asked for (signal, POST /stop, error bound).");
    private static final byte[] SNAPSHOT_AGE = unlabelled("transnfv_snapshot_age_seconds", "gauge",
        "How long ago the engine copied these figures (a scrape normally waits for a fresh copy).");
    private static final byte[] PACKETS_EXPECTED = unlabelled("transnfv_packets_expected", "gauge",
        "Packets the traffic holds (absent for a live port).");
    private static final byte[] PACKETS_FINISHED = unlabelled("transnfv_packets_finished_total", "counter",
        "Packets the chain has finished with, forwarded or dropped.");
    private static final byte[] PACKETS_FORWARDED = unlabelled("transnfv_packets_forwarded_total", "counter",
        "Packets forwarded out of the chain.");
    private static final byte[] FORWARDED_BYTES = unlabelled("transnfv_forwarded_bytes_total", "counter",
        "Bytes of the frames forwarded out of the chain.");
    private static final byte[] DROPPED = family("transnfv_packets_dropped_total", "counter",
        "Packets dropped, by the stage that dropped them (a VNF, or ingress for frames not parsed) and its reason.");
    private static final byte[] VNF_PACKETS = family("transnfv_vnf_packets_total", "counter", "Packets each VNF handled.");
    private static final byte[] VNF_ABORTS = family("transnfv_vnf_aborted_transactions_total", "counter",
        "Transactions of each VNF that aborted.");
    private static final byte[] ALERTS = family("transnfv_alerts_total", "counter", "Alerts raised, by VNF and kind.");
    private static final byte[] VNF_EVENTS = family("transnfv_vnf_events_total", "counter",
        "Each VNF's own counters (new mappings, expiries...), read live; the run summary lists the same.");
    private static final byte[] LATENCY = family("transnfv_packet_latency_seconds", "histogram",
        "Latency from hand-over to the end of the chain, of sampled packets (every packet when paced or from a port).");
    private static final byte[][] LATENCY_BUCKETS = latencyBuckets();
    private static final byte[] LATENCY_SUM = bytes("transnfv_packet_latency_seconds_sum ");
    private static final byte[] LATENCY_COUNT = bytes("transnfv_packet_latency_seconds_count ");
    private static final byte[] LATENCY_OVERFLOWS = unlabelled("transnfv_packet_latency_overflows_total", "counter",
        "Sampled latencies beyond an hour, left out of the histogram.");
    private static final byte[] TENANT_PACKETS = family("transnfv_tenant_packets_total", "counter",
        "Packets the classifier gave each tenant of a chain of tenants (its limiter's).");
    private static final byte[] TENANT_FORWARDED = family("transnfv_tenant_packets_forwarded_total", "counter",
        "Of each tenant's packets, those that left its chain undropped.");
    private static final byte[] TENANT_DROPPED = family("transnfv_tenant_packets_dropped_total", "counter",
        "Of each tenant's packets, those one of its VNFs dropped (its limit hits among them).");
    private static final byte[] TENANT_ALERTS = family("transnfv_tenant_alerts_total", "counter", "Alerts each tenant's VNFs raised.");
    private static final byte[] TENANT_ENTRIES = family("transnfv_tenant_state_entries", "gauge",
        "Committed entries of each tenant's tables (may be a batch old).");
    private static final byte[] TENANT_LATENCY = family("transnfv_tenant_packet_latency_seconds", "histogram",
        "Latency of each tenant's sampled packets, measured as transnfv_packet_latency_seconds.");
    private static final byte[] BATCHES = unlabelled("transnfv_batches_total", "counter",
        "Batches closed by a punctuation (0 for the serial executor).");
    private static final byte[] WORKER_TIME = family("transnfv_worker_time_seconds_total", "counter",
        "Time the engine's workers spent, summed over them, by what they did (the summary's time per packet).");
    private static final byte[][] WORKER_TIME_SERIES = workerTimeSeries();
    private static final byte[] DECISIONS = family("transnfv_scheduler_decisions_total", "counter",
        "Scheduling decisions by policy (exploration/granularity/abort handling), one per graph executed.");
    private static final byte[] STATE_ENTRIES = family("transnfv_state_entries", "gauge",
        "Committed entries of each state table (may be a batch old).");
    private static final byte[] STATE_CAPACITY = family("transnfv_state_capacity_entries", "gauge",
        "Entries each bounded state table may hold: its own capacity, or the one it shares with the tables without one"
            + " (shared=\"true\").");
    private static final byte[] STATE_FULL = family("transnfv_state_full", "gauge",
        "1 if the table refuses new entries (full at the last capacity check), else 0.");
    private static final byte[] STATE_EVICTED = family("transnfv_state_evicted_total", "counter",
        "Entries each table evicted when full (when_full: evict).");
    private static final byte[] MEMORY_USED = family("jvm_memory_used_bytes", "gauge", "JVM memory in use, by area.");
    private static final byte[] MEMORY_COMMITTED = family("jvm_memory_committed_bytes", "gauge", "JVM memory committed, by area.");
    private static final byte[] MEMORY_MAX = family("jvm_memory_max_bytes", "gauge", "The heap's limit (-Xmx).");
    private static final byte[] USED_HEAP = series("jvm_memory_used_bytes", "area", "heap");
    private static final byte[] USED_NONHEAP = series("jvm_memory_used_bytes", "area", "nonheap");
    private static final byte[] COMMITTED_HEAP = series("jvm_memory_committed_bytes", "area", "heap");
    private static final byte[] COMMITTED_NONHEAP = series("jvm_memory_committed_bytes", "area", "nonheap");
    private static final byte[] MAX_HEAP = series("jvm_memory_max_bytes", "area", "heap");
    private static final byte[] GC_COLLECTIONS = family("jvm_gc_collections_total", "counter", "Garbage collections, by collector.");
    private static final byte[] GC_SECONDS = family("jvm_gc_collection_seconds_total", "counter",
        "Time spent in garbage collections, by collector.");
    private static final byte[] THREADS_LIVE = unlabelled("jvm_threads_live", "gauge", "Live JVM threads.");
    private static final byte[] UPTIME = unlabelled("process_uptime_seconds", "gauge", "How long the JVM has run.");

    private final RunView view;
    private final ChainRuntime runtime;
    private final TableCapacities capacities;
    private final int tables;
    private final byte[] runInfo;
    private final byte[][] ingressDrops = new byte[PacketRecord.INGRESS_REASON_COUNT][];
    private final byte[][] stateEntries;
    private final byte[][] capacityOwn;
    private final byte[][] capacityShared;
    private final byte[][] stateFull;
    private final byte[][] stateEvicted;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final RuntimeMXBean jvm = ManagementFactory.getRuntimeMXBean();
    private final GarbageCollectorMXBean[] collectors;
    private final byte[][] gcCollections;
    private final byte[][] gcSeconds;
    /** The DPDK port's family headers with their series' names, by counter (filled as counters show up). */
    private final Map<String, byte[]> dpdkSeries = new HashMap<>();

    // what depends on each VNF's declared drop reasons, alert kinds and counters: rebuilt if they grow
    private int[] vnfShape;
    private byte[][][] vnfDrops;
    private byte[][] vnfPackets;
    private byte[][] vnfAborts;
    private byte[][][] alerts;
    private VnfCounter[][] counters;
    private byte[][][] counterSeries;
    private byte[][] decisionSeries = new byte[0][];

    // a chain of tenants: each tenant's VNF instances and tables (catalogue indices), and its series
    private final int[][] tenantInstances;
    private final int[][] tenantTables;
    private final byte[][][] tenantSeries;
    private final byte[][][] tenantLatencyBuckets;
    private final long[] tenantIn;
    private final long[] tenantDropped;
    private final long[] tenantAlerts;

    // per scrape: the text being written, kept between scrapes
    private byte[] out = new byte[16 * 1024];
    private int length;
    private final byte[] digits = new byte[20];
    private final long[] cumulative = new long[LATENCY_BOUNDS_NS.length];

    /** @param view the run; the chain's VNFs and tables are read once here. */
    PrometheusText(final RunView view)
    {
        this.view = view;
        this.runtime = view.executor().runtime();
        this.capacities = runtime.capacities();
        final List<String> names = view.tableNames();
        this.tables = names.size();
        this.runInfo = concat(family("transnfv_run_info", "gauge", "The run: its chain and executor (value 1)."),
            series("transnfv_run_info", "chain", view.chain(), "executor", view.executor().describe()), bytes("1\n"));
        for (int reason = 1; reason < ingressDrops.length; reason++)
        {
            ingressDrops[reason] = series("transnfv_packets_dropped_total", "stage", "ingress", "reason",
                PacketRecord.ingressReasonName(reason));
        }
        stateEntries = new byte[tables][];
        capacityOwn = new byte[tables][];
        capacityShared = new byte[tables][];
        stateFull = new byte[tables][];
        stateEvicted = new byte[tables][];
        for (int t = 0; t < tables; t++)
        {
            final String table = names.get(t);
            stateEntries[t] = series("transnfv_state_entries", "table", table);
            capacityOwn[t] = series("transnfv_state_capacity_entries", "table", table, "shared", "false");
            capacityShared[t] = series("transnfv_state_capacity_entries", "table", table, "shared", "true");
            stateFull[t] = series("transnfv_state_full", "table", table);
            stateEvicted[t] = series("transnfv_state_evicted_total", "table", table);
        }
        collectors = ManagementFactory.getGarbageCollectorMXBeans().toArray(new GarbageCollectorMXBean[0]);
        gcCollections = new byte[collectors.length][];
        gcSeconds = new byte[collectors.length][];
        for (int c = 0; c < collectors.length; c++)
        {
            gcCollections[c] = series("jvm_gc_collections_total", "gc", collectors[c].getName());
            gcSeconds[c] = series("jvm_gc_collection_seconds_total", "gc", collectors[c].getName());
        }
        describeVnfs();
        final int n = runtime.tenants().size();
        tenantInstances = new int[n][];
        tenantTables = new int[n][];
        tenantSeries = new byte[n][][];
        tenantLatencyBuckets = new byte[n][][];
        tenantIn = new long[n];
        tenantDropped = new long[n];
        tenantAlerts = new long[n];
        for (int t = 0; t < n; t++)
        {
            final int tenant = t;
            final String name = runtime.tenants().get(t);
            tenantInstances[t] = IntStream.range(0, runtime.size()).filter(i -> runtime.tenantOfInstance(i) == tenant).toArray();
            tenantTables[t] = IntStream.range(0, tables).filter(i -> runtime.tenantOfTable(i) == tenant).toArray();
            tenantSeries[t] = new byte[][] {series("transnfv_tenant_packets_total", "tenant", name),
                series("transnfv_tenant_packets_forwarded_total", "tenant", name),
                series("transnfv_tenant_packets_dropped_total", "tenant", name),
                series("transnfv_tenant_alerts_total", "tenant", name),
                series("transnfv_tenant_state_entries", "tenant", name),
                series("transnfv_tenant_packet_latency_seconds_sum", "tenant", name),
                series("transnfv_tenant_packet_latency_seconds_count", "tenant", name)};
            tenantLatencyBuckets[t] = latencyBuckets("transnfv_tenant_packet_latency_seconds_bucket", "tenant", name);
        }
    }

    /**
     * Renders the exposition into this renderer's buffer, replacing the previous one.
     *
     * @param snapshot the run's figures at one moment.
     * @param entries  the committed entries of each table, if the executor can tell.
     * @param nowNs    {@code System.nanoTime()} now, for the snapshot's age.
     * @return this, to hand the text on with {@link #copyInto} or {@link #toString}.
     */
    PrometheusText render(final RunSnapshot snapshot, final Optional<long[]> entries, final long nowNs)
    {
        length = 0;
        run(snapshot, nowNs);
        packets(snapshot.stats());
        latency(snapshot.stats());
        scheduler(snapshot);
        state(entries);
        tenants(snapshot.stats(), entries);
        capacities();
        if (view.portCounters() != null)
        {
            dpdk(view.portCounters().get());
        }
        jvm();
        return this;
    }

    /** @return the last render in a buffer of {@code alloc}'s (pooled on the event loop); the caller owns it. */
    ByteBuf copyInto(final ByteBufAllocator alloc)
    {
        return alloc.buffer(length, length).writeBytes(out, 0, length);
    }

    /** @return the last render as text. */
    @Override
    public String toString()
    {
        return new String(out, 0, length, StandardCharsets.UTF_8);
    }

    private void run(final RunSnapshot snapshot, final long nowNs)
    {
        put(runInfo);
        sample(RUN_FINISHED, snapshot.last() ? 1 : 0);
        sample(RUN_STOP_REQUESTED, view.executor().control().stopRequested() ? 1 : 0);
        sample(SNAPSHOT_AGE, Math.max(0, nowNs - snapshot.takenNs()) / 1e9);
        if (view.expectedPackets() >= 0)
        {
            sample(PACKETS_EXPECTED, view.expectedPackets());
        }
    }

    private void packets(final RunStats stats)
    {
        if (shapeChanged())
        {
            describeVnfs();
        }
        final int vnfs = runtime.size();
        sample(PACKETS_FINISHED, stats.packetsFinished());
        sample(PACKETS_FORWARDED, stats.forwarded());
        sample(FORWARDED_BYTES, stats.forwardedBytes());
        put(DROPPED);
        for (int reason = 1; reason < ingressDrops.length; reason++)
        {
            sample(ingressDrops[reason], stats.malformed(reason));
        }
        for (int i = 0; i < vnfs; i++)
        {
            final byte[][] drops = vnfDrops[i];
            for (int reason = 1; reason < drops.length; reason++)
            {
                sample(drops[reason], stats.drops(i, reason));
            }
        }
        put(VNF_PACKETS);
        for (int i = 0; i < vnfs; i++)
        {
            sample(vnfPackets[i], stats.visits(i));
        }
        put(VNF_ABORTS);
        for (int i = 0; i < vnfs; i++)
        {
            sample(vnfAborts[i], stats.aborts(i));
        }
        put(ALERTS);
        for (int i = 0; i < vnfs; i++)
        {
            final byte[][] kinds = alerts[i];
            for (int type = 0; type < kinds.length; type++)
            {
                sample(kinds[type], stats.alerts(i, type));
            }
        }
        put(VNF_EVENTS);
        for (int i = 0; i < vnfs; i++)
        {
            final VnfCounter[] own = counters[i];
            for (int c = 0; c < own.length; c++)
            {
                sample(counterSeries[i][c], own[c].get());
            }
        }
    }

    /**
     * The Prometheus buckets from the histogram's counts: a recorded value counts towards a bound
     * when the top of its sub-bucket is at most the bound, so each bound takes the counts up to
     * its sub-bucket, and that sub-bucket itself only when the bound is its top. One pass over the
     * counts up to the largest value recorded; the sum visits only blocks of sub-buckets that hold counts.
     */
    private void latency(final RunStats stats)
    {
        put(LATENCY);
        histogram(stats.latencyNs(), LATENCY_BUCKETS, LATENCY_SUM, LATENCY_COUNT);
        sample(LATENCY_OVERFLOWS, stats.latencyOverflows());
    }

    /**
     * Each tenant's packets, forwarded and dropped ones, alerts, table entries and latency, summed
     * over its VNFs and tables as the run report's tenants section sums them; nothing for a chain
     * without tenants.
     */
    private void tenants(final RunStats stats, final Optional<long[]> entries)
    {
        final int n = tenantSeries.length;
        if (n == 0)
        {
            return;
        }
        final long[] in = tenantIn;
        final long[] dropped = tenantDropped;
        final long[] raised = tenantAlerts;
        for (int t = 0; t < n; t++)
        {
            in[t] = stats.visits(runtime.tenantLimiter(t));
            dropped[t] = 0;
            raised[t] = 0;
            for (final int i : tenantInstances[t])
            {
                for (int reason = 1; reason < vnfDrops[i].length; reason++)
                {
                    dropped[t] += stats.drops(i, reason);
                }
                for (int type = 0; type < alerts[i].length; type++)
                {
                    raised[t] += stats.alerts(i, type);
                }
            }
        }
        put(TENANT_PACKETS);
        for (int t = 0; t < n; t++)
        {
            sample(tenantSeries[t][0], in[t]);
        }
        put(TENANT_FORWARDED);
        for (int t = 0; t < n; t++)
        {
            sample(tenantSeries[t][1], Math.max(0, in[t] - dropped[t]));
        }
        put(TENANT_DROPPED);
        for (int t = 0; t < n; t++)
        {
            sample(tenantSeries[t][2], dropped[t]);
        }
        put(TENANT_ALERTS);
        for (int t = 0; t < n; t++)
        {
            sample(tenantSeries[t][3], raised[t]);
        }
        if (entries.isPresent())
        {
            put(TENANT_ENTRIES);
            for (int t = 0; t < n; t++)
            {
                long sum = 0;
                for (final int table : tenantTables[t])
                {
                    sum += entries.get()[table];
                }
                sample(tenantSeries[t][4], sum);
            }
        }
        put(TENANT_LATENCY);
        for (int t = 0; t < n; t++)
        {
            histogram(stats.tenantLatencyNs(t), tenantLatencyBuckets[t], tenantSeries[t][5], tenantSeries[t][6]);
        }
    }

    /** Writes {@code histogram}'s buckets, sum and count under the given series (the family's header written before). */
    private void histogram(final Histogram histogram, final byte[][] bucketSeries, final byte[] sumSeries, final byte[] countSeries)
    {
        final long count = histogram.getTotalCount();
        final long maxNs = count == 0 ? 0 : histogram.getMaxValue();
        // counts of the sub-buckets up to and including that of the previous bound
        long upToPrevious = 0;
        long previousNs = -1;
        for (int b = 0; b < LATENCY_BOUNDS_NS.length; b++)
        {
            final long boundNs = LATENCY_BOUNDS_NS[b];
            if (count == 0 || histogram.highestEquivalentValue(maxNs) <= boundNs)
            {
                cumulative[b] = count;
                continue;
            }
            final long fromNs = previousNs < 0 ? 0 : histogram.nextNonEquivalentValue(previousNs);
            if (fromNs <= boundNs)
            {
                upToPrevious += histogram.getCountBetweenValues(fromNs, boundNs);
            }
            previousNs = boundNs;
            // the bound's own sub-bucket reaches above it: its values may be above the bound
            cumulative[b] = histogram.highestEquivalentValue(boundNs) > boundNs ? upToPrevious - histogram.getCountAtValue(boundNs)
                : upToPrevious;
        }
        double sumNs = 0;
        if (count > 0)
        {
            long valueNs = histogram.lowestEquivalentValue(histogram.getMinValue());
            while (valueNs <= maxNs)
            {
                // most sub-buckets are empty: skip them a block at a time, summing the counts in one tight loop
                final long blockEndNs = Math.min(maxNs, valueNs + SUM_BLOCK * histogram.sizeOfEquivalentValueRange(valueNs) - 1);
                if (histogram.getCountBetweenValues(valueNs, blockEndNs) == 0)
                {
                    valueNs = histogram.nextNonEquivalentValue(blockEndNs);
                    continue;
                }
                // the same products in the same order as a walk of the recorded values: the same sum
                while (valueNs <= blockEndNs)
                {
                    final long n = histogram.getCountAtValue(valueNs);
                    if (n != 0)
                    {
                        sumNs += (double)histogram.medianEquivalentValue(valueNs) * n;
                    }
                    valueNs = histogram.nextNonEquivalentValue(valueNs);
                }
            }
        }
        for (int b = 0; b < LATENCY_BOUNDS_NS.length; b++)
        {
            sample(bucketSeries[b], cumulative[b]);
        }
        sample(bucketSeries[LATENCY_BOUNDS_NS.length], count);
        sample(sumSeries, sumNs / 1e9);
        sample(countSeries, count);
    }

    private void scheduler(final RunSnapshot snapshot)
    {
        sample(BATCHES, snapshot.batches());
        final long[] timeNs = snapshot.timeNs();
        if (timeNs.length > 0)
        {
            put(WORKER_TIME);
            for (int i = 0; i < timeNs.length && i < WORKER_TIME_SERIES.length; i++)
            {
                sample(WORKER_TIME_SERIES[i], timeNs[i] / 1e9);
            }
        }
        final long[] decisions = snapshot.decisionCounts();
        if (decisions.length > 0)
        {
            if (decisionSeries.length != decisions.length)
            {
                decisionSeries = new byte[decisions.length][];
                for (int i = 0; i < decisions.length; i++)
                {
                    decisionSeries[i] = series("transnfv_scheduler_decisions_total", "policy", SchedulingPolicy.ofIndex(i).name());
                }
            }
            put(DECISIONS);
            for (int i = 0; i < decisions.length; i++)
            {
                sample(decisionSeries[i], decisions[i]);
            }
        }
    }

    private void state(final Optional<long[]> entries)
    {
        if (entries.isEmpty())
        {
            return;
        }
        final long[] n = entries.get();
        put(STATE_ENTRIES);
        for (int t = 0; t < n.length && t < tables; t++)
        {
            sample(stateEntries[t], n[t]);
        }
    }

    /**
     * Each bounded table's capacity, whether it refuses new entries now, and what it evicted:
     * written by the engine between batches, read here without a lock (may be a batch old).
     */
    private void capacities()
    {
        put(STATE_CAPACITY);
        for (int t = 0; t < tables; t++)
        {
            final long capacity = capacities.capacity(t);
            if (capacity != TableCapacities.UNBOUNDED)
            {
                final boolean shared = capacity == TableCapacities.SHARED;
                sample(shared ? capacityShared[t] : capacityOwn[t], shared ? capacities.sharedCapacity() : capacity);
            }
        }
        put(STATE_FULL);
        for (int t = 0; t < tables; t++)
        {
            if (capacities.capacity(t) != TableCapacities.UNBOUNDED)
            {
                sample(stateFull[t], capacities.full(t) ? 1 : 0);
            }
        }
        put(STATE_EVICTED);
        for (int t = 0; t < tables; t++)
        {
            if (capacities.evicts(t))
            {
                sample(stateEvicted[t], capacities.evicted(t));
            }
        }
    }

    /** The DPDK port's counters, testpmd's RX-packets, RX-missed, TX-packets and the rest, one family each. */
    private void dpdk(final Map<String, Long> portCounters)
    {
        for (final Map.Entry<String, Long> counter : portCounters.entrySet())
        {
            final byte[] family = dpdkSeries.computeIfAbsent(counter.getKey(), key -> unlabelled("transnfv_dpdk_" + key + "_total",
                "counter", "The DPDK port's " + key.replace('_', ' ')
                    + (key.startsWith("port_") ? " (rte_eth_stats_get, refreshed once a second)" : "") + "."));
            sample(family, counter.getValue());
        }
    }

    private void jvm()
    {
        final MemoryUsage heap = memory.getHeapMemoryUsage();
        final MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        put(MEMORY_USED);
        sample(USED_HEAP, heap.getUsed());
        sample(USED_NONHEAP, nonHeap.getUsed());
        put(MEMORY_COMMITTED);
        sample(COMMITTED_HEAP, heap.getCommitted());
        sample(COMMITTED_NONHEAP, nonHeap.getCommitted());
        put(MEMORY_MAX);
        sample(MAX_HEAP, heap.getMax());
        put(GC_COLLECTIONS);
        for (int c = 0; c < collectors.length; c++)
        {
            sample(gcCollections[c], Math.max(0, collectors[c].getCollectionCount()));
        }
        put(GC_SECONDS);
        for (int c = 0; c < collectors.length; c++)
        {
            sample(gcSeconds[c], Math.max(0, collectors[c].getCollectionTime()) / 1e3);
        }
        sample(THREADS_LIVE, threads.getThreadCount());
        sample(UPTIME, jvm.getUptime() / 1e3);
    }

    // ---------------------------------------------------------------- the chain's series, encoded once

    /** @return whether a VNF declared drop reasons, alert kinds or counters since the series were encoded. */
    private boolean shapeChanged()
    {
        if (vnfShape.length != 3 * runtime.size())
        {
            return true;
        }
        for (int i = 0; i < runtime.size(); i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            if (vnfShape[3 * i] != vnf.dropReasons().size() || vnfShape[3 * i + 1] != vnf.alertTypes().size()
                || vnfShape[3 * i + 2] != vnf.counters().size())
            {
                return true;
            }
        }
        return false;
    }

    private void describeVnfs()
    {
        final int n = runtime.size();
        vnfShape = new int[3 * n];
        vnfDrops = new byte[n][][];
        vnfPackets = new byte[n][];
        vnfAborts = new byte[n][];
        alerts = new byte[n][][];
        counters = new VnfCounter[n][];
        counterSeries = new byte[n][][];
        for (int i = 0; i < n; i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            final String name = vnf.name();
            final List<String> reasons = vnf.dropReasons();
            final List<String> kinds = vnf.alertTypes();
            vnfShape[3 * i] = reasons.size();
            vnfShape[3 * i + 1] = kinds.size();
            vnfShape[3 * i + 2] = vnf.counters().size();
            vnfDrops[i] = new byte[reasons.size()][];
            for (int reason = 1; reason < reasons.size(); reason++)
            {
                vnfDrops[i][reason] = series("transnfv_packets_dropped_total", "stage", name, "reason", reasons.get(reason));
            }
            vnfPackets[i] = series("transnfv_vnf_packets_total", "vnf", name);
            vnfAborts[i] = series("transnfv_vnf_aborted_transactions_total", "vnf", name);
            alerts[i] = new byte[kinds.size()][];
            for (int type = 0; type < kinds.size(); type++)
            {
                alerts[i][type] = series("transnfv_alerts_total", "vnf", name, "kind", kinds.get(type));
            }
            counters[i] = vnf.counters().values().toArray(new VnfCounter[0]);
            counterSeries[i] = new byte[counters[i].length][];
            for (int c = 0; c < counters[i].length; c++)
            {
                final String counter = counters[i][c].name();
                final String own = counter.startsWith(name + ".") ? counter.substring(name.length() + 1) : counter;
                counterSeries[i][c] = series("transnfv_vnf_events_total", "vnf", name, "counter", own);
            }
        }
    }

    // ---------------------------------------------------------------- writing

    private void sample(final byte[] series, final long value)
    {
        put(series);
        putLong(value);
        putByte((byte)'\n');
    }

    private void sample(final byte[] series, final double value)
    {
        put(series);
        if (value == Math.rint(value) && Math.abs(value) < 1e15)
        {
            putLong((long)value);
        }
        else
        {
            // Java's shortest round-tripping form, which Prometheus parses (e.g. 1.5E-4); ASCII only
            final String text = Double.toString(value);
            ensure(text.length());
            for (int i = 0; i < text.length(); i++)
            {
                out[length++] = (byte)text.charAt(i);
            }
        }
        putByte((byte)'\n');
    }

    private void put(final byte[] bytes)
    {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, out, length, bytes.length);
        length += bytes.length;
    }

    private void putByte(final byte b)
    {
        ensure(1);
        out[length++] = b;
    }

    private void putLong(final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            put(bytes(Long.toString(value)));
            return;
        }
        long rest = Math.abs(value);
        int at = digits.length;
        do
        {
            digits[--at] = (byte)('0' + rest % 10);
            rest /= 10;
        }
        while (rest != 0);
        ensure(digits.length - at + 1);
        if (value < 0)
        {
            out[length++] = '-';
        }
        System.arraycopy(digits, at, out, length, digits.length - at);
        length += digits.length - at;
    }

    private void ensure(final int more)
    {
        if (length + more > out.length)
        {
            out = Arrays.copyOf(out, Math.max(out.length * 2, length + more));
        }
    }

    // ---------------------------------------------------------------- encoding, once

    /** @return the family's HELP and TYPE lines. */
    private static byte[] family(final String name, final String type, final String help)
    {
        return bytes("# HELP " + name + ' ' + help.replace("\\", "\\\\").replace("\n", "\\n") + "\n# TYPE " + name + ' ' + type + '\n');
    }

    /** @return a family of one series without labels: its HELP and TYPE lines and the series' name. */
    private static byte[] unlabelled(final String name, final String type, final String help)
    {
        return concat(family(name, type, help), bytes(name + ' '));
    }

    /** @return {@code name{k1="v1",k2="v2"} } with the values escaped as the format asks, ready for a value. */
    private static byte[] series(final String name, final String... keysAndValues)
    {
        final StringBuilder s = new StringBuilder(name).append('{');
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            if (i > 0)
            {
                s.append(',');
            }
            s.append(keysAndValues[i]).append("=\"")
                .append(keysAndValues[i + 1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        return bytes(s.append("} ").toString());
    }

    private static byte[][] latencyBuckets()
    {
        return latencyBuckets("transnfv_packet_latency_seconds_bucket");
    }

    /** @return the series of each latency bound and +Inf, with {@code labels} (key, value, ...) before {@code le}. */
    private static byte[][] latencyBuckets(final String name, final String... labels)
    {
        final byte[][] buckets = new byte[LATENCY_BOUNDS_NS.length + 1][];
        for (int b = 0; b <= LATENCY_BOUNDS_NS.length; b++)
        {
            final String[] keysAndValues = Arrays.copyOf(labels, labels.length + 2);
            keysAndValues[labels.length] = "le";
            keysAndValues[labels.length + 1] = b == LATENCY_BOUNDS_NS.length ? "+Inf"
                : BigDecimal.valueOf(LATENCY_BOUNDS_NS[b], 9).stripTrailingZeros().toPlainString();
            buckets[b] = series(name, keysAndValues);
        }
        return buckets;
    }

    private static byte[][] workerTimeSeries()
    {
        final TimeCategory[] categories = TimeCategory.values();
        final byte[][] series = new byte[categories.length][];
        for (int i = 0; i < categories.length; i++)
        {
            series[i] = series("transnfv_worker_time_seconds_total", "category", categories[i].label());
        }
        return series;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(final byte[]... parts)
    {
        int n = 0;
        for (final byte[] part : parts)
        {
            n += part.length;
        }
        final byte[] all = new byte[n];
        int at = 0;
        for (final byte[] part : parts)
        {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
