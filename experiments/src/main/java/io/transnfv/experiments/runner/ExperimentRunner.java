package io.transnfv.experiments.runner;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacedSource;
import io.transnfv.engine.source.PacingRate;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.experiments.baselines.ParallelChainExecutor;
import io.transnfv.experiments.report.ResultWriter;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/**
 * Runs one experiment: for each group of points that share traffic, generates the traffic
 * once, computes the serial oracle's output once, then runs every point's executor — first
 * its warm-up runs (the first scored against the oracle for divergences), then the measured
 * repetitions, interleaved across the group's points so that drift in the machine's speed
 * spreads over all executors alike. Each point's row is appended to {@code data.csv} in
 * {@code <out>/<experiment>/<timestamp>/} the moment its last repetition ends, so an experiment
 * stopped or killed half-way keeps every point it finished; the PNG plots and {@code summary.md}
 * are drawn at the end from all rows ({@link #finishedSoFar()} and {@link ResultWriter#writeReport}
 * draw them from the rows there are when a run is interrupted).
 *
 * <p>Paced points ({@code latency}) come after the unpaced ones of their traffic: the engine's
 * unpaced median is the capacity their offered loads are shares of. Each paced run replays the
 * traffic through a {@link PacedSource} (a NIC-like receive ring that drops when full) and,
 * since drops change its input, is not scored against the oracle. Each paced point first has
 * one paced warm-up run at its own rate: unpaced runs never take the paths of a paced one
 * (batches of a packet or two, a dry input), and the JIT compiling them during a measured run
 * would show as milliseconds of latency that belong to no executor.
 *
 * <p>Run by one thread; {@link #packetsDone()} may be read by any thread for progress.
 */
public final class ExperimentRunner
{
    /** Extra warm-up runs per point of the first traffic group, while the JIT compiles every executor. */
    static final int FIRST_GROUP_EXTRA_WARMUPS = 2;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final ExperimentSettings settings;
    private final List<Point> points;
    private final Path directory;
    private final PointListener afterPoint;
    private final List<Measurement> finished = new CopyOnWriteArrayList<>();
    private final AtomicLong packetsBefore = new AtomicLong();
    private volatile RunStats current;
    /** Guarded by {@code this}: the plots and summary have been written, at the end or on a stop. */
    private boolean reported;

    /** @param settings what to run. */
    public ExperimentRunner(final ExperimentSettings settings)
    {
        this(settings, row -> { });
    }

    /**
     * @param settings   what to run.
     * @param afterPoint called with each point's row once it is in {@code data.csv}.
     */
    ExperimentRunner(final ExperimentSettings settings, final PointListener afterPoint)
    {
        this.settings = settings;
        this.points = settings.experiment().points(settings);
        this.directory = settings.outputRoot().resolve(settings.experiment().label())
            .resolve(LocalDateTime.now().format(STAMP));
        this.afterPoint = afterPoint;
    }

    /** Told when a point's row has been written. */
    @FunctionalInterface
    interface PointListener
    {
        /** @param row the point's measurement, now in {@code data.csv}. */
        void written(Measurement row) throws IOException;
    }

    /** @return where the results go: {@code data.csv} grows there row by row as points finish. */
    public Path directory()
    {
        return directory;
    }

    /** @return the points this run will measure. */
    public List<Point> points()
    {
        return points;
    }

    /**
     * @return every packet the whole experiment will offer to an executor, the oracle included
     *         (a paced point has one warm-up run, paced).
     */
    public long plannedPackets()
    {
        final long groups = points.stream().map(Point::trafficKey).distinct().count();
        final String firstKey = points.get(0).trafficKey();
        long runs = 0;
        for (final Point point : points)
        {
            runs += settings.repetitions();
            if (point.paced())
            {
                runs++;
            }
            else
            {
                runs += settings.warmups() + (point.trafficKey().equals(firstKey) ? FIRST_GROUP_EXTRA_WARMUPS : 0);
            }
        }
        return (runs + groups) * settings.packets();
    }

    /**
     * @return the points finished so far, in the order their rows went to {@code data.csv}, as an
     *         experiment stopped now would leave them; safe from any thread.
     */
    public ExperimentResult finishedSoFar()
    {
        return new ExperimentResult(settings, List.copyOf(finished), directory, MachineInfo.describe());
    }

