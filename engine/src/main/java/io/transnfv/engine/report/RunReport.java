package io.transnfv.engine.report;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-of-run summary: what came in, what went out, what was dropped where and why,
 * per-VNF counters, alerts, throughput and latency percentiles. A snapshot of
 * {@link RunStats} taken after the run; {@link #toMap()} is its JSON shape, {@link #toText()}
 * its human one.
 */
public final class RunReport
{
    private final Map<String, Object> root;

    private RunReport(final Map<String, Object> root)
    {
        this.root = root;
    }

    /**
     * @param executor    what ran the chain, e.g. {@code serial}.
     * @param source      the source's description.
     * @param sourceStats what the source read and could not read.
     * @param stats       the run's counters.
     * @param wallNs      wall-clock duration of the run.
     * @return the report.
     */
    public static RunReport of(
        final String executor, final String source, final SourceStats sourceStats, final RunStats stats, final long wallNs)
    {
        return of(executor, source, sourceStats, stats, wallNs, Map.of());
    }

    /**
     * @param executorSummary what the executor reports about how it ran (scheduling
     *                        decisions, time breakdown); shown under {@code scheduler}.
     * @return the report, with the executor's summary when it has one.
     */
    public static RunReport of(
        final String executor, final String source, final SourceStats sourceStats, final RunStats stats, final long wallNs,
        final Map<String, Object> executorSummary)
    {
        final ChainRuntime runtime = stats.runtime();
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("chain", runtime.spec().name());
        root.put("executor", executor);
        root.put("source", source);

        final long in = stats.packetsFinished();
        long dropped = 0;
        final Map<String, Object> drops = new LinkedHashMap<>();
        for (int reason = 1; reason < PacketFlyweight.MALFORMED_REASON_COUNT; reason++)
        {
            final long n = stats.malformed(reason);
            if (n > 0)
            {
                drops.put("ingress:" + PacketFlyweight.malformedReasonName(reason), n);
                dropped += n;
            }
        }
        final List<Object> vnfs = new ArrayList<>();
        final Map<String, Object> alerts = new LinkedHashMap<>();
        for (int i = 0; i < runtime.size(); i++)
        {
            final VnfInstance vnf = runtime.instance(i);
            final Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", vnf.name());
            v.put("type", vnf.type());
            v.put("packets", stats.visits(i));
            v.put("aborted_transactions", stats.aborts(i));
            final Map<String, Object> counters = new LinkedHashMap<>();
            for (final VnfCounter c : vnf.counters().values())
            {
                counters.put(c.name(), c.get());
            }
            v.put("counters", counters);
            vnfs.add(v);
            for (int reason = 1; reason < vnf.dropReasons().size(); reason++)
            {
                final long n = stats.drops(i, reason);
                if (n > 0)
                {
                    drops.put(vnf.name() + ":" + vnf.dropReasons().get(reason), n);
                    dropped += n;
                }
            }
            for (int type = 0; type < vnf.alertTypes().size(); type++)
            {
                final long n = stats.alerts(i, type);
                if (n > 0)
                {
                    alerts.put(vnf.name() + ":" + vnf.alertTypes().get(type), n);
                }
            }
        }
        final Map<String, Object> packets = new LinkedHashMap<>();
        packets.put("in", in);
        packets.put("forwarded", stats.forwarded());
        packets.put("dropped", dropped);
        packets.put("unreadable_records", sourceStats.unreadableRecords());
        packets.put("oversized_frames", sourceStats.oversizedFrames());
        root.put("packets", packets);
        root.put("drops", drops);
        root.put("alerts", alerts);
        root.put("vnfs", vnfs);
        if (!sourceStats.warnings().isEmpty())
        {
            root.put("source_warnings", List.copyOf(sourceStats.warnings()));
        }

        final double seconds = wallNs / 1e9;
        final Map<String, Object> throughput = new LinkedHashMap<>();
        throughput.put("wall_seconds", round(seconds, 3));
        throughput.put("packets_per_second", seconds > 0 ? Math.round(in / seconds) : 0);
        root.put("throughput", throughput);

        final Histogram h = stats.latencyNs();
        final Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("unit", "microseconds");
        latency.put("p50", round(h.getValueAtPercentile(50) / 1e3, 3));
        latency.put("p99", round(h.getValueAtPercentile(99) / 1e3, 3));
        latency.put("p99_9", round(h.getValueAtPercentile(99.9) / 1e3, 3));
        latency.put("max", round(h.getMaxValue() / 1e3, 3));
        root.put("latency", latency);
        if (!executorSummary.isEmpty())
        {
            root.put("scheduler", executorSummary);
        }
        return new RunReport(root);
    }

    /**
     * Records that the measured run followed a warm-up on a separate engine: the throughput
     * and latency figures then describe a warm JVM.
     *
     * @param packets packets the warm-up ran.
     * @param wallNs  its wall-clock duration.
     * @return this report.
     */
    public RunReport withWarmUp(final long packets, final long wallNs)
    {
        final Map<String, Object> warmUp = new LinkedHashMap<>();
        warmUp.put("packets", packets);
        warmUp.put("wall_seconds", round(wallNs / 1e9, 3));
        root.put("warm_up", warmUp);
        return this;
    }

    /** @return the report as nested maps and lists (the JSON shape). */
    public Map<String, Object> toMap()
    {
        return root;
    }

    /** @return the report as aligned text for a terminal. */
    @SuppressWarnings("unchecked")
    public String toText()
    {
        final StringBuilder out = new StringBuilder();
        final Map<String, Object> packets = (Map<String, Object>)root.get("packets");
        final Map<String, Object> throughput = (Map<String, Object>)root.get("throughput");
        final Map<String, Object> latency = (Map<String, Object>)root.get("latency");
        line(out, "chain", root.get("chain") + " (" + root.get("executor") + ")");
        line(out, "source", root.get("source"));
        line(out, "packets in", number(packets.get("in")));
        line(out, "forwarded", number(packets.get("forwarded")));
        line(out, "dropped", number(packets.get("dropped")));
        if (((Number)packets.get("unreadable_records")).longValue() > 0)
        {
            line(out, "unreadable records", number(packets.get("unreadable_records")));
        }
        section(out, "drops by stage:reason", (Map<String, Object>)root.get("drops"));
        section(out, "alerts", (Map<String, Object>)root.get("alerts"));
        out.append("VNFs\n");
        for (final Object o : (List<Object>)root.get("vnfs"))
        {
            final Map<String, Object> v = (Map<String, Object>)o;
            out.append(String.format(Locale.ROOT, "  %-24s %s, %s packets, %s aborted transactions%n",
                v.get("name"), v.get("type"), number(v.get("packets")), number(v.get("aborted_transactions"))));
            for (final Map.Entry<String, Object> c : ((Map<String, Object>)v.get("counters")).entrySet())
            {
                out.append(String.format(Locale.ROOT, "    %-32s %s%n", c.getKey(), number(c.getValue())));
            }
        }
        if (root.containsKey("source_warnings"))
        {
            out.append("source warnings\n");
            for (final Object w : (List<Object>)root.get("source_warnings"))
            {
                out.append("  ").append(w).append('\n');
            }
        }
        if (root.containsKey("warm_up"))
        {
            final Map<String, Object> warmUp = (Map<String, Object>)root.get("warm_up");
            line(out, "warm-up", number(warmUp.get("packets")) + " packets in " + warmUp.get("wall_seconds")
                + " s on a separate engine, not counted below");
        }
        line(out, "throughput", number(throughput.get("packets_per_second")) + " packets/s over "
            + throughput.get("wall_seconds") + " s");
        line(out, "latency (us)", "p50 " + latency.get("p50") + "  p99 " + latency.get("p99")
            + "  p99.9 " + latency.get("p99_9") + "  max " + latency.get("max"));
        if (root.containsKey("scheduler"))
        {
            out.append("scheduler\n");
            for (final Map.Entry<String, Object> e : ((Map<String, Object>)root.get("scheduler")).entrySet())
            {
                out.append(String.format(Locale.ROOT, "  %-32s %s%n", e.getKey(), e.getValue() instanceof Number
                    ? number(e.getValue()) : String.valueOf(e.getValue())));
            }
        }
        return out.toString();
    }

    private static void section(final StringBuilder out, final String title, final Map<String, Object> entries)
    {
        if (entries.isEmpty())
        {
            line(out, title, "none");
            return;
        }
        out.append(title).append('\n');
        for (final Map.Entry<String, Object> e : entries.entrySet())
        {
            out.append(String.format(Locale.ROOT, "  %-32s %s%n", e.getKey(), number(e.getValue())));
        }
    }

    private static void line(final StringBuilder out, final String key, final Object value)
    {
        out.append(String.format(Locale.ROOT, "%-20s %s%n", key, value));
    }

    private static String number(final Object value)
    {
        return value instanceof Long || value instanceof Integer
            ? String.format(Locale.ROOT, "%,d", ((Number)value).longValue()) : String.valueOf(value);
    }

    private static double round(final double value, final int digits)
    {
        final double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
