package io.transnfv.experiments.report;

import io.transnfv.experiments.runner.EngineBreakdown;
import io.transnfv.experiments.runner.ExecutorKind;
import io.transnfv.experiments.runner.Experiment;
import io.transnfv.experiments.runner.ExperimentResult;
import io.transnfv.experiments.runner.ExperimentSettings;
import io.transnfv.experiments.runner.Measurement;
import io.transnfv.experiments.runner.Point;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** Writes an experiment's {@code data.csv}, plots and {@code summary.md} into its directory. */
public final class ResultWriter
{
    /** File names every result directory holds. */
    public static final String CSV = "data.csv";
    /** The summary's file name. */
    public static final String SUMMARY = "summary.md";

    /**
     * @param result the finished experiment.
     * @return the PNG files written.
     * @throws IOException if a file cannot be written.
     */
    public List<Path> write(final ExperimentResult result) throws IOException
    {
        final Path dir = result.directory();
        Files.createDirectories(dir);
        final StringBuilder csv = new StringBuilder(Measurement.CSV_HEADER).append('\n');
        for (final Measurement m : result.measurements())
        {
            csv.append(m.toCsv()).append('\n');
        }
        Files.writeString(dir.resolve(CSV), csv, StandardCharsets.UTF_8);
        final List<Path> plots = plot(result);
        Files.writeString(dir.resolve(SUMMARY), summary(result, plots), StandardCharsets.UTF_8);
        return plots;
    }