    /**
     * Writes the plots and {@code summary.md} from the points finished so far, for an experiment
     * that is being stopped (a signal); the run itself is not stopped. Once this has written, the
     * run's own report at its end is not written over it; once that has written, this does nothing.
     *
     * @param why what stopped the experiment, for the summary.
     * @return the points the report holds, or -1 if the run had already written its own.
     * @throws IOException if a file cannot be written.
     */
    public synchronized int reportInterrupted(final String why) throws IOException
    {
        if (reported)
        {
            return -1;
        }
        reported = true;
        final ExperimentResult soFar = finishedSoFar();
        ResultWriter.writeReport(soFar, String.format(Locale.ROOT,
            "%s after %d of %d points; data.csv holds the finished points' rows and this summary is drawn from them.",
            why, soFar.measurements().size(), points.size()));
        return soFar.measurements().size();
    }

    /** @return packets pushed through executors so far; safe from any thread. */
    public long packetsDone()
    {
        final RunStats stats = current;
        return packetsBefore.get() + (stats == null ? 0 : stats.packetsFinished());
    }

    /**
     * Runs every point and writes the results.
     *
     * @return the measurements and where they were written.
     * @throws IOException if the results cannot be written.
     */
    public ExperimentResult run() throws IOException
    {
        final Map<String, List<Point>> groups = new LinkedHashMap<>();
        for (final Point point : points)
        {
            groups.computeIfAbsent(point.trafficKey(), k -> new ArrayList<>()).add(point);
        }
        final List<Measurement> measurements = new ArrayList<>();
        ResultWriter.startCsv(directory);
        boolean first = true;
        for (final List<Point> group : groups.values())
        {
            measurements.addAll(runGroup(group, first));
            first = false;
        }
        final ExperimentResult result = new ExperimentResult(settings, measurements, directory, MachineInfo.describe());
        synchronized (this)
        {
            if (!reported)
            {
                reported = true;
                ResultWriter.writeReport(result, null);
            }
        }
        return result;
    }

    private List<Measurement> runGroup(final List<Point> group, final boolean firstGroup) throws IOException
    {
        final Point first = group.get(0);
        final TrafficCapture capture = TrafficCapture.generate(Experiment.trafficOf(first, settings.packets()));
        final OracleReference oracle = OracleReference.of(Experiment.chainOf(first, settings), capture);
        packetsBefore.addAndGet(capture.packets());
        final int keyCapacity = keyCapacity(capture.packets(), first.newConnRatio());
        final List<Point> unpaced = group.stream().filter(p -> !p.paced()).toList();
        final List<Point> paced = group.stream().filter(Point::paced).toList();

        final Map<Point, OracleReference.Divergences> divergences = new LinkedHashMap<>();
        for (final Point point : unpaced)
        {
            // the first group also warms the JIT for everything after it: more warm-up runs
            final int warmups = settings.warmups() + (firstGroup ? FIRST_GROUP_EXTRA_WARMUPS : 0);
            for (int w = 0; w < warmups; w++)
            {
                final ExecutorKind.Created created = point.executor().create(Experiment.chainOf(point, settings), point.threads(),
                    keyCapacity);
                try (var executor = created.executor())
                {
                    current = executor.stats();
                    if (w == 0)
                    {
                        divergences.put(point, oracle.score(executor, capture));
                    }
                    else
                    {
                        try (PacketSource source = capture.replay())
                        {
                            executor.run(source, null);
                        }
                    }
                }
                finishRun(capture.packets());
            }
        }
        final Map<Point, Measurement> measured = new LinkedHashMap<>();
        measureInterleaved(unpaced, capture, keyCapacity, 0, (point, runs) ->
            finish(measured, summarise(point, capture.packets(), runs, divergences.get(point), Double.NaN)));
        if (!paced.isEmpty())
        {
            final double capacityPps = measured.values().stream()
                .filter(m -> m.point().executor() == ExecutorKind.TRANSNFV).findFirst()
                .orElseThrow(() -> new IllegalStateException("a paced sweep needs the engine's unpaced capacity point"))
                .ppsMedian();
            for (final Point point : paced)
            {
                // a run at the point's rate compiles what paced runs take; its figures are discarded
                measure(point, capture, keyCapacity, capacityPps * point.offeredLoad());
            }
            measureInterleaved(paced, capture, keyCapacity, capacityPps, (point, runs) ->
            {
                // a paced run drops packets, so it cannot be scored against the oracle: it inherits the
                // divergences its executor showed on the whole traffic
                final OracleReference.Divergences sameExecutor = divergences.entrySet().stream()
                    .filter(e -> e.getKey().executor() == point.executor()).map(Map.Entry::getValue).findFirst()
                    .orElse(new OracleReference.Divergences(0, 0));
                finish(measured, summarise(point, capture.packets(), runs, sameExecutor, capacityPps * point.offeredLoad()));
            });
        }
        return group.stream().map(measured::get).toList();
    }

    /** Appends a finished point's row to {@code data.csv} before anything else runs, then tells the listener. */
    private void finish(final Map<Point, Measurement> measured, final Measurement row) throws IOException
    {
        ResultWriter.appendCsv(directory, List.of(row));
        measured.put(row.point(), row);
        finished.add(row);
        afterPoint.written(row);
    }

