package io.transnfv.cli.http;

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
import org.HdrHistogram.HistogramIterationValue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The exposition written the plain way, one string per series and the latency histogram walked
 * value by value with HdrHistogram's own iterator: the oracle {@link PrometheusText} must equal,
 * which encodes its series once and sums the histogram's counts between bounds.
 */
final class PlainExposition
{
    /** Upper bounds of the latency histogram's buckets, in nanoseconds (printed in seconds). */
    private static final long[] LATENCY_BOUNDS_NS = {
        1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
        1_000_000_000, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L};

    private final StringBuilder out = new StringBuilder(8192);

    private PlainExposition()
    {
    }

    /**
     * @param view     the run.
     * @param snapshot its figures at one moment.
     * @param entries  the committed entries of each table, if the executor can tell.
     * @param nowNs    {@code System.nanoTime()} now, for the snapshot's age.
     * @return the exposition text.
     */
    static String format(final RunView view, final RunSnapshot snapshot, final Optional<long[]> entries, final long nowNs)
    {
        final PlainExposition text = new PlainExposition();
        text.run(view, snapshot, nowNs);
        text.packets(snapshot.stats());
        text.latency(snapshot.stats());
        text.scheduler(snapshot);
        text.state(view.tableNames(), entries);
        text.capacities(view.tableNames(), view.executor().runtime().capacities());
        if (view.portCounters() != null)
        {
            text.dpdk(view.portCounters().get());
        }
        text.jvm();
        return text.out.toString();
    }

    private void run(final RunView view, final RunSnapshot snapshot, final long nowNs)
    {
        family("transnfv_run_info", "gauge", "The run: its chain and executor (value 1).");
        sample("transnfv_run_info", labels("chain", view.chain(), "executor", view.executor().describe()), 1);
        family("transnfv_run_finished", "gauge", "1 once the run has ended and these are its final figures, else 0.");
        sample("transnfv_run_finished", "", snapshot.last() ? 1 : 0);
        family("transnfv_run_stop_requested", "gauge", "1 once a stop was asked for (signal, POST /stop, error bound).");
        sample("transnfv_run_stop_requested", "", view.executor().control().stopRequested() ? 1 : 0);
        family("transnfv_snapshot_age_seconds", "gauge",
            "How long ago the engine copied these figures (a scrape normally waits for a fresh copy).");
        sample("transnfv_snapshot_age_seconds", "", Math.max(0, nowNs - snapshot.takenNs()) / 1e9);
        if (view.expectedPackets() >= 0)
        {
            family("transnfv_packets_expected", "gauge", "Packets the traffic holds (absent for a live port).");
            sample("transnfv_packets_expected", "", view.expectedPackets());
        }
    }

    private void packets(final RunStats stats)
    {
        final ChainRuntime runtime = stats.runtime();
        family("transnfv_packets_finished_total", "counter", "Packets the chain has finished with, forwarded or dropped.");
        sample("transnfv_packets_finished_total", "", stats.packetsFinished());
        family("transnfv_packets_forwarded_total", "counter", "Packets forwarded out of the chain.");
        sample("transnfv_packets_forwarded_total", "", stats.forwarded());
        family("transnfv_forwarded_bytes_total", "counter", "Bytes of the frames forwarded out of the chain.");
        sample("transnfv_forwarded_bytes_total", "", stats.forwardedBytes());
        family("transnfv_packets_dropped_total", "counter",
            "Packets dropped, by the stage that dropped them (a VNF, or ingress for frames not parsed) and its reason.");
        for (int reason = 1; reason < PacketRecord.INGRESS_REASON_COUNT; reason++)
        {
            sample("transnfv_packets_dropped_total", labels("stage", "ingress", "reason", PacketRecord.ingressReasonName(reason)),
                stats.malformed(reason));
        }
        for (int i = 0; i < runtime.size(); i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            for (int reason = 1; reason < vnf.dropReasons().size(); reason++)
            {
                sample("transnfv_packets_dropped_total", labels("stage", vnf.name(), "reason", vnf.dropReasons().get(reason)),
                    stats.drops(i, reason));
            }
        }
        family("transnfv_vnf_packets_total", "counter", "Packets each VNF handled.");
        for (int i = 0; i < runtime.size(); i++)
        {
            sample("transnfv_vnf_packets_total", labels("vnf", runtime.instance(i).name()), stats.visits(i));
        }
        family("transnfv_vnf_aborted_transactions_total", "counter", "Transactions of each VNF that aborted.");
        for (int i = 0; i < runtime.size(); i++)
        {
            sample("transnfv_vnf_aborted_transactions_total", labels("vnf", runtime.instance(i).name()), stats.aborts(i));
        }
        family("transnfv_alerts_total", "counter", "Alerts raised, by VNF and kind.");
        for (int i = 0; i < runtime.size(); i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            for (int type = 0; type < vnf.alertTypes().size(); type++)
            {
                sample("transnfv_alerts_total", labels("vnf", vnf.name(), "kind", vnf.alertTypes().get(type)),
                    stats.alerts(i, type));
            }
        }
        family("transnfv_vnf_events_total", "counter",
            "Each VNF's own counters (new mappings, expiries...), read live; the run summary lists the same.");
        for (int i = 0; i < runtime.size(); i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            for (final VnfCounter counter : vnf.counters().values())
            {
                final String name = counter.name();
                final String own = name.startsWith(vnf.name() + ".") ? name.substring(vnf.name().length() + 1) : name;
                sample("transnfv_vnf_events_total", labels("vnf", vnf.name(), "counter", own), counter.get());
            }
        }
    }