    private static List<Path> plot(final ExperimentResult result) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        final Path dir = result.directory();
        final List<Measurement> rows = result.measurements();
        switch (result.settings().experiment())
        {
            case LB_NEW_CONN, CHAIN ->
            {
                for (final Map.Entry<Integer, List<Measurement>> pool : byKey(rows, m -> m.point().servers()).entrySet())
                {
                    final String suffix = result.settings().experiment() == Experiment.CHAIN
                        ? "" : "-servers-" + pool.getKey();
                    final String where = result.settings().experiment() == Experiment.CHAIN
                        ? "nat-lb-td" : "load balancer, " + pool.getKey() + " servers";
                    files.add(LinePlot.draw(dir.resolve("throughput" + suffix + ".png"),
                        "Throughput, " + where, "new connections (%)", "Mpackets/s",
                        series(pool.getValue(), m -> m.point().newConnRatio() * 100, m -> m.ppsMedian() / 1e6), false, false));
                    files.add(LinePlot.draw(dir.resolve("latency-p99" + suffix + ".png"),
                        "Latency p99, " + where, "new connections (%)", "p99 latency (us)",
                        series(pool.getValue(), m -> m.point().newConnRatio() * 100, Measurement::p99Us), false, true));
                    files.add(BreakdownPlot.draw(dir.resolve("breakdown" + suffix + ".png"),
                        "transnfv state access time per operation, " + where, pool.getValue()));
                    files.add(SharesPlot.draw(dir.resolve("shares" + suffix + ".png"),
                        "Share of wall time, " + where, pool.getValue()));
                }
            }
            case THREADS ->
                files.add(LinePlot.draw(dir.resolve("throughput.png"), "Throughput vs threads, load balancer 5 %",
                    "threads", "Mpackets/s",
                    series(rows, m -> m.point().threads(), m -> m.ppsMedian() / 1e6), false, false));
            case BATCH ->
            {
                files.add(LinePlot.draw(dir.resolve("throughput.png"), "Throughput vs punctuation, load balancer 5 %",
                    "transactions per punctuation", "Mpackets/s",
                    series(rows, m -> m.point().batchTxns(), m -> m.ppsMedian() / 1e6), true, false));
                files.add(LinePlot.draw(dir.resolve("latency-p99.png"), "Latency p99 vs punctuation, load balancer 5 %",
                    "transactions per punctuation", "p99 latency (us)",
                    series(rows, m -> m.point().batchTxns(), Measurement::p99Us), true, true));
            }
            default -> throw new IllegalStateException(result.settings().experiment().label());
        }
        return files;
    }

    private static <K> Map<K, List<Measurement>> byKey(final List<Measurement> rows, final Function<Measurement, K> key)
    {
        final Map<K, List<Measurement>> out = new LinkedHashMap<>();
        for (final Measurement m : rows)
        {
            out.computeIfAbsent(key.apply(m), k -> new ArrayList<>()).add(m);
        }
        return out;
    }

    private static Map<String, double[][]> series(
        final List<Measurement> rows, final ToDoubleFunction<Measurement> x, final ToDoubleFunction<Measurement> y)
    {
        final Map<String, double[][]> out = new LinkedHashMap<>();
        for (final Map.Entry<ExecutorKind, List<Measurement>> e : byKey(rows, m -> m.point().executor()).entrySet())
        {
            final List<Measurement> points = e.getValue();
            final double[][] xy = new double[2][points.size()];
            for (int i = 0; i < points.size(); i++)
            {
                xy[0][i] = x.applyAsDouble(points.get(i));
                xy[1][i] = y.applyAsDouble(points.get(i));
            }
            out.put(e.getKey().label(), xy);
        }
        return out;
    }

    private static String summary(final ExperimentResult result, final List<Path> plots)
    {
        final ExperimentSettings s = result.settings();
        final StringBuilder out = new StringBuilder();
        out.append("# Experiment ").append(s.experiment().label()).append("\n\n");
        out.append(s.experiment().title()).append(".\n\n");
        out.append("## Machine\n\n");
        for (final String line : result.machine())
        {
            out.append("- ").append(line).append('\n');
        }
        out.append("\n## Configuration\n\n");
        out.append("- mode: ").append(s.quick() ? "quick" : "full").append('\n');
        out.append("- packets per run: ").append(String.format(Locale.ROOT, "%,d", s.packets())).append('\n');
        out.append("- warm-up runs per point: ").append(s.warmups())
            .append(" (two more for the first traffic group, to warm the JIT; the first run of each point is scored"
                + " against the serial oracle for divergences)\n");
        out.append("- measured runs per point: ").append(s.repetitions())
            .append(" (throughput: median [min, max]; latency: median of the runs' percentiles)\n");
        out.append("- threads: ").append(s.threads())
            .append(" (engine: symmetric workers, each reading, processing and executing in turn; baselines: workers, the reading thread being one)\n");
        out.append("- traffic: generator, TCP (lb) or 90 % TCP (chain), Zipf 0.2 over 1,000 hosts and over destinations,"
            + " 64-128 B frames, seed 42, pre-generated in memory and replayed to every executor\n");
        out.append("- load balancer: d = 5 candidates; punctuation by transaction count (interval disabled)\n\n");
        out.append("## Results\n\n");
        out.append("Throughput in packets/s (median [min, max]); ratios are ours (transnfv) over the baseline at the"
            + " same point; div = packets whose output differs from the serial oracle.\n\n");
        out.append("Load is the one-minute load average before → after the point's runs (highest of its runs);"
            + " **busy** marks a point where another process was using the cores before a run: its ratios flatter"
            + " the engine (the baselines' per-batch barrier collapses under load) and are not to be quoted.\n\n");
        out.append("| chain | servers | new conn | threads | batch | executor | packets/s | txn/s | p50 us | p99 us"
            + " | p99.9 us | div | state div | ours/x | load |\n");
        out.append("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement m : result.measurements())
        {
            final Point p = m.point();
            final Measurement ours = ours(result.measurements(), p);
            final String ratio = ours == null || p.executor() == ExecutorKind.TRANSNFV ? "" :
                String.format(Locale.ROOT, "%.2f", ours.ppsMedian() / m.ppsMedian());
            out.append(String.format(Locale.ROOT,
                "| %s | %d | %.0f %% | %d | %d | %s | %,.0f [%,.0f, %,.0f] | %,.0f | %.1f | %.1f | %.1f | %d | %d | %s | %.2f → %.2f%s |\n",
                p.chain(), p.servers(), p.newConnRatio() * 100, p.threads(), p.batchTxns(), p.executor().label(),
                m.ppsMedian(), m.ppsMin(), m.ppsMax(), m.tpsMedian(), m.p50Us(), m.p99Us(), m.p999Us(),
                m.recordDivergences(), m.stateDivergences(), ratio, m.loadBefore(), m.loadAfter(), m.busy() ? " **busy**" : ""));
        }
        out.append("\n## Ratios at each point\n\n");
        out.append("| chain | servers | new conn | threads | batch | ours/chc-style | ours/no-lock | ours/partitioned"
            + " | ours/serial | measured |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement m : result.measurements())
        {
            if (m.point().executor() != ExecutorKind.TRANSNFV)
            {
                continue;
            }
            final Point p = m.point();
            final boolean busy = result.measurements().stream().anyMatch(x -> x.busy() && x.point().chain().equals(p.chain())
                && x.point().servers() == p.servers() && x.point().newConnRatio() == p.newConnRatio()
                && x.point().threads() == p.threads() && x.point().batchTxns() == p.batchTxns());
            out.append(String.format(Locale.ROOT, "| %s | %d | %.0f %% | %d | %d | %s | %s | %s | %s | %s |\n",
                p.chain(), p.servers(), p.newConnRatio() * 100, p.threads(), p.batchTxns(),
                ratio(m, result.measurements(), ExecutorKind.CHC_STYLE), ratio(m, result.measurements(), ExecutorKind.NO_LOCK),
                ratio(m, result.measurements(), ExecutorKind.PARTITIONED), ratio(m, result.measurements(), ExecutorKind.SERIAL),
                busy ? "**busy**" : "quiet"));
        }
        out.append("\n## Time breakdown\n\n");
        out.append("transnfv: share of its workers' time in the state access phase (build, bind, seal, execute,"
            + " transitions, collapse), and where every worker's time went, per packet, on the thread where it was"
            + " spent (ns of worker time per packet, summed over the workers)."
            + " Baselines: share of wall time the reading thread waited for the other workers at batch ends (sync),"
            + " and for chc-style contended lock acquisitions per 1,000 transactions.\n\n");
        out.append("| chain | servers | new conn | threads | batch | executor | state access | sync | lock waits/1k txn |");
        for (final String category : EngineBreakdown.CATEGORIES)
        {
            out.append(' ').append(category).append(" |");
        }
        out.append("\n| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |");
        for (int c = 0; c < EngineBreakdown.CATEGORIES.length; c++)
        {
            out.append(" ---: |");
        }
        out.append('\n');
        for (final Measurement m : result.measurements())
        {
            final Point p = m.point();
            out.append(String.format(Locale.ROOT, "| %s | %d | %.0f %% | %d | %d | %s | %s | %s | %s |",
                p.chain(), p.servers(), p.newConnRatio() * 100, p.threads(), p.batchTxns(), p.executor().label(),
                share(m.stateAccessShare()), share(m.syncShare()),
                Double.isNaN(m.lockWaitsPer1kTxn()) ? "" : String.format(Locale.ROOT, "%.2f", m.lockWaitsPer1kTxn())));
            for (final double v : m.breakdown().values())
            {
                out.append(Double.isNaN(v) ? "  |" : String.format(Locale.ROOT, " %.1f |", v));
            }
            out.append('\n');
        }
        out.append("\n## Plots\n\n");
        for (final Path plot : plots)
        {
            out.append("![").append(plot.getFileName()).append("](").append(plot.getFileName()).append(")\n");
        }
        return out.toString();
    }

    private static String share(final double value)
    {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.0f %%", value * 100);
    }

    private static String ratio(final Measurement ours, final List<Measurement> rows, final ExecutorKind baseline)
    {
        final Measurement other = find(rows, ours.point(), baseline);
        return other == null ? "" : String.format(Locale.ROOT, "%.2f", ours.ppsMedian() / other.ppsMedian());
    }

    private static Measurement ours(final List<Measurement> rows, final Point point)
    {
        return find(rows, point, ExecutorKind.TRANSNFV);
    }

    /** The serial oracle is measured once per sweep value it does not depend on; fall back to it. */
    private static Measurement find(final List<Measurement> rows, final Point point, final ExecutorKind kind)
    {
        Measurement fallback = null;
        for (final Measurement m : rows)
        {
            final Point p = m.point();
            if (p.executor() == kind && p.chain().equals(point.chain()) && p.servers() == point.servers()
                && p.newConnRatio() == point.newConnRatio())
            {
                if (p.threads() == point.threads() && p.batchTxns() == point.batchTxns())
                {
                    return m;
                }
                if (kind == ExecutorKind.SERIAL)
                {
                    fallback = m;
                }
            }
        }
        return fallback;
    }
}