    /** Takes a point's runs once its last repetition has ended. */
    @FunctionalInterface
    private interface FinishedPoint
    {
        void accept(Point point, Run[] runs) throws IOException;
    }

    /**
     * The measured repetitions of {@code points}, interleaved: repetition 1 of every point, then 2, ...;
     * a point is handed to {@code onFinished} as soon as its last repetition ends.
     *
     * @param capacityPps the engine's capacity, which a paced point's offered load is a share of; 0 if none is paced.
     */
    private void measureInterleaved(
        final List<Point> points, final TrafficCapture capture, final int keyCapacity, final double capacityPps,
        final FinishedPoint onFinished) throws IOException
    {
        final int repetitions = settings.repetitions();
        final Run[][] runs = new Run[points.size()][repetitions];
        for (int r = 0; r < repetitions; r++)
        {
            for (int p = 0; p < points.size(); p++)
            {
                runs[p][r] = measure(points.get(p), capture, keyCapacity, capacityPps * points.get(p).offeredLoad());
                if (r == repetitions - 1)
                {
                    onFinished.accept(points.get(p), runs[p]);
                }
            }
        }
    }

    private Run measure(final Point point, final TrafficCapture capture, final int keyCapacity, final double offeredPps)
        throws IOException
    {
        final ExecutorKind.Created created = point.executor().create(Experiment.chainOf(point, settings), point.threads(), keyCapacity);
        final PacedSource pacedSource = point.paced() ? new PacedSource(capture.replay(), PacingRate.of(offeredPps),
            PacedSource.DEFAULT_RX_RING_SLOTS, System::nanoTime) : null;
        try (var executor = created.executor(); PacketSource source = pacedSource != null ? pacedSource : capture.replay())
        {
            current = executor.stats();
            System.gc();
            final double loadBefore = MachineInfo.loadAverage();
            final long startNs = System.nanoTime();
            final RunStats stats = executor.run(source, null);
            final long wallNs = System.nanoTime() - startNs;
            long transactions = 0;
            long aborts = 0;
            for (int v = 0; v < stats.runtime().size(); v++)
            {
                transactions += stats.visits(v);
                aborts += stats.aborts(v);
            }
            final Histogram latency = stats.latencyNs();
            double stateAccessShare = Double.NaN;
            double syncShare = Double.NaN;
            double lockWaits = Double.NaN;
            EngineBreakdown breakdown = EngineBreakdown.NONE;
            if (executor instanceof BatchedChainExecutor engine)
            {
                breakdown = EngineBreakdown.of(engine);
                stateAccessShare = breakdown.stateAccessShare();
            }
            if (executor instanceof ParallelChainExecutor parallel)
            {
                syncShare = (double)parallel.syncNs() / wallNs;
                if (point.executor() == ExecutorKind.CHC_STYLE)
                {
                    lockWaits = parallel.lockWaits() * 1000.0 / Math.max(1, transactions);
                }
            }
            finishRun(capture.packets());
            final long delivered = pacedSource != null ? pacedSource.delivered() : capture.packets();
            final long offered = pacedSource != null ? pacedSource.offered() : capture.packets();
            final long rxMissed = pacedSource != null ? pacedSource.rxMissed() : 0;
            return new Run(wallNs, transactions, aborts,
                latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
                latency.getValueAtPercentile(99.9) / 1e3, stateAccessShare, syncShare, lockWaits, breakdown,
                loadBefore, MachineInfo.loadAverage(), delivered, (double)rxMissed / Math.max(1, offered), tenantFigures(stats, wallNs));
        }
    }

    /**
     * @return per tenant of a chain of tenants, in the classifier's order: {packets/s its limiter passed
     *         into its chain over the run's wall time, p99 latency in microseconds (NaN if none sampled)}; empty otherwise.
     */
    private static double[][] tenantFigures(final RunStats stats, final long wallNs)
    {
        final ChainRuntime runtime = stats.runtime();
        final double[][] figures = new double[runtime.tenants().size()][];
        for (int t = 0; t < figures.length; t++)
        {
            // what its limiter let into its chain: the tenant's throughput through the chain
            final int limiter = runtime.tenantLimiter(t);
            long packets = stats.visits(limiter);
            for (int reason = 1; reason < runtime.instance(limiter).dropReasons().size(); reason++)
            {
                packets -= stats.drops(limiter, reason);
            }
            final Histogram h = stats.tenantLatencyNs(t);
            figures[t] = new double[] {packets * 1e9 / wallNs, h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1e3};
        }
        return figures;
    }

    private void finishRun(final long packets)
    {
        current = null;
        packetsBefore.addAndGet(packets);
    }