    private void latency(final RunStats stats)
    {
        final Histogram histogram = stats.latencyNs();
        final long[] cumulative = new long[LATENCY_BOUNDS_NS.length];
        double sumNs = 0;
        long count = 0;
        for (final HistogramIterationValue value : histogram.recordedValues())
        {
            final long n = value.getCountAtValueIteratedTo();
            final long highestNs = histogram.highestEquivalentValue(value.getValueIteratedTo());
            count += n;
            sumNs += (double)histogram.medianEquivalentValue(value.getValueIteratedTo()) * n;
            for (int b = 0; b < LATENCY_BOUNDS_NS.length; b++)
            {
                if (highestNs <= LATENCY_BOUNDS_NS[b])
                {
                    cumulative[b] += n;
                }
            }
        }
        family("transnfv_packet_latency_seconds", "histogram",
            "Latency from hand-over to the end of the chain, of sampled packets (every packet when paced or from a port).");
        for (int b = 0; b < LATENCY_BOUNDS_NS.length; b++)
        {
            sample("transnfv_packet_latency_seconds_bucket", labels("le", seconds(LATENCY_BOUNDS_NS[b])), cumulative[b]);
        }
        sample("transnfv_packet_latency_seconds_bucket", labels("le", "+Inf"), count);
        sample("transnfv_packet_latency_seconds_sum", "", sumNs / 1e9);
        sample("transnfv_packet_latency_seconds_count", "", count);
        family("transnfv_packet_latency_overflows_total", "counter", "Sampled latencies beyond an hour, left out of the histogram.");
        sample("transnfv_packet_latency_overflows_total", "", stats.latencyOverflows());
    }

    private void scheduler(final RunSnapshot snapshot)
    {
        family("transnfv_batches_total", "counter", "Batches closed by a punctuation (0 for the serial executor).");
        sample("transnfv_batches_total", "", snapshot.batches());
        final long[] timeNs = snapshot.timeNs();
        if (timeNs.length > 0)
        {
            family("transnfv_worker_time_seconds_total", "counter",
                "Time the engine's workers spent, summed over them, by what they did (the summary's time per packet).");
            final TimeCategory[] categories = TimeCategory.values();
            for (int i = 0; i < timeNs.length && i < categories.length; i++)
            {
                sample("transnfv_worker_time_seconds_total", labels("category", categories[i].label()), timeNs[i] / 1e9);
            }
        }
        final long[] decisions = snapshot.decisionCounts();
        if (decisions.length > 0)
        {
            family("transnfv_scheduler_decisions_total", "counter",
                "Scheduling decisions by policy (exploration/granularity/abort handling), one per graph executed.");
            for (int i = 0; i < decisions.length; i++)
            {
                sample("transnfv_scheduler_decisions_total", labels("policy", SchedulingPolicy.ofIndex(i).name()), decisions[i]);
            }
        }
    }

    private void state(final List<String> tables, final Optional<long[]> entries)
    {
        if (entries.isEmpty())
        {
            return;
        }
        final long[] n = entries.get();
        family("transnfv_state_entries", "gauge", "Committed entries of each state table (may be a batch old).");
        for (int t = 0; t < n.length && t < tables.size(); t++)
        {
            sample("transnfv_state_entries", labels("table", tables.get(t)), n[t]);
        }
    }

