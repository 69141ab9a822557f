package io.transnfv.flink.job;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.chain.VnfCounters;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.flink.operator.CommittedOutputs;
import io.transnfv.flink.operator.OutputPart;
import io.transnfv.flink.operator.ResumeMarks;
import io.transnfv.vnf.instance.TableCatalog;
import org.HdrHistogram.Histogram;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What a Flink run committed, read back from its output directory, with Flink's facts about
 * the job. Per subtask: the records in the order its engine finished them, the forwarded frames,
 * the final counters and state dump. Immutable once read.
 */
public final class FlinkRunResult
{
    private final ChainRuntime runtime;
    private final Partitioning partitioning;
    private final int parallelism;
    /** The last job's subtasks first, then those of earlier jobs of a resumed run that the last one did not have. */
    private final Subtask[] subtasks;
    private final SourceStats sourceStats;
    private final FlinkCheckpoints checkpoints;
    private final long batches;
    private final long wallNs;
    private final Resumed resumed;
    /** When the job read its first packet, in epoch microseconds; -1 if it read none. */
    private final long firstReadMicros;
    /** True for where a stopped job stands ({@link #readStopped}): counters and state, no records. */
    private boolean atStop;

    /**
     * How a run resumed from a stop with a savepoint ({@link FlinkRunner#resume}).
     *
     * @param fromParallelism the parallelism of the job stopped.
     * @param atPacket        packets read before the stop.
     * @param pauseMicros     from the stop being asked to the first packet a subtask handed its engine
     *                        after the resume, in microseconds of wall time; -1 if no packet followed.
     */
    public record Resumed(int fromParallelism, long atPacket, long pauseMicros)
    {
    }

    /**
     * The job's processing time: from its first packet read to the last packet a subtask's engine
     * emitted, in wall time; it leaves out the cluster's start, the job's deployment and its end,
     * and covers restarts after failures within the job.
     *
     * @param packets packets of the traffic the job read: the run's, less those before the stop it resumed from.
     * @param micros  microseconds from the first packet read to the last emitted.
     */
    public record Processing(long packets, long micros)
    {
        /** @return packets per second of processing time. */
        public double packetsPerSecond()
        {
            return micros <= 0 ? 0 : packets * 1e6 / micros;
        }
    }

    /** One subtask's committed outputs. */
    private static final class Subtask
    {
        final List<Long> recordSequences = new ArrayList<>();
        final List<String> records = new ArrayList<>();
        final List<Frame> frames = new ArrayList<>();
        long[] counters;
        long[] vnfCounters;
        String stateDump;
        Histogram latencyNs;
        long latencyOverflows;
        long lastEmitMicros = -1;
        int attempt = -1;
    }

    private record Frame(long sequence, long timeNs, int wireLength, int linkType, byte[] bytes)
    {
    }

    private FlinkRunResult(final ChainRuntime runtime, final Partitioning partitioning, final int parallelism, final Subtask[] subtasks,
        final SourceStats sourceStats, final FlinkCheckpoints checkpoints, final long batches, final long wallNs, final Resumed resumed,
        final long firstReadMicros)
    {
        this.firstReadMicros = firstReadMicros;
        this.resumed = resumed;
        this.runtime = runtime;
        this.partitioning = partitioning;
        this.parallelism = parallelism;
        this.subtasks = subtasks;
        this.sourceStats = sourceStats;
        this.checkpoints = checkpoints;
        this.batches = batches;
        this.wallNs = wallNs;
    }

    /**
     * Reads the committed parts of a finished job.
     *
     * @throws IOException if a part cannot be read, or a subtask committed no end (the job did not finish).
     */
    static FlinkRunResult read(final Path directory, final ChainRuntime runtime, final Partitioning partitioning,
        final int parallelism, final SourceStats sourceStats, final FlinkCheckpoints checkpoints, final long batches,
        final long wallNs, final Resumed resumed) throws IOException
    {
        return read(directory, CommittedOutputs.COMMITTED, runtime, partitioning, parallelism, sourceStats, checkpoints, batches,
            wallNs, resumed);
    }