    /**
     * @param offeredPps a paced point's offered rate; {@code NaN} unpaced.
     * @return the point's row: packets/s are the packets delivered to the executor over the wall time.
     */
    private Measurement summarise(
        final Point point, final long packets, final Run[] runs, final OracleReference.Divergences divergences,
        final double offeredPps)
    {
        final double[] pps = new double[runs.length];
        final double[] tps = new double[runs.length];
        for (int r = 0; r < runs.length; r++)
        {
            pps[r] = runs[r].delivered * 1e9 / runs[r].wallNs;
            tps[r] = runs[r].transactions * 1e9 / runs[r].wallNs;
        }
        final boolean latencyExperiment = settings.experiment() == Experiment.LATENCY;
        return new Measurement(settings.experiment().label(), point, packets, runs[0].transactions, runs.length,
            median(pps), Arrays.stream(pps).min().orElse(0), Arrays.stream(pps).max().orElse(0), median(tps),
            median(runs, Run::p50Us), median(runs, Run::p99Us), median(runs, Run::p999Us),
            divergences.records(), divergences.stateEntries(), runs[0].aborts,
            median(runs, Run::stateAccessShare), median(runs, Run::syncShare), median(runs, Run::lockWaitsPer1kTxn),
            max(runs, Run::loadBefore), max(runs, Run::loadAfter), Arrays.stream(runs).anyMatch(r -> MachineInfo.busy(r.loadBefore)),
            medianBreakdown(runs),
            offeredPps, latencyExperiment ? median(pps) : Double.NaN,
            latencyExperiment ? median(runs, Run::dropRate) : Double.NaN,
            Arrays.stream(runs).mapToDouble(Run::p99Us).min().orElse(Double.NaN),
            Arrays.stream(runs).mapToDouble(Run::p99Us).max().orElse(Double.NaN),
            tenantMedians(point, runs));
    }

    /** @return each tenant's median packets/s and p99 over the runs, named as the tenants experiment names them. */
    private static List<Measurement.TenantFigures> tenantMedians(final Point point, final Run[] runs)
    {
        if (!point.tenants() || runs[0].tenants.length == 0)
        {
            return List.of();
        }
        final List<Measurement.TenantFigures> out = new ArrayList<>();
        for (int t = 0; t < runs[0].tenants.length; t++)
        {
            final int tenant = t;
            out.add(new Measurement.TenantFigures(Experiment.TENANT_NAMES.get(t), median(runs, r -> r.tenants[tenant][0]),
                median(runs, r -> r.tenants[tenant][1])));
        }
        return out;
    }

    private static EngineBreakdown medianBreakdown(final Run[] runs)
    {
        if (!runs[0].breakdown.present())
        {
            return EngineBreakdown.NONE;
        }
        final double[] medians = new double[EngineBreakdown.CATEGORIES.length];
        for (int c = 0; c < medians.length; c++)
        {
            final int category = c;
            medians[c] = median(runs, r -> r.breakdown.nsPerPacket()[category]);
        }
        return new EngineBreakdown(medians);
    }

    private static double max(final Run[] runs, final ToDoubleFunction<Run> field)
    {
        double max = Double.NaN;
        for (final Run run : runs)
        {
            final double value = field.applyAsDouble(run);
            max = Double.isNaN(max) || value > max ? value : max;
        }
        return max;
    }

    private static double median(final Run[] runs, final ToDoubleFunction<Run> field)
    {
        final double[] values = new double[runs.length];
        for (int i = 0; i < runs.length; i++)
        {
            values[i] = field.applyAsDouble(runs[i]);
        }
        return median(values);
    }

    /** @return the median of {@code values} (the mean of the middle two for an even count). */
    static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Slots per preallocated shared table: twice the keys a table can be expected to see, so
     * that it stays at most half full and as compact as the engine's growing maps. A per-flow
     * table sees about one key per new connection (a slot is never freed); cross-flow tables
     * see at most the NAT's 64,512 ports or the largest server pool; a quarter more and a floor
     * cover the generator's variance and the connections open at the start.
     */
    static int keyCapacity(final int packets, final double newConnRatio)
    {
        final long expectedKeys = Math.min(packets, (long)Math.ceil(packets * newConnRatio * 1.25)) + 70_000L;
        return Integer.highestOneBit((int)Math.min(1 << 29, 2 * expectedKeys) - 1) << 1;
    }

    private record Run(
        long wallNs, long transactions, long aborts, double p50Us, double p99Us, double p999Us,
        double stateAccessShare, double syncShare, double lockWaitsPer1kTxn, EngineBreakdown breakdown,
        double loadBefore, double loadAfter, long delivered, double dropRate, double[][] tenants)
    {
    }
}