    /**
     * Each bounded table's capacity, whether it refuses new entries now, and what it evicted:
     * written by the engine between batches, read here without a lock (may be a batch old).
     */
    private void capacities(final List<String> tables, final TableCapacities capacities)
    {
        family("transnfv_state_capacity_entries", "gauge",
            "Entries each bounded state table may hold: its own capacity, or the one it shares with the tables without one (shared=\"true\").");
        for (int t = 0; t < tables.size(); t++)
        {
            final long capacity = capacities.capacity(t);
            if (capacity != TableCapacities.UNBOUNDED)
            {
                final boolean shared = capacity == TableCapacities.SHARED;
                sample("transnfv_state_capacity_entries", labels("table", tables.get(t), "shared", Boolean.toString(shared)),
                    shared ? capacities.sharedCapacity() : capacity);
            }
        }
        family("transnfv_state_full", "gauge", "1 if the table refuses new entries (full at the last capacity check), else 0.");
        for (int t = 0; t < tables.size(); t++)
        {
            if (capacities.capacity(t) != TableCapacities.UNBOUNDED)
            {
                sample("transnfv_state_full", labels("table", tables.get(t)), capacities.full(t) ? 1 : 0);
            }
        }
        family("transnfv_state_evicted_total", "counter", "Entries each table evicted when full (when_full: evict).");
        for (int t = 0; t < tables.size(); t++)
        {
            if (capacities.evicts(t))
            {
                sample("transnfv_state_evicted_total", labels("table", tables.get(t)), capacities.evicted(t));
            }
        }
    }

    /** The DPDK port's counters, testpmd's RX-packets, RX-missed, TX-packets and the rest, one family each. */
    private void dpdk(final Map<String, Long> counters)
    {
        for (final Map.Entry<String, Long> counter : counters.entrySet())
        {
            final String name = "transnfv_dpdk_" + counter.getKey() + "_total";
            family(name, "counter", "The DPDK port's " + counter.getKey().replace('_', ' ')
                + (counter.getKey().startsWith("port_") ? " (rte_eth_stats_get, refreshed once a second)" : "") + ".");
            sample(name, "", counter.getValue());
        }
    }

    private void jvm()
    {
        final MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        final MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
        family("jvm_memory_used_bytes", "gauge", "JVM memory in use, by area.");
        sample("jvm_memory_used_bytes", labels("area", "heap"), heap.getUsed());
        sample("jvm_memory_used_bytes", labels("area", "nonheap"), nonHeap.getUsed());
        family("jvm_memory_committed_bytes", "gauge", "JVM memory committed, by area.");
        sample("jvm_memory_committed_bytes", labels("area", "heap"), heap.getCommitted());
        sample("jvm_memory_committed_bytes", labels("area", "nonheap"), nonHeap.getCommitted());
        family("jvm_memory_max_bytes", "gauge", "The heap's limit (-Xmx).");
        sample("jvm_memory_max_bytes", labels("area", "heap"), heap.getMax());
        family("jvm_gc_collections_total", "counter", "Garbage collections, by collector.");
        final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        for (final GarbageCollectorMXBean gc : collectors)
        {
            sample("jvm_gc_collections_total", labels("gc", gc.getName()), Math.max(0, gc.getCollectionCount()));
        }
        family("jvm_gc_collection_seconds_total", "counter", "Time spent in garbage collections, by collector.");
        for (final GarbageCollectorMXBean gc : collectors)
        {
            sample("jvm_gc_collection_seconds_total", labels("gc", gc.getName()), Math.max(0, gc.getCollectionTime()) / 1e3);
        }
        family("jvm_threads_live", "gauge", "Live JVM threads.");
        sample("jvm_threads_live", "", ManagementFactory.getThreadMXBean().getThreadCount());
        family("process_uptime_seconds", "gauge", "How long the JVM has run.");
        sample("process_uptime_seconds", "", ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
    }

    private void family(final String name, final String type, final String help)
    {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private void sample(final String name, final String labels, final long value)
    {
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    private void sample(final String name, final String labels, final double value)
    {
        out.append(name).append(labels).append(' ');
        if (value == Math.rint(value) && Math.abs(value) < 1e15)
        {
            out.append((long)value);
        }
        else
        {
            // Java's shortest round-tripping form, which Prometheus parses (e.g. 1.5E-4)
            out.append(value);
        }
        out.append('\n');
    }

    /** @return {@code {k1="v1",k2="v2"}} with the values escaped as the format asks. */
    private static String labels(final String... keysAndValues)
    {
        final StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            if (i > 0)
            {
                s.append(',');
            }
            s.append(keysAndValues[i]).append("=\"")
                .append(keysAndValues[i + 1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        return s.append('}').toString();
    }

    private static String seconds(final long ns)
    {
        return java.math.BigDecimal.valueOf(ns, 9).stripTrailingZeros().toPlainString();
    }
}