    /**
     * Reads where a job stopped with a savepoint stands: each subtask's counters, VNF counters,
     * state and latencies at the stop's cut ({@link ResumeMarks#STOPPED}), with no records or
     * frames (those are the whole run's, read by the job that runs to the end). Its stats and
     * state entries are the run's up to the stop.
     *
     * @throws IOException if a subtask left no end at the stop.
     */
    static FlinkRunResult readStopped(final Path directory, final ChainRuntime runtime, final Partitioning partitioning,
        final int parallelism, final SourceStats sourceStats, final FlinkCheckpoints checkpoints, final long batches,
        final long wallNs, final Resumed resumed) throws IOException
    {
        final FlinkRunResult stopped = read(directory, ResumeMarks.STOPPED, runtime, partitioning, parallelism, sourceStats,
            checkpoints, batches, wallNs, resumed);
        stopped.atStop = true;
        return stopped;
    }

    private static FlinkRunResult read(final Path directory, final String under, final ChainRuntime runtime,
        final Partitioning partitioning, final int parallelism, final SourceStats sourceStats, final FlinkCheckpoints checkpoints,
        final long batches, final long wallNs, final Resumed resumed) throws IOException
    {
        final List<Path> parts = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory.resolve(under), "*.part"))
        {
            files.forEach(parts::add);
        }
        parts.sort(Comparator.comparing(p -> p.getFileName().toString()));
        // a run resumed at a lower parallelism has parts of subtasks the last job did not have
        int slots = parallelism;
        for (final Path part : parts)
        {
            slots = Math.max(slots, 1 + Integer.parseInt(part.getFileName().toString().substring(0, 4)));
        }
        final Subtask[] all = new Subtask[slots];
        for (int i = 0; i < slots; i++)
        {
            all[i] = new Subtask();
        }
        final Subtask[] subtasks = all;
        for (final Path part : parts)
        {
            final int index = Integer.parseInt(part.getFileName().toString().substring(0, 4));
            final Subtask s = subtasks[index];
            // buffered: a part is read a field at a time, and each unbuffered read is a system call
            try (InputStream in = new BufferedInputStream(Files.newInputStream(part), 1 << 16))
            {
                OutputPart.read(in, new OutputPart.Visitor()
                {
                    @Override
                    public void record(final long sequence, final String line)
                    {
                        s.recordSequences.add(sequence);
                        s.records.add(line);
                    }

                    @Override
                    public void frame(final long sequence, final long timeNs, final int wireLength, final int linkType, final byte[] frame)
                    {
                        s.frames.add(new Frame(sequence, timeNs, wireLength, linkType, frame));
                    }

                    @Override
                    public void end(final int attempt, final long[] counters, final long[] vnfCounters, final String stateDump,
                        final Histogram latencyNs, final long latencyOverflows, final long lastEmitMicros)
                    {
                        s.lastEmitMicros = lastEmitMicros;
                        s.attempt = attempt;
                        s.latencyNs = latencyNs;
                        s.latencyOverflows = latencyOverflows;
                        s.counters = counters;
                        s.vnfCounters = vnfCounters;
                        s.stateDump = stateDump;
                    }
                });
            }
        }
        for (int i = parallelism; i < slots; i++)
        {
            if (all[i].counters != null)
            {
                throw new IOException("subtask " + i + " committed an end of its run in " + directory + ", but the run ended at"
                    + " parallelism " + parallelism + ": the directory holds another run's outputs");
            }
        }
        for (int i = 0; i < parallelism; i++)
        {
            if (subtasks[i].counters == null)
            {
                throw new IOException("subtask " + i + " committed no end of its run in " + directory
                    + ": the job did not finish cleanly");
            }
            // the summary reads the VNFs' counters off the runtime's instances
            VnfCounters.add(runtime, subtasks[i].vnfCounters);
        }
        return new FlinkRunResult(runtime, partitioning, parallelism, all, sourceStats, checkpoints, batches, wallNs, resumed,
            ResumeMarks.firstReadMicros(directory).orElse(-1));
    }

    /** @return the engines' parallelism. */
    public int parallelism()
    {
        return parallelism;
    }

    /** @return how the run resumed from a stop with a savepoint; null if it did not. */
    public Resumed resumed()
    {
        return resumed;
    }

    /** @return how the chain was partitioned. */
    public Partitioning partitioning()
    {
        return partitioning;
    }

    /** @return the runtime the counters refer to (VNF names, tables). */
    public ChainRuntime runtime()
    {
        return runtime;
    }

    /**
     * @return subtask {@code i}'s committed records, in the order its engine finished them; in a
     *         resumed run, those of subtask index {@code i} in every job of the run, job after job.
     */
    public List<String> records(final int i)
    {
        return List.copyOf(subtasks[i].records);
    }

    /** @return subtask {@code i}'s final state dump. */
    public String stateDump(final int i)
    {
        return subtasks[i].stateDump;
    }

    /** @return packets subtask {@code i} finished, over every attempt (and, in a resumed run, every job). */
    public long packets(final int i)
    {
        return subtasks[i].records.size();
    }

    /** @return subtask {@code i}'s final VNF counters ({@link VnfCounters} order), restored ones included. */
    public long[] vnfCounters(final int i)
    {
        return subtasks[i].vnfCounters.clone();
    }

    /** @return subtask {@code i}'s final counters, restored ones included. */
    public long[] counters(final int i)
    {
        return subtasks[i].counters.clone();
    }

    /** @return the restarts Flink made: the attempt number of the subtasks' last run. */
    public int restarts()
    {
        int restarts = 0;
        for (final Subtask s : last())
        {
            restarts = Math.max(restarts, s.attempt);
        }
        return restarts;
    }

    /** @return checkpoints Flink completed. */
    public long checkpointsCompleted()
    {
        return checkpoints.completed();
    }

    /** @return checkpoints that failed or were declined. */
    public long checkpointsFailed()
    {
        return checkpoints.failed();
    }

    /** @return Flink's figures for the job's checkpoints: counts, durations, state sizes. */
    public FlinkCheckpoints checkpoints()
    {
        return checkpoints;
    }

    /**
     * @return the job's processing time and the packets it read in it ({@link Processing}), or null
     *         if it read or emitted none.
     */
    public Processing processing()
    {
        long lastEmitMicros = -1;
        for (final Subtask s : last())
        {
            lastEmitMicros = Math.max(lastEmitMicros, s.lastEmitMicros);
        }
        if (firstReadMicros < 0 || lastEmitMicros < firstReadMicros)
        {
            return null;
        }
        // a resumed job's counters include the packets before its stop, which it did not read
        final long packets = stats().packetsFinished() - (resumed == null ? 0 : resumed.atPacket());
        return new Processing(packets, lastEmitMicros - firstReadMicros);
    }

    /** @return read batches the traffic made. */
    public long batches()
    {
        return batches;
    }

    /**
     * @return wall time of the whole run: from the cluster's start (on a cluster, the job's
     *         submission) to the job's end, deployment and the final checkpoint included.
     */
    public long wallNs()
    {
        return wallNs;
    }

    /** @return what the traffic's source reported when it was read through. */
    public SourceStats sourceStats()
    {
        return sourceStats;
    }

    /**
     * @return every subtask's counters and latencies added up, as a standalone run's stats. A
     *         subtask's latencies are those of its last attempt: after a restore, the packets it
     *         processed before the failure are counted, but not timed.
     */
    public RunStats stats()
    {
        final RunStats total = new RunStats(runtime);
        for (final Subtask s : last())
        {
            total.addCounters(s.counters);
            total.addLatencies(s.latencyNs, s.latencyOverflows);
        }
        return total;
    }

    /** @return every table's entries over all subtasks, in the catalogue's order. */
    public long[] liveEntries()
    {
        final TableCatalog catalog = runtime.catalog();
        final long[] entries = new long[catalog.size()];
        for (final Subtask s : last())
        {
            for (final String line : lines(s.stateDump))
            {
                final String table = line.substring(0, line.indexOf(' '));
                for (int t = 0; t < entries.length; t++)
                {
                    if (catalog.qualifiedName(t).equals(table))
                    {
                        entries[t]++;
                        break;
                    }
                }
            }
        }
        return entries;
    }

    /** @return every subtask's records, in arrival order (by sequence). */
    public List<String> unionRecords()
    {
        final List<long[]> order = new ArrayList<>();
        for (int i = 0; i < subtasks.length; i++)
        {
            for (int r = 0; r < subtasks[i].records.size(); r++)
            {
                order.add(new long[] {subtasks[i].recordSequences.get(r), i, r});
            }
        }
        order.sort(Comparator.comparingLong((long[] o) -> o[0]));
        final List<String> lines = new ArrayList<>(order.size());
        for (final long[] o : order)
        {
            lines.add(subtasks[(int)o[1]].records.get((int)o[2]));
        }
        return lines;
    }

    /** Writes {@link #unionRecords()}, a line each. */
    public void writeRecords(final Writer out) throws IOException
    {
        for (final String line : unionRecords())
        {
            out.write(line);
            out.write('\n');
        }
    }

    /**
     * Writes every forwarded frame, in arrival order, as a pcap file.
     *
     * @return frames written.
     */
    public long writePcap(final Path file) throws IOException
    {
        final List<Frame> frames = new ArrayList<>();
        for (final Subtask s : subtasks)
        {
            frames.addAll(s.frames);
        }
        frames.sort(Comparator.comparingLong(Frame::sequence));
        try (PcapWriter pcap = frames.isEmpty() ? PcapWriter.create(file) : PcapWriter.create(file, frames.get(0).linkType()))
        {
            for (final Frame f : frames)
            {
                pcap.write(f.bytes(), 0, f.bytes().length, f.timeNs(), f.wireLength());
            }
            pcap.flush();
        }
        return frames.size();
    }

    /**
     * Writes the union of the subtasks' final states: tables in the catalogue's order, within a
     * table each subtask's entries in turn (keys ascending within each).
     */
    public void writeState(final Writer out) throws IOException
    {
        final TableCatalog catalog = runtime.catalog();
        for (int t = 0; t < catalog.size(); t++)
        {
            final String prefix = catalog.qualifiedName(t) + " ";
            for (final Subtask s : last())
            {
                for (final String line : lines(s.stateDump))
                {
                    if (line.startsWith(prefix))
                    {
                        out.write(line);
                        out.write('\n');
                    }
                }
            }
        }
    }

    /** @return the union of the subtasks' state dump lines, sorted: equal to a standalone dump's sorted lines when the subtasks are independent. */
    public List<String> unionStateLinesSorted()
    {
        final List<String> all = new ArrayList<>();
        for (final Subtask s : last())
        {
            all.addAll(lines(s.stateDump));
        }
        all.sort(null);
        return all;
    }

    /** @return the Flink facts for the summary, one line each. */
    public List<String> facts()
    {
        final List<String> facts = new ArrayList<>();
        facts.add(String.format(Locale.ROOT, "flink                %d subtasks, routed by %s (%s), %,d read batches",
            parallelism, routingName(), partitioning.reason(), batches));
        facts.add("flink checkpoints    " + checkpointsFact());
        facts.add("flink rate           " + rateFact());
        // a resumed run's packets are those its subtask indexes committed over every job, its state the last job's
        final StringBuilder per = new StringBuilder(atStop ? "flink subtasks       at the stop, " : resumed == null
            ? "flink subtasks       " : "flink subtasks       over the run's jobs, ");
        for (int i = 0; i < subtasks.length; i++)
        {
            per.append(i == 0 ? "" : "; ").append(i).append(": ");
            // a stopped job's records are the whole run's, read by the job that runs to the end
            if (!atStop)
            {
                per.append(String.format(Locale.ROOT, "%,d packets", subtasks[i].records.size())).append(i < parallelism ? ", " : "");
            }
            if (i < parallelism)
            {
                per.append(String.format(Locale.ROOT, "%,d state entries", lines(subtasks[i].stateDump).size()));
            }
        }
        facts.add(per.toString());
        if (resumed != null)
        {
            facts.add(String.format(Locale.ROOT, "flink resumed        from a savepoint after %,d packets, parallelism %d -> %d; pause %s",
                resumed.atPacket(), resumed.fromParallelism(), parallelism, resumed.pauseMicros() < 0 ? "not measured (no packet followed)"
                    : String.format(Locale.ROOT, "%,.1f ms from the stop to the first packet after it", resumed.pauseMicros() / 1000.0)));
        }
        if (!partitioning.independent())
        {
            facts.add("flink per-subtask    " + String.join(", ", partitioning.perSubtask())
                + " (each subtask keeps its own: the union is not the standalone run)");
        }
        return facts;
    }

    /** @return the checkpoints' line: Flink's counts, then its durations and state sizes of the completed ones. */
    private String checkpointsFact()
    {
        if (checkpoints.completed() < 0)
        {
            return String.format(Locale.ROOT, "not given by the JobManager; restarts %d", restarts());
        }
        final StringBuilder fact = new StringBuilder(String.format(Locale.ROOT, "%,d completed, %,d failed or declined; restarts %d",
            checkpoints.completed(), checkpoints.failed(), restarts()));
        if (checkpoints.measured())
        {
            fact.append(String.format(Locale.ROOT, "; duration %s ms p50, %,d ms max; state %,d bytes latest, %,d bytes max",
                checkpoints.p50DurationMs() < 0 ? "?" : String.format(Locale.ROOT, "%,.1f", checkpoints.p50DurationMs()),
                checkpoints.maxDurationMs(), checkpoints.latestStateBytes(), checkpoints.maxStateBytes()));
        }
        return fact.toString();
    }

    /** @return the rates' line: the whole run's (as the summary's throughput), then the job's processing. */
    private String rateFact()
    {
        final double wallSeconds = wallNs / 1e9;
        final long in = stats().packetsFinished();
        final String whole = String.format(Locale.ROOT, "whole run %,d packets/s over %,.3f s (from the cluster's start)",
            wallSeconds > 0 ? Math.round(in / wallSeconds) : 0, wallSeconds);
        final Processing processing = processing();
        if (processing == null)
        {
            return whole + "; processing not measured (no packet read and emitted)";
        }
        return whole + String.format(Locale.ROOT, "; processing %,d packets/s over %,.3f s (%,d packets, first read to last emitted)",
            Math.round(processing.packetsPerSecond()), processing.micros() / 1e6, processing.packets());
    }

    /** @return the run's Flink part of the report: layout, processing rate, checkpoint figures. */
    public RunReport.FlinkReport report()
    {
        final Processing p = processing();
        final RunReport.FlinkReport.Processing processing = p == null ? null
            : new RunReport.FlinkReport.Processing(p.micros() / 1e6, p.packets(), Math.round(p.packetsPerSecond()));
        final FlinkCheckpoints c = checkpoints;
        final RunReport.FlinkReport.CheckpointFigures figures = c.completed() < 0 ? null
            : new RunReport.FlinkReport.CheckpointFigures(c.completed(), c.failed(),
                c.measured() && c.p50DurationMs() >= 0 ? Double.valueOf(Math.round(c.p50DurationMs() * 1000) / 1000.0) : null,
                c.measured() ? Long.valueOf(c.maxDurationMs()) : null, c.measured() ? Long.valueOf(c.latestStateBytes()) : null,
                c.measured() ? Long.valueOf(c.maxStateBytes()) : null);
        return new RunReport.FlinkReport(parallelism, routingName(), batches, restarts(), processing, figures);
    }

    private String routingName()
    {
        return partitioning.routing().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private List<Subtask> last()
    {
        return Arrays.asList(subtasks).subList(0, parallelism);
    }

    private static List<String> lines(final String dump)
    {
        return dump.isEmpty() ? List.of() : Arrays.asList(dump.split("\n"));
    }
}
