package io.transnfv.engine.report;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The end-of-run report: what ran, on what, where its outputs went, what came in and went
 * out, what was dropped where and why, alerts and their subjects, per-VNF counters,
 * throughput, latency percentiles and, for the transactional engine, how it scheduled.
 * One typed model rendered two ways: {@link #toText()} for a terminal, and JSON by the
 * command (its components, in snake_case, are the JSON keys; {@code docs/run-report.schema.json}
 * is the schema, version {@link #SCHEMA_VERSION}).
 *
 * <p>Immutable. Built once after the run, from {@link RunStats} and the source's
 * {@link SourceStats}, with a {@link Builder}.
 *
 * @param schemaVersion    {@link #SCHEMA_VERSION}; raised when a field changes meaning or goes away.
 * @param transnfvVersion  the product version that wrote the report.
 * @param chain            the chain's name.
 * @param executor         what ran the chain and with which settings.
 * @param source           the packet source's description.
 * @param outputs          the files the run wrote; null fields for those not asked for.
 * @param packets          packets in, forwarded and dropped, and what the source could not read.
 * @param drops            dropped packets by stage and reason, ingress first, then VNFs in chain order.
 * @param alerts           alerts by VNF and type, with their subjects.
 * @param vnfs             per VNF: packets, aborted transactions, counters, in chain order.
 * @param sourceWarnings   what the source warned about (unreadable records with their offsets).
 * @param warmUp           the warm-up run before this one, or null.
 * @param pacing           how a paced replay offered the packets and how many it dropped at ingress, or null.
 * @param throughput       wall-clock time and packets per second.
 * @param latencyUs        per-packet latency percentiles in microseconds.
 * @param scheduler        how the transactional engine scheduled, or null for the serial oracle.
 * @param faults           what VNF code threw, by VNF, callback and exception class (the packets are
 *                         also among the drops, as {@code <vnf>:vnf-error}); empty if nothing threw.
 * @param state            committed entries per table and heap in use at the end of the run, or
 *                         null if the executor cannot tell.
 * @param checkers         what the VNFs' state checkers found during the run and on the final state,
 *                         or null if they were not run (a run that failed, an executor that cannot).
 * @param checkpoints      what checkpoints did (taken, cost, the resume), or null if none were on.
 * @param stopped          why the run stopped before the end of its traffic (a signal, the error
 *                         bound), or null if it ran to the end.
 * @param paramChanges     the VNF parameters changed while the run went on ({@code POST /params/<vnf>},
 *                         or a change script replayed), each with the packet position it took effect
 *                         at, in that order; null if none changed. The list is a change script:
 *                         {@code verify --param-changes} replays it.
 * @param tenants          per tenant of a chain of tenants (docs/tenants.md): packets in, forwarded
 *                         and dropped by stage and reason, in the order written; empty for a chain
 *                         without tenants.
 * @param flink            a run on Apache Flink: its layout, its processing rate beside {@code throughput}
 *                         (the whole run's) and Flink's checkpoint figures; null for a standalone run.
 */
public record RunReport(
    int schemaVersion,
    String transnfvVersion,
    String chain,
    ExecutorReport executor,
    String source,
    OutputPaths outputs,
    PacketCounts packets,
    List<DropCount> drops,
    List<AlertReport> alerts,
    List<VnfReport> vnfs,
    List<String> sourceWarnings,
    WarmUp warmUp,
    Pacing pacing,
    Throughput throughput,
    Latency latencyUs,
    SchedulerReport scheduler,
    List<FaultReport> faults,
    StateSize state,
    CheckerReport checkers,
    Checkpoints checkpoints,
    Stop stopped,
    List<ParamChanges.Applied> paramChanges,
    List<TenantReport> tenants,
    FlinkReport flink)
{
    /** The version of the report's schema, {@code docs/run-report.schema.json}. */
    public static final int SCHEMA_VERSION = 3;

    /** Checks the fields and freezes the lists. */
    public RunReport
    {
        Objects.requireNonNull(transnfvVersion, "transnfvVersion");
        Objects.requireNonNull(chain, "chain");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(packets, "packets");
        Objects.requireNonNull(throughput, "throughput");
        Objects.requireNonNull(latencyUs, "latencyUs");
        drops = List.copyOf(drops);
        alerts = List.copyOf(alerts);
        vnfs = List.copyOf(vnfs);
        sourceWarnings = List.copyOf(sourceWarnings);
        faults = List.copyOf(faults);
        paramChanges = paramChanges == null || paramChanges.isEmpty() ? null : List.copyOf(paramChanges);
        tenants = List.copyOf(tenants);
    }

    /**
     * A run on Apache Flink ({@code docs/flink.md}): how the job was laid out, how fast it
     * processed, and what Flink's checkpoints cost. The report's {@code throughput} is the whole
     * run's, from the cluster's start to the job's end; {@code processing} leaves the start-up and
     * the end out.
     *
     * @param parallelism engines, one per Flink subtask.
     * @param routing     how packets went to the subtasks: {@code host-pair}, {@code source-host} or {@code single}.
     * @param readBatches read batches the traffic made, the unit moved between Flink's operators.
     * @param restarts    restarts after failures: the attempt number of the subtasks' last run.
     * @param processing  from the job's first packet read to the last packet an engine emitted, or
     *                    null if the job read or emitted none.
     * @param checkpoints Flink's figures for the job's checkpoints, savepoints included, or null if
     *                    the JobManager did not give them.
     */
    public record FlinkReport(int parallelism, String routing, long readBatches, int restarts, Processing processing,
        CheckpointFigures checkpoints)
    {
        /**
         * @param seconds          wall time from the first packet read to the last emitted, to the microsecond.
         * @param packets          packets the job read (a resumed job: those after its stop).
         * @param packetsPerSecond packets per second of that time.
         */
        public record Processing(double seconds, long packets, long packetsPerSecond)
        {
        }

        /**
         * @param completed        checkpoints completed.
         * @param failedOrDeclined checkpoints failed or declined.
         * @param durationP50Ms    the median end-to-end duration (trigger to last acknowledgement) of
         *                         the completed ones; null if none completed or Flink kept no histogram.
         * @param durationMaxMs    the longest; null if none completed.
         * @param latestStateBytes the state size of the latest completed one; null if none completed.
         * @param maxStateBytes    the largest state size; null if none completed.
         */
        public record CheckpointFigures(long completed, long failedOrDeclined, Double durationP50Ms, Long durationMaxMs,
            Long latestStateBytes, Long maxStateBytes)
        {
        }
    }

    /**
     * One tenant's share of the run, summed over the VNFs the chain was compiled with for it
     * (its limiter, named after it, and its {@code <tenant>-<vnf>} copies).
     *
     * @param name      the tenant.
     * @param in        packets the classifier gave it.
     * @param forwarded of those, packets that left its chain undropped.
     * @param dropped   of those, packets one of its VNFs dropped.
     * @param drops     the drops by stage and reason, in chain order.
     * @param alerts    alerts its VNFs raised.
     * @param entries   committed entries of its tables at the end of the run (its limiter's bucket
     *                  and its VNFs' tables); null if the report has no state.
     * @param latencyUs the latency of its sampled packets, as the run's; null if none was sampled
     *                  (or the runtime does not record it per tenant).
     */
    public record TenantReport(String name, long in, long forwarded, long dropped, List<DropCount> drops, long alerts,
        Long entries, Latency latencyUs)
    {
        /** Freezes the list. */
        public TenantReport
        {
            drops = List.copyOf(drops);
        }

        /** @return this report with {@code entries} as its tables' entries. */
        TenantReport withEntries(final long entries)
        {
            return new TenantReport(name, in, forwarded, dropped, drops, alerts, entries, latencyUs);
        }
    }

    /**
     * The state at the end of the run: what the tables hold, and the heap it takes with the rest.
     *
     * @param entries       committed entries over every table.
     * @param tables        each table's entries, in the catalogue's order.
     * @param heapUsedBytes heap in use when the report was built.
     * @param heapMaxBytes  the heap's limit ({@code -Xmx}).
     */
    public record StateSize(long entries, List<TableEntries> tables, long heapUsedBytes, long heapMaxBytes)
    {
        /** Freezes the list. */
        public StateSize
        {
            tables = List.copyOf(tables);
        }
    }

    /**
     * @param table    {@code vnf.table}.
     * @param entries  its committed entries.
     * @param capacity the entries it may hold (its own capacity, or the capacity it shares with the
     *                 other tables without one); null for no bound (the fragment tracker's).
     * @param shared   true if the capacity is shared with the other tables without one of their own.
     * @param whenFull {@code reject} or {@code evict}; null without a bound.
     * @param full     true if it refused new entries at the end (full at the last capacity check).
     * @param evicted  entries it evicted over the run ({@code when_full: evict}).
     */
    public record TableEntries(String table, long entries, Long capacity, boolean shared, String whenFull, boolean full, long evicted)
    {
        /** A table's entries without a bound. */
        public TableEntries(final String table, final long entries)
        {
            this(table, entries, null, false, null, false, 0);
        }
    }

    /**
     * One kind of fault in VNF code (see {@code docs/reliability.md}); the first occurrence's
     * stack trace is in the fault log file, not here.
     *
     * @param vnf         the VNF instance.
     * @param callback    {@code preProcess}, {@code state function}, {@code postProcess} or {@code expire}.
     * @param exception   the class of what was thrown.
     * @param packets     packets it was thrown on (for {@code expire}, housekeeping ticks).
     * @param firstPacket the arrival index of the first of them.
     * @param message     the first occurrence's message, or null.
     */
    public record FaultReport(String vnf, String callback, String exception, long packets, long firstPacket, String message)
    {
    }

    /**
     * What checkpoints did in a run.
     *
     * @param directory          where they went.
     * @param taken              checkpoints written, full ones included.
     * @param full               full checkpoints written.
     * @param bytes              bytes written.
     * @param entriesWritten     table entries written.
     * @param entriesVisited     table entries read to write them.
     * @param totalMs            time spent taking them, on the thread that held the batch boundary.
     * @param sinksMs            of which committing the outputs.
     * @param changesMs          of which finding the entries to write.
     * @param fileMs             of which writing the files.
     * @param p50Ms              the median checkpoint's time.
     * @param maxMs              the longest checkpoint's time.
     * @param resumed            the checkpoint the run resumed from, or null for a fresh run.
     * @param outputsAtLeastOnce true for a live source (a port): it cannot be replayed, so outputs sent
     *                           after the last checkpoint before a failure may be sent again.
     */
    public record Checkpoints(String directory, long taken, long full, long bytes, long entriesWritten, long entriesVisited,
        double totalMs, double sinksMs, double changesMs, double fileMs, double p50Ms, double maxMs, Resumed resumed,
        boolean outputsAtLeastOnce)
    {
        /**
         * @param checkpoint the checkpoint's number.
         * @param atPacket   the input position it holds: the run went on from the next packet.
         * @param ms         time to restore it.
         */
        public record Resumed(long checkpoint, long atPacket, double ms)
        {
        }
    }

    /**
     * Why a run stopped before the end of its traffic; everything it read was still finished.
     *
     * @param cause   {@code interrupt} (SIGINT), {@code terminate} (SIGTERM) or {@code error-bound}.
     * @param message what the user is told.
     */
    public record Stop(String cause, String message)
    {
    }

    /**
     * What ran the chain.
     *
     * @param kind                  {@link #TPG} or {@link #SERIAL}, as on the command line.
     * @param description           a one-line description, e.g. {@code tpg adaptive, 2 threads, batches of 256}.
     * @param strategy              the scheduling strategy; null for the serial oracle.
     * @param threads               threads running the chain: for the engine the driver and the executors.
     * @param batchTransactions     a punctuation closes a batch after this many transactions; null for serial.
     * @param punctuationIntervalNs ... or after this much packet time; null for serial.
     */
    public record ExecutorReport(
        String kind, String description, String strategy, int threads, Integer batchTransactions,
        Long punctuationIntervalNs)
    {
        /** The transactional engine. */
        public static final String TPG = "tpg";
        /** The serial oracle. */
        public static final String SERIAL = "serial";

        /** @return the report of the transactional engine running with {@code settings}. */
        public static ExecutorReport tpg(final String description, final String strategy, final RunSettings settings)
        {
            return new ExecutorReport(TPG, description, strategy, settings.resolvedExecutorThreads(),
                settings.punctuationTransactions(), settings.punctuationIntervalNs());
        }

        /** @return the report of the serial oracle: one thread, no batches. */
        public static ExecutorReport serial(final String description)
        {
            return new ExecutorReport(SERIAL, description, null, 1, null, null);
        }
    }

    /**
     * The files a run wrote, as given; null for those not asked for.
     *
     * @param out     forwarded packets (pcap): {@code --out} or the chain's {@code settings.output}.
     * @param records one record per packet ({@code --records}).
     * @param state   the final state dump ({@code --state}).
     * @param report  this report as JSON ({@code --report}).
     */
    public record OutputPaths(String out, String records, String state, String report)
    {
        /** No output files. */
        public static final OutputPaths NONE = new OutputPaths(null, null, null, null);
    }

    /**
     * @param in                packets that entered the chain.
     * @param forwarded         packets out of the chain.
     * @param dropped           packets dropped, at ingress (malformed) or by a VNF.
     * @param unreadableRecords capture records the source could not read.
     * @param oversizedFrames   frames longer than the packet buffer, delivered truncated.
     * @param truncatedFrames   frames captured shorter than on the wire (a snap length): processed on
     *                          their headers when those were captured, else dropped at ingress.
     */
    public record PacketCounts(long in, long forwarded, long dropped, long unreadableRecords, long oversizedFrames,
        long truncatedFrames)
    {
    }

    /**
     * @param stage   {@code ingress} (malformed packets) or the VNF that dropped them.
     * @param reason  why, e.g. {@code truncated-l4} or {@code pool-exhausted}.
     * @param packets packets dropped.
     */
    public record DropCount(String stage, String reason, long packets)
    {
    }

    /**
     * Alerts of one type raised by one VNF.
     *
     * @param vnf               the VNF.
     * @param type              the alert type, e.g. {@code trojan}.
     * @param count             alerts raised.
     * @param subjects          each subject alerted about with its number of alerts, most alerted first;
     *                          at most {@link RunStats#MAX_ALERT_SUBJECTS}.
     * @param subjectsTruncated true if there were more subjects than are listed.
     */
    public record AlertReport(String vnf, String type, long count, List<AlertSubject> subjects, boolean subjectsTruncated)
    {
        /** Freezes the list. */
        public AlertReport
        {
            subjects = List.copyOf(subjects);
        }
    }

    /**
     * @param subject what an alert is about (e.g. a host key), in hexadecimal as in the per-packet records.
     * @param count   alerts about it.
     */
    public record AlertSubject(String subject, long count)
    {
    }

    /**
     * @param name                the VNF's name in the chain.
     * @param type                its type.
     * @param packets             packets it handled.
     * @param abortedTransactions its transactions that aborted.
     * @param counters            its own counters, in its declaration order.
     */
    public record VnfReport(String name, String type, long packets, long abortedTransactions, List<Counter> counters)
    {
        /** Freezes the list. */
        public VnfReport
        {
            counters = List.copyOf(counters);
        }
    }

    /**
     * @param name  the counter, e.g. {@code nat.outbound}.
     * @param value its value at the end of the run.
     */
    public record Counter(String name, long value)
    {
    }

    /**
     * A warm-up on a separate engine before the measured run; the throughput and latency
     * figures then describe a warm JVM.
     *
     * @param packets     packets the warm-up ran.
     * @param wallSeconds its wall-clock duration.
     */
    public record WarmUp(long packets, double wallSeconds)
    {
    }

    /**
     * A paced replay ({@code --rate}): packets offered in wall time through a receive ring of a
     * fixed size; those that arrived while it was full were dropped before the chain, as a NIC's
     * {@code rx_missed}, and are not part of the run's input ({@link PacketCounts#in()} counts
     * the packets delivered).
     *
     * @param rate        {@code original} (a capture's own timing) or the rate, e.g. {@code 250000 packets/s}.
     * @param rxRingSlots slots of the receive ring.
     * @param offered     packets that arrived: delivered plus missed.
     * @param rxMissed    packets that arrived while the ring was full, dropped.
     */
    public record Pacing(String rate, int rxRingSlots, long offered, long rxMissed)
    {
    }

    /**
     * @param wallSeconds      wall-clock duration of the run, to the millisecond.
     * @param packetsPerSecond packets in per wall-clock second.
     */
    public record Throughput(double wallSeconds, long packetsPerSecond)
    {
    }

    /**
     * Per-packet latency from ingress to the end of the chain, in microseconds to the nanosecond.
     *
     * @param p50  median.
     * @param p99  99th percentile.
     * @param p999 99.9th percentile.
     * @param max  the largest.
     */
    public record Latency(double p50, double p99, double p999, double max)
    {
    }

    /** @return a builder of a report. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** Collects a {@link RunReport}: what ran, then what it measured. Not thread-safe. */
    public static final class Builder
    {
        private String transnfvVersion;
        private ExecutorReport executor;
        private String source;
        private OutputPaths outputs = OutputPaths.NONE;
        private String chain;
        private PacketCounts packets;
        private final List<DropCount> drops = new ArrayList<>();
        private final List<AlertReport> alerts = new ArrayList<>();
        private final List<VnfReport> vnfs = new ArrayList<>();
        private List<String> sourceWarnings = List.of();
        private WarmUp warmUp;
        private Pacing pacing;
        private Throughput throughput;
        private Latency latency;
        private SchedulerReport scheduler;
        private final List<FaultReport> faults = new ArrayList<>();
        private StateSize state;
        private CheckerReport checkers;
        private Stop stopped;
        private List<ParamChanges.Applied> paramChanges;
        private Checkpoints checkpoints;
        private final List<TenantReport> tenants = new ArrayList<>();
        /** The chain whose tenants {@link #tenants} reports, to find their tables in the state. */
        private ChainRuntime tenantRuntime;
        private FlinkReport flink;

        private Builder()
        {
        }

        /** @return this builder; see {@link RunReport#transnfvVersion()}. */
        public Builder transnfvVersion(final String version)
        {
            transnfvVersion = version;
            return this;
        }

        /** @return this builder; see {@link RunReport#executor()}. */
        public Builder executor(final ExecutorReport report)
        {
            executor = report;
            return this;
        }

        /** @return this builder; see {@link RunReport#source()}. */
        public Builder source(final String description)
        {
            source = description;
            return this;
        }

        /** @return this builder; see {@link RunReport#outputs()}. */
        public Builder outputs(final OutputPaths paths)
        {
            outputs = paths;
            return this;
        }

        /** @return this builder; see {@link RunReport#scheduler()} (null for none). */
        public Builder scheduler(final SchedulerReport report)
        {
            scheduler = report;
            return this;
        }

        /** @return this builder, recording a warm-up of {@code packetCount} packets in {@code wallNs}. */
        public Builder warmUp(final long packetCount, final long wallNs)
        {
            warmUp = new WarmUp(packetCount, round(wallNs / 1e9, 3));
            return this;
        }

        /** @return this builder, recording how a paced replay offered the packets (see {@link Pacing}). */
        public Builder pacing(final String rate, final int rxRingSlots, final long offered, final long rxMissed)
        {
            pacing = new Pacing(rate, rxRingSlots, offered, rxMissed);
            return this;
        }

        /** The fragment tracker's counters, as a VNF named {@code ingress}, when it saw fragments. */
        private void fragmentReport(final VnfInstance tracker)
        {
            final List<Counter> counters = new ArrayList<>();
            long fragments = 0;
            for (final VnfCounter c : tracker.counters().values())
            {
                counters.add(new Counter(c.name(), c.get()));
                if (!c.name().endsWith(".released") && !c.name().endsWith(".timeouts"))
                {
                    fragments += c.get();
                }
            }
            if (fragments > 0)
            {
                vnfs.add(new VnfReport(tracker.name(), tracker.type(), fragments, 0, counters));
            }
        }

        /**
         * Takes what the run measured: the chain, packets, drops, alerts, VNF counters,
         * source warnings, throughput and latency.
         *
         * @param stats       the run's counters.
         * @param sourceStats what the source read and could not read.
         * @param wallNs      wall-clock duration of the run.
         * @return this builder.
         */
        public Builder measured(final RunStats stats, final SourceStats sourceStats, final long wallNs)
        {
            final ChainRuntime runtime = stats.runtime();
            chain = runtime.spec().name();
            drops.clear();
            alerts.clear();
            vnfs.clear();
            long dropped = 0;
            for (int reason = 1; reason < PacketRecord.INGRESS_REASON_COUNT; reason++)
            {
                final long n = stats.malformed(reason);
                if (n > 0)
                {
                    drops.add(new DropCount("ingress", PacketRecord.ingressReasonName(reason), n));
                    dropped += n;
                }
            }
            for (int i = 0; i < runtime.size(); i++)
            {
                final VnfInstance vnf = runtime.instance(i);
                final List<Counter> counters = new ArrayList<>();
                for (final VnfCounter c : vnf.counters().values())
                {
                    counters.add(new Counter(c.name(), c.get()));
                }
                vnfs.add(new VnfReport(vnf.name(), vnf.type(), stats.visits(i), stats.aborts(i), counters));
                for (int reason = 1; reason < vnf.dropReasons().size(); reason++)
                {
                    final long n = stats.drops(i, reason);
                    if (n > 0)
                    {
                        drops.add(new DropCount(vnf.name(), vnf.dropReasons().get(reason), n));
                        dropped += n;
                    }
                }
                for (int type = 0; type < vnf.alertTypes().size(); type++)
                {
                    final long n = stats.alerts(i, type);
                    if (n > 0)
                    {
                        alerts.add(new AlertReport(vnf.name(), vnf.alertTypes().get(type), n, subjects(stats, i, type),
                            stats.alertSubjectsTruncated(i, type)));
                    }
                }
            }
            fragmentReport(runtime.fragments());
            tenantReports(stats);
            final long in = stats.packetsFinished();
            packets = new PacketCounts(in, stats.forwarded(), dropped, sourceStats.unreadableRecords(),
                sourceStats.oversizedFrames(), sourceStats.truncatedFrames());
            sourceWarnings = List.copyOf(sourceStats.warnings());
            final double seconds = wallNs / 1e9;
            throughput = new Throughput(round(seconds, 3), seconds > 0 ? Math.round(in / seconds) : 0);
            latency = latencyOf(stats.latencyNs());
            tenantRuntime = runtime;
            return this;
        }

        /** Sums the VNF reports and drops of each tenant's VNFs, if the chain was compiled from tenants. */
        private void tenantReports(final RunStats stats)
        {
            final ChainRuntime runtime = stats.runtime();
            tenants.clear();
            for (int t = 0; t < runtime.tenants().size(); t++)
            {
                final Set<String> members = new HashSet<>();
                long raised = 0;
                for (int i = 0; i < runtime.size(); i++)
                {
                    if (runtime.tenantOfInstance(i) == t)
                    {
                        members.add(runtime.instance(i).name());
                        for (int type = 0; type < runtime.instance(i).alertTypes().size(); type++)
                        {
                            raised += stats.alerts(i, type);
                        }
                    }
                }
                final long in = stats.visits(runtime.tenantLimiter(t));
                final List<DropCount> own = drops.stream().filter(d -> members.contains(d.stage())).toList();
                final long dropped = own.stream().mapToLong(DropCount::packets).sum();
                final Histogram h = stats.tenantLatencyNs(t);
                tenants.add(new TenantReport(runtime.tenants().get(t), in, in - dropped, dropped, own, raised, null,
                    h.getTotalCount() == 0 ? null : latencyOf(h)));
            }
        }

        /** @return the percentiles of {@code h} (nanoseconds) in microseconds. */
        private static Latency latencyOf(final Histogram h)
        {
            return new Latency(round(h.getValueAtPercentile(50) / 1e3, 3), round(h.getValueAtPercentile(99) / 1e3, 3),
                round(h.getValueAtPercentile(99.9) / 1e3, 3), round(h.getMaxValue() / 1e3, 3));
        }

        /** @return the tenants' reports with their tables' entries from {@link #state}, if the report has one. */
        private List<TenantReport> tenantsWithEntries(final ChainRuntime runtime)
        {
            if (state == null || tenants.isEmpty() || runtime == null)
            {
                return tenants;
            }
            final Map<String, Integer> tenantOf = new HashMap<>();
            for (int t = 0; t < runtime.catalog().size(); t++)
            {
                tenantOf.put(runtime.catalog().qualifiedName(t), runtime.tenantOfTable(t));
            }
            final long[] entries = new long[tenants.size()];
            for (final TableEntries table : state.tables())
            {
                final int tenant = tenantOf.getOrDefault(table.table(), -1);
                if (tenant >= 0)
                {
                    entries[tenant] += table.entries();
                }
            }
            final List<TenantReport> withEntries = new ArrayList<>(tenants.size());
            for (int t = 0; t < tenants.size(); t++)
            {
                withEntries.add(tenants.get(t).withEntries(entries[t]));
            }
            return withEntries;
        }

        /** @return the subjects of the alerts, most alerted first, then by subject. */
        private static List<AlertSubject> subjects(final RunStats stats, final int instance, final int type)
        {
            record Counted(long subject, long count)
            {
            }
            final List<Counted> counted = new ArrayList<>();
            stats.forEachAlertSubject(instance, type, (subject, count) -> counted.add(new Counted(subject, count)));
            counted.sort(Comparator.comparingLong(Counted::count).reversed()
                .thenComparing(Counted::subject, Long::compareUnsigned));
            return counted.stream().map(c -> new AlertSubject(Long.toHexString(c.subject()), c.count())).toList();
        }

        /** @return this builder; see {@link RunReport#faults()}. */
        public Builder faults(final List<FaultLog.Fault> recorded)
        {
            for (final FaultLog.Fault f : recorded)
            {
                faults.add(new FaultReport(f.vnf(), f.callback(), f.exception(), f.packets(), f.firstSequence(), f.message()));
            }
            return this;
        }

        /**
         * @return this builder; see {@link RunReport#state()}: the heap in use is read now.
         * @param tables  each table's name ({@code vnf.table}), in the catalogue's order.
         * @param entries each table's committed entries, in the same order.
         */
        public Builder state(final List<String> tables, final long[] entries)
        {
            final List<TableEntries> sizes = new ArrayList<>(tables.size());
            for (int t = 0; t < tables.size(); t++)
            {
                sizes.add(new TableEntries(tables.get(t), entries[t]));
            }
            return state(sizes);
        }

        /**
         * @return this builder; see {@link RunReport#state()}: the heap in use is read now.
         * @param tables each table's entries and bounds, in the catalogue's order.
         */
        public Builder state(final List<TableEntries> tables)
        {
            final List<TableEntries> sizes = tables;
            long total = 0;
            for (final TableEntries t : tables)
            {
                total += t.entries();
            }
            final Runtime jvm = Runtime.getRuntime();
            this.state = new StateSize(total, sizes, jvm.totalMemory() - jvm.freeMemory(), jvm.maxMemory());
            return this;
        }

        /**
         * @return this builder; see {@link RunReport#checkers()}. Each violated checker also becomes an
         *         alert ({@link CheckerReport.Violation#alert()}) in the report's alerts.
         */
        public Builder checkers(final CheckerReport report)
        {
            this.checkers = report;
            return this;
        }

        /** @return this builder; see {@link RunReport#checkpoints()}. */
        public Builder checkpoints(final Checkpoints report)
        {
            this.checkpoints = report;
            return this;
        }

        /** @return this builder; see {@link RunReport#flink()}. */
        public Builder flink(final FlinkReport report)
        {
            this.flink = report;
            return this;
        }

        /** @return this builder; see {@link RunReport#stopped()}. */
        public Builder stopped(final String cause, final String message)
        {
            this.stopped = new Stop(cause, message);
            return this;
        }

        /** @return this builder; see {@link RunReport#paramChanges()}. */
        public Builder paramChanges(final List<ParamChanges.Applied> applied)
        {
            this.paramChanges = applied;
            return this;
        }

        /**
         * @return the report.
         * @throws NullPointerException if what ran, the source or the measurements are missing.
         */
        public RunReport build()
        {
            final List<AlertReport> allAlerts = new ArrayList<>(alerts);
            if (checkers != null)
            {
                for (final CheckerReport.Violation v : checkers.violations())
                {
                    allAlerts.add(v.alert());
                }
            }
            return new RunReport(SCHEMA_VERSION, transnfvVersion, chain, executor, source, outputs, packets, drops, allAlerts,
                vnfs, sourceWarnings, warmUp, pacing, throughput, latency, scheduler, faults, state, checkers, checkpoints, stopped,
                paramChanges, tenantsWithEntries(tenantRuntime), flink);
        }
    }

    /** @return the report as aligned text for a terminal. */
    public String toText()
    {
        final StringBuilder out = new StringBuilder();
        line(out, "chain", chain + " (" + executor.description() + ")");
        line(out, "source", source);
        line(out, "packets in", number(packets.in()));
        line(out, "forwarded", number(packets.forwarded()));
        line(out, "dropped", number(packets.dropped()));
        if (packets.unreadableRecords() > 0)
        {
            line(out, "unreadable records", number(packets.unreadableRecords()));
        }
        if (packets.oversizedFrames() > 0)
        {
            // otherwise only visible as drops for truncated headers, which hide that the frames were cut
            line(out, "oversized frames", number(packets.oversizedFrames())
                + " (longer than the packet buffer; processed truncated to it)");
        }
        if (packets.truncatedFrames() > 0)
        {
            line(out, "truncated frames", number(packets.truncatedFrames()) + " (captured shorter than on the wire:"
                + " processed on their headers, dropped at ingress if those were cut)");
        }
        section(out, "drops by stage:reason", drops.stream().map(d -> entry(d.stage() + ":" + d.reason(), d.packets())));
        section(out, "alerts", alerts.stream().map(a -> entry(a.vnf() + ":" + a.type(), a.count())));
        if (!tenants.isEmpty())
        {
            out.append("tenants\n");
            for (final TenantReport t : tenants)
            {
                out.append(String.format(Locale.ROOT, "  %-24s %s in, %s forwarded, %s dropped, %s alerts%s%s%n", t.name(),
                    number(t.in()), number(t.forwarded()), number(t.dropped()), number(t.alerts()),
                    t.entries() == null ? "" : ", " + number(t.entries()) + " entries",
                    t.latencyUs() == null ? "" : String.format(Locale.ROOT, ", latency p50 %.1f / p99 %.1f / p99.9 %.1f us",
                        t.latencyUs().p50(), t.latencyUs().p99(), t.latencyUs().p999())));
                for (final DropCount d : t.drops())
                {
                    out.append(String.format(Locale.ROOT, "    %-32s %s%n", d.stage() + ":" + d.reason(), number(d.packets())));
                }
            }
        }
        if (!faults.isEmpty())
        {
            out.append("faults in VNF code (first stack traces in the fault log)\n");
            for (final FaultReport f : faults)
            {
                out.append(String.format(Locale.ROOT, "  %s %s threw %s on %s packet(s), first #%d%n", f.vnf(), f.callback(),
                    f.exception(), number(f.packets()), f.firstPacket()));
            }
        }
        stateText(out, state);
        checkersText(out, checkers);
        if (stopped != null)
        {
            line(out, "stopped", stopped.message());
        }
        if (paramChanges != null)
        {
            out.append("parameter changes\n");
            for (final ParamChanges.Applied c : paramChanges)
            {
                out.append(String.format(Locale.ROOT, "  at packet %s: %s.%s %s -> %s%n", number(c.atPacket()), c.vnf(),
                    c.parameter(), c.oldValue(), c.newValue()));
            }
        }
        out.append("VNFs\n");
        for (final VnfReport v : vnfs)
        {
            out.append(String.format(Locale.ROOT, "  %-24s %s, %s packets, %s aborted transactions%n",
                v.name(), v.type(), number(v.packets()), number(v.abortedTransactions())));
            for (final Counter c : v.counters())
            {
                out.append(String.format(Locale.ROOT, "    %-32s %s%n", c.name(), number(c.value())));
            }
        }
        if (!sourceWarnings.isEmpty())
        {
            out.append("source warnings\n");
            for (final String w : sourceWarnings)
            {
                out.append("  ").append(w).append('\n');
            }
        }
        if (warmUp != null)
        {
            line(out, "warm-up", number(warmUp.packets()) + " packets in " + warmUp.wallSeconds()
                + " s on a separate engine, not counted below");
        }
        if (pacing != null)
        {
            line(out, "paced", pacing.rate() + " through a " + number(pacing.rxRingSlots()) + "-slot receive ring");
            line(out, "offered", number(pacing.offered()));
            line(out, "rx missed", number(pacing.rxMissed()) + String.format(Locale.ROOT, " (%.2f %% of offered,"
                + " dropped before the chain, not in 'packets in')",
                pacing.offered() == 0 ? 0.0 : 100.0 * pacing.rxMissed() / pacing.offered()));
        }
        line(out, "throughput", number(throughput.packetsPerSecond()) + " packets/s over " + throughput.wallSeconds() + " s");
        line(out, "latency (us)", "p50 " + latencyUs.p50() + "  p99 " + latencyUs.p99() + "  p99.9 " + latencyUs.p999()
            + "  max " + latencyUs.max());
        if (scheduler != null)
        {
            schedulerText(out, scheduler);
        }
        if (checkpoints != null)
        {
            checkpointsText(out, checkpoints);
        }
        return out.toString();
    }

    /** The state's lines: entries in all with the heap in use, then each table's. */
    private static void checkpointsText(final StringBuilder out, final Checkpoints c)
    {
        out.append("checkpoints: ").append(c.taken()).append(" taken (").append(c.full()).append(" full) in ").append(c.directory())
            .append(", ").append(c.bytes()).append(" bytes, ").append(c.entriesWritten()).append(" entries written of ")
            .append(c.entriesVisited()).append(" visited");
        if (c.taken() > 0)
        {
            out.append(String.format(Locale.ROOT, ", %.1f ms in all (sinks %.1f, changes %.1f, file %.1f), %.2f ms p50, %.2f ms max"
                + " per checkpoint", c.totalMs(), c.sinksMs(), c.changesMs(), c.fileMs(), c.p50Ms(), c.maxMs()));
        }
        out.append(System.lineSeparator());
        if (c.resumed() != null)
        {
            out.append(String.format(Locale.ROOT, "resumed from checkpoint %d at packet %d in %.1f ms%n", c.resumed().checkpoint(),
                c.resumed().atPacket(), c.resumed().ms()));
        }
        if (c.outputsAtLeastOnce())
        {
            out.append("outputs at-least-once: a live port cannot be replayed, so packets after the last checkpoint were not"
                + " re-read and outputs sent before the stop may have been sent again").append(System.lineSeparator());
        }
    }

    private static void stateText(final StringBuilder out, final StateSize state)
    {
        if (state == null)
        {
            return;
        }
        line(out, "state entries", number(state.entries()) + " in " + state.tables().size() + " tables (heap in use "
            + mebibytes(state.heapUsedBytes()) + " of " + mebibytes(state.heapMaxBytes()) + ")");
        long shared = -1;
        long sharedEntries = 0;
        boolean sharedFull = false;
        for (final TableEntries t : state.tables())
        {
            if (t.shared())
            {
                shared = t.capacity();
                sharedEntries += t.entries();
                sharedFull |= t.full();
            }
        }
        if (shared >= 0)
        {
            line(out, "state capacity", number(sharedEntries) + " of " + number(shared)
                + " entries shared by the tables without a capacity of their own (a quarter of the heap)"
                + (sharedFull ? ", full: refusing new entries" : ""));
        }
        for (final TableEntries t : state.tables())
        {
            out.append(String.format(Locale.ROOT, "  %-32s %s", t.table(), number(t.entries())));
            if (t.capacity() != null && !t.shared())
            {
                out.append(" of ").append(number(t.capacity()));
            }
            if (t.full() && !t.shared())
            {
                out.append(", full: refusing new entries");
            }
            if (t.evicted() > 0)
            {
                out.append(", ").append(number(t.evicted())).append(" evicted");
            }
            out.append(System.lineSeparator());
        }
    }

    private static String mebibytes(final long bytes)
    {
        return number(bytes >> 20) + " MiB";
    }

    /** The state checkers' lines: one when they held, a line per violated checker otherwise. */
    private static void checkersText(final StringBuilder out, final CheckerReport checkers)
    {
        if (checkers == null)
        {
            return;
        }
        if (checkers.checkers().isEmpty())
        {
            line(out, "checkers", "none enabled");
            return;
        }
        final String which = checkers.checkers().size() + (checkers.checkers().size() == 1 ? " checker" : " checkers");
        final String where = checkers.when() + ", " + number(checkers.checks()) + (checkers.checks() == 1 ? " check" : " checks");
        if (checkers.held())
        {
            line(out, "checkers", which + " held " + where);
            return;
        }
        out.append("checkers VIOLATED ").append(where).append('\n');
        for (final CheckerReport.Violation v : checkers.violations())
        {
            out.append(String.format(Locale.ROOT, "  %s.%s: %s violation(s); first at %s, key %s: %s%n", v.vnf(), v.checker(),
                number(v.count()), v.firstSeen(), v.firstKey(), v.firstMessage()));
        }
    }

    private static void schedulerText(final StringBuilder out, final SchedulerReport s)
    {
        out.append("scheduler\n");
        item(out, "strategy", s.strategy());
        item(out, "workers", number(s.workers()));
        item(out, "batches", number(s.batches()));
        final SchedulerReport.PunctuationReport p = s.punctuation();
        if (p != null)
        {
            item(out, "batch packets", String.format(Locale.ROOT, "%.1f on average, at most %s", p.meanBatchPackets(),
                p.adaptiveBatchLimitMax() > 0 ? number(p.adaptiveBatchLimitMin()) + ".." + number(p.adaptiveBatchLimitMax())
                    + " (latency target " + p.latencyTargetNs() / 1_000 + " us, " + number(p.processingNsPerPacket()) + " ns/packet)"
                    : number(p.batchSizeLimit())));
            item(out, "batches closed by", p.closedBy().stream()
                .map(c -> c.reason() + "=" + number(c.batches())).collect(Collectors.joining(", ")));
        }
        final SchedulerReport.EngagementReport e = s.engagement();
        if (e != null && e.adaptive())
        {
            item(out, "workers engaged", String.format(Locale.ROOT, "one for %.1f %% of the batches, all %d for the rest (%s widenings, %s narrowings)",
                100.0 * e.shareOnOne(), e.workers(), number(e.widened()), number(e.narrowed())));
        }
        item(out, "graphs", number(s.graphs()));
        item(out, "decisions", s.decisions().stream()
            .map(d -> d.policy() + "=" + number(d.graphs())).collect(Collectors.joining(", ")));
        item(out, "reasons", s.reasons().stream()
            .map(r -> r.reason() + "=" + number(r.graphs())).collect(Collectors.joining(", ")));
        item(out, "time ns/packet", shares(s.timeNsPerPacket()));
        for (final SchedulerReport.ThreadReport t : s.threads())
        {
            item(out, "  " + t.name(), String.format(Locale.ROOT, "busy %.1f ns/packet, allocated %s B/packet: %s",
                t.busyNsPerPacket(), t.allocatedBytesPerPacket() < 0 ? "?" : String.format(Locale.ROOT, "%.2f", t.allocatedBytesPerPacket()),
                shares(t.timeNsPerPacket())));
        }
        item(out, "operations executed", number(s.operationsExecuted()));
        item(out, "operations re-executed", number(s.operationsReExecuted()));
        item(out, "transactions aborted", number(s.transactionsAborted()));
        item(out, "independent transactions", number(s.independentTransactions()));
        if (s.stateGrowthBytesPerPacket() >= 0)
        {
            item(out, "state growth", String.format(Locale.ROOT,
                "%.2f B/packet of the threads' allocation: the state tables growing to hold new keys", s.stateGrowthBytesPerPacket()));
        }
    }

    private static String shares(final List<SchedulerReport.TimeShare> shares)
    {
        return shares.stream().filter(t -> t.nsPerPacket() >= 0.05)
            .map(t -> String.format(Locale.ROOT, "%s=%.1f", t.category(), t.nsPerPacket())).collect(Collectors.joining(", "));
    }

    private static String entry(final String key, final long value)
    {
        return String.format(Locale.ROOT, "  %-32s %s%n", key, number(value));
    }

    private static void section(final StringBuilder out, final String title, final Stream<String> entries)
    {
        final List<String> lines = entries.toList();
        if (lines.isEmpty())
        {
            line(out, title, "none");
            return;
        }
        out.append(title).append('\n');
        lines.forEach(out::append);
    }

    private static void item(final StringBuilder out, final String key, final String value)
    {
        out.append(String.format(Locale.ROOT, "  %-32s %s%n", key, value));
    }

    private static void line(final StringBuilder out, final String key, final Object value)
    {
        out.append(String.format(Locale.ROOT, "%-20s %s%n", key, value));
    }

    private static String number(final long value)
    {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static double round(final double value, final int digits)
    {
        final double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
