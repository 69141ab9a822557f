package io.transnfv.experiments.report;

import io.transnfv.engine.source.PacedSource;
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
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Writes an experiment's {@code data.csv}, row by row as its points finish, and at the end (or
 * when it is interrupted) its plots and {@code summary.md} from the rows there are.
 */
public final class ResultWriter
{
    /** File names every result directory holds. */
    public static final String CSV = "data.csv";
    /** The summary's file name. */
    public static final String SUMMARY = "summary.md";
    /** The tenants experiment's per-tenant rows, beside {@link #CSV}. */
    public static final String TENANTS_CSV = "tenants.csv";
    /** {@code latency}: drops below this share of the offered packets count as keeping up with the offered load. */
    static final double KEEPS_UP_DROP_RATE = 0.001;

    /**
     * Draws the plots and writes {@code summary.md} from {@code result}'s rows; {@code data.csv}
     * already holds them ({@link #appendCsv}). For an interrupted experiment, {@code interruption}
     * says so at the top of the summary, and a plot that its partial rows cannot make (e.g. a
     * latency sweep without its capacity row) is left out and named there instead of failing.
     *
     * @param result       the experiment's finished points.
     * @param interruption why the experiment stopped early; {@code null} when it ran to the end.
     * @return the PNG files written.
     * @throws IOException if a file cannot be written.
     */
    public static List<Path> writeReport(final ExperimentResult result, final String interruption) throws IOException
    {
        final Path dir = result.directory();
        Files.createDirectories(dir);
        List<Path> plots;
        String note = interruption;
        if (interruption == null)
        {
            plots = plot(result);
        }
        else if (result.measurements().isEmpty())
        {
            plots = List.of();
        }
        else
        {
            try
            {
                plots = plot(result);
            }
            catch (final RuntimeException e)
            {
                plots = List.of();
                note = interruption + " The plots were not drawn from so few rows (" + e.getMessage() + ").";
            }
        }
        if (result.settings().experiment() == Experiment.TENANTS)
        {
            final StringBuilder csv = new StringBuilder("chain,executor,tenant,pps_median,p99_us,load_before,busy\n");
            for (final Measurement m : result.measurements())
            {
                for (final Measurement.TenantFigures t : m.tenants())
                {
                    csv.append(String.format(Locale.ROOT, "%s,%s,%s,%.0f,%s,%.2f,%s%n", m.point().chain(), m.point().executor().label(),
                        t.name(), t.pps(), Double.isNaN(t.p99Us()) ? "" : String.format(Locale.ROOT, "%.1f", t.p99Us()), m.loadBefore(),
                        m.busy()));
                }
            }
            Files.writeString(dir.resolve(TENANTS_CSV), csv, StandardCharsets.UTF_8);
        }
        String summary = summary(result, plots);
        if (note != null)
        {
            final int afterTitle = summary.indexOf("\n\n") + 2;
            summary = summary.substring(0, afterTitle) + "**Interrupted.** " + note + "\n\n" + summary.substring(afterTitle);
        }
        Files.writeString(dir.resolve(SUMMARY), summary, StandardCharsets.UTF_8);
        return plots;
    }

    /**
     * Creates {@code dir} and a {@code data.csv} holding the header only, before the first point runs.
     *
     * @throws IOException if either cannot be written.
     */
    public static void startCsv(final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(CSV), Measurement.CSV_HEADER + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Appends finished points' rows to {@code dir/data.csv} and closes the file, so they survive an
     * experiment interrupted or killed right after (the rows are in the operating system's hands).
     *
     * @throws IOException if the file cannot be written.
     */
    public static void appendCsv(final Path dir, final List<Measurement> rows) throws IOException
    {
        final StringBuilder csv = new StringBuilder();
        for (final Measurement m : rows)
        {
            csv.append(m.toCsv()).append('\n');
        }
        Files.writeString(dir.resolve(CSV), csv, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
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
                        throughput(pool.getValue(), m -> m.point().newConnRatio() * 100), false, false));
                    files.add(LinePlot.draw(dir.resolve("latency-p99" + suffix + ".png"),
                        "Latency p99, " + where, "new connections (%)", "p99 latency (us)",
                        p99(pool.getValue(), m -> m.point().newConnRatio() * 100), false, true));
                    files.add(BreakdownPlot.draw(dir.resolve("breakdown" + suffix + ".png"),
                        "transnfv state access time per operation, " + where, pool.getValue()));
                    files.add(SharesPlot.draw(dir.resolve("shares" + suffix + ".png"),
                        "Share of wall time, " + where, pool.getValue()));
                }
            }
            case THREADS ->
                files.add(LinePlot.draw(dir.resolve("throughput.png"), "Throughput vs threads, load balancer 5 %",
                    "threads", "Mpackets/s",
                    throughput(rows, m -> m.point().threads()), false, false));
            case BATCH ->
            {
                files.add(LinePlot.draw(dir.resolve("throughput.png"), "Throughput vs punctuation, load balancer 5 %",
                    "transactions per punctuation", "Mpackets/s",
                    throughput(rows, m -> m.point().batchTxns()), true, false));
                files.add(LinePlot.draw(dir.resolve("latency-p99.png"), "Latency p99 vs punctuation, load balancer 5 %",
                    "transactions per punctuation", "p99 latency (us)",
                    p99(rows, m -> m.point().batchTxns()), true, true));
            }
            case LATENCY ->
            {
                final List<Measurement> sweep = rows.stream().filter(m -> m.point().paced()).toList();
                final String where = "load balancer, 7,200 servers, 5 % new connections";
                files.add(latencyPlot(dir.resolve("latency-p50.png"), "Latency p50 under load, " + where, "p50",
                    sweep, Measurement::p50Us));
                files.add(latencyPlot(dir.resolve("latency-p99.png"), "Latency p99 under load, " + where, "p99",
                    sweep, Measurement::p99Us));
                files.add(latencyPlot(dir.resolve("latency-p999.png"), "Latency p99.9 under load, " + where, "p99.9",
                    sweep, Measurement::p999Us));
                files.add(LinePlot.draw(dir.resolve("drop-rate.png"), "Receive ring drops, " + where,
                    "offered load (% of transnfv's capacity)", "dropped (% of offered)",
                    series(sweep, m -> m.point().offeredLoad() * 100, m -> m.dropRate() * 100), false, false));
            }
            case STALE_READS ->
            {
                for (final Map.Entry<Integer, List<Measurement>> pool : byKey(rows, m -> m.point().servers()).entrySet())
                {
                    final String where = "load balancer, " + pool.getKey() + " servers";
                    files.add(LinePlot.draw(dir.resolve("throughput-servers-" + pool.getKey() + ".png"),
                        "Throughput, serializable vs stale-read loads, " + where, "new connections (%)", "Mpackets/s",
                        byVariant(pool.getValue(), m -> m.ppsMedian() / 1e6), false, false));
                    files.add(LinePlot.draw(dir.resolve("divergence-servers-" + pool.getKey() + ".png"),
                        "Packets differing from the serial oracle, " + where, "new connections (%)", "differing packets (%)",
                        byVariant(pool.getValue(), m -> 100.0 * m.recordDivergences() / result.settings().packets()), false, false));
                }
            }
            case TENANTS ->
            {
                final ToDoubleFunction<Measurement> variant = m -> Experiment.TENANT_VARIANTS.indexOf(m.point().chain());
                final String x = "third tenant: 0 calm, 1 noisy (10x), 2 noisy under a limit of 2x";
                files.add(LinePlot.draw(dir.resolve("steady-throughput.png"), "Steady tenants' throughput (sum of two)", x,
                    "Mpackets/s", series(rows, variant, m -> steadyPps(m) / 1e6), false, false));
                files.add(LinePlot.draw(dir.resolve("steady-p99.png"), "Steady tenants' latency p99 (the worse of two)", x,
                    "p99 latency (us)", series(rows, variant, ResultWriter::steadyP99Us), false, true));
            }
            default -> throw new IllegalStateException(result.settings().experiment().label());
        }
        return files;
    }

    /** @return the steady tenants' packets/s together (every tenant of the tenants experiment but the last). */
    private static double steadyPps(final Measurement m)
    {
        return m.tenants().subList(0, m.tenants().size() - 1).stream().mapToDouble(Measurement.TenantFigures::pps).sum();
    }

    /** @return the worse p99 of the steady tenants. */
    private static double steadyP99Us(final Measurement m)
    {
        return m.tenants().subList(0, m.tenants().size() - 1).stream().mapToDouble(Measurement.TenantFigures::p99Us).max()
            .orElse(Double.NaN);
    }

    /** The tenants experiment's own table: each tenant's throughput and p99 per variant and executor. */
    private static void tenantsTable(final ExperimentResult result, final StringBuilder out)
    {
        out.append("\n## Tenants\n\n");
        out.append("Three tenants, each a load balancer (64 servers, d = 5), told apart by VLAN, their traffic merged by"
            + " timestamp: steady-a and steady-b at " + String.format(Locale.ROOT, "%,d", Experiment.TENANT_RATE_PPS)
            + " packets/s of packet time each, and the third at that rate (calm), at " + Experiment.NOISY_FACTOR
            + " times it (noisy), and at " + Experiment.NOISY_FACTOR + " times it under a limit of " + Experiment.NOISY_LIMIT_FACTOR
            + " times it (limited; its excess is dropped at its limiter). Unpaced: every executor reads the mix as fast as it"
            + " can, so a tenant's packets/s is what its limiter passed into its chain over the run's wall time,"
            + " and the mix's proportions set each tenant's share. p99: of the tenant's sampled"
            + " packets. A rate limit bounds what a tenant sends into the chain; all tenants' transactions share the batches"
            + " and the workers (no per-tenant share of executor time: docs/tenants.md).\n\n");
        out.append("| third tenant | executor | steady-a packets/s | steady-b packets/s | noisy packets/s | steady p99 us"
            + " (worse) | noisy p99 us | load |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement m : result.measurements())
        {
            if (m.tenants().size() != Experiment.TENANT_NAMES.size())
            {
                continue;
            }
            out.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %,.0f | %.1f | %.1f | %.2f → %.2f%s |\n",
                m.point().chain().substring("tenants-".length()), m.point().executor().label(), m.tenants().get(0).pps(),
                m.tenants().get(1).pps(), m.tenants().get(2).pps(), steadyP99Us(m), m.tenants().get(2).p99Us(), m.loadBefore(),
                m.loadAfter(), m.busy() ? " **busy**" : ""));
        }
    }

    /** Latency against achieved throughput, one line per executor; a log axis when the values span more than 20x. */
    private static Path latencyPlot(
        final Path file, final String title, final String percentile, final List<Measurement> sweep,
        final ToDoubleFunction<Measurement> latencyUs) throws IOException
    {
        final double min = sweep.stream().mapToDouble(latencyUs).filter(v -> v > 0).min().orElse(1);
        final double max = sweep.stream().mapToDouble(latencyUs).max().orElse(1);
        final ToDoubleFunction<Measurement> x = m -> m.achievedPps() / 1e6;
        return LinePlot.draw(file, title, "achieved throughput (Mpackets/s)", percentile + " latency (us)",
            percentile.equals("p99") ? p99(sweep, x) : series(sweep, x, latencyUs), false, max > 20 * min);
    }

    /** @return {@code y} against the new-connection ratio (%), one line per chain variant (serializable, stale-reads). */
    private static Map<String, double[][]> byVariant(final List<Measurement> rows, final ToDoubleFunction<Measurement> y)
    {
        final Map<String, double[][]> out = new LinkedHashMap<>();
        for (final Map.Entry<String, List<Measurement>> e : byKey(rows, m -> m.point().chain()).entrySet())
        {
            final List<Measurement> points = e.getValue();
            final double[][] xy = new double[2][points.size()];
            for (int i = 0; i < points.size(); i++)
            {
                xy[0][i] = points.get(i).point().newConnRatio() * 100;
                xy[1][i] = y.applyAsDouble(points.get(i));
            }
            out.put(e.getKey().equals(Experiment.LB_STALE) ? "stale-reads: 1" : "serializable", xy);
        }
        return out;
    }

    /**
     * The stale-reads experiment's own table: per pool and ratio, both variants' throughput, their
     * ratio, and what the stale loads cost in divergence from the serial oracle.
     */
    private static void staleReadsTable(final ExperimentResult result, final StringBuilder out)
    {
        out.append("\n## Stale reads against serializable\n\n");
        out.append("The load balancer's server loads (`active`) serializable and under `{ stale-reads: 1 }`, the engine on"
            + " both, on the same traffic, measured runs interleaved. div: packets whose record differs from the serial"
            + " oracle's (a new connection sent to another server than the least loaded at its arrival), state div: final"
            + " state entries that differ (warm-up run).\n\n");
        out.append("| servers | new conn | serializable packets/s | stale-reads packets/s | stale ÷ serializable"
            + " | div (stale) | div % | state div (stale) | div (serializable) | load |\n");
        out.append("| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement stale : result.measurements())
        {
            final Point p = stale.point();
            if (!p.chain().equals(Experiment.LB_STALE))
            {
                continue;
            }
            final Measurement serializable = result.measurements().stream().filter(m -> m.point().chain().equals("lb")
                && m.point().servers() == p.servers() && m.point().newConnRatio() == p.newConnRatio()).findFirst().orElse(null);
            if (serializable == null)
            {
                continue;
            }
            out.append(String.format(Locale.ROOT,
                "| %d | %.0f %% | %,.0f [%,.0f, %,.0f] | %,.0f [%,.0f, %,.0f] | %.2f | %,d | %.1f | %,d | %,d | %.2f → %.2f%s |\n",
                p.servers(), p.newConnRatio() * 100, serializable.ppsMedian(), serializable.ppsMin(), serializable.ppsMax(),
                stale.ppsMedian(), stale.ppsMin(), stale.ppsMax(), stale.ppsMedian() / serializable.ppsMedian(),
                stale.recordDivergences(), 100.0 * stale.recordDivergences() / result.settings().packets(),
                stale.stateDivergences(), serializable.recordDivergences(),
                Math.max(stale.loadBefore(), serializable.loadBefore()), Math.max(stale.loadAfter(), serializable.loadAfter()),
                stale.busy() || serializable.busy() ? " **busy**" : ""));
        }
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

    /** @return latency p99 in microseconds per executor: the median, with the lowest and highest repetition as a band. */
    static Map<String, double[][]> p99(final List<Measurement> rows, final ToDoubleFunction<Measurement> x)
    {
        final Map<String, double[][]> medians = series(rows, x, Measurement::p99Us);
        final Map<String, double[][]> lowest = series(rows, x, Measurement::p99MinUs);
        final Map<String, double[][]> highest = series(rows, x, Measurement::p99MaxUs);
        final Map<String, double[][]> out = new LinkedHashMap<>();
        medians.forEach((label, xy) -> out.put(label, new double[][] {xy[0], xy[1], lowest.get(label)[1], highest.get(label)[1]}));
        return out;
    }

    /** @return throughput in Mpackets/s per executor: the median, with the slowest and fastest repetition as a band. */
    static Map<String, double[][]> throughput(final List<Measurement> rows, final ToDoubleFunction<Measurement> x)
    {
        final Map<String, double[][]> medians = series(rows, x, m -> m.ppsMedian() / 1e6);
        final Map<String, double[][]> slowest = series(rows, x, m -> m.ppsMin() / 1e6);
        final Map<String, double[][]> fastest = series(rows, x, m -> m.ppsMax() / 1e6);
        final Map<String, double[][]> out = new LinkedHashMap<>();
        medians.forEach((label, xy) -> out.put(label, new double[][] {xy[0], xy[1], slowest.get(label)[1], fastest.get(label)[1]}));
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
        if (result.settings().experiment() == Experiment.LATENCY)
        {
            return latencySummary(result, plots);
        }
        final ExperimentSettings s = result.settings();
        final StringBuilder out = new StringBuilder();
        header(result, out);
        out.append("- packets per run: ").append(String.format(Locale.ROOT, "%,d", s.packets())).append('\n');
        out.append("- warm-up runs per point: ").append(s.warmups())
            .append(" (two more for the first traffic group, to warm the JIT; the first run of each point is scored"
                + " against the serial oracle for divergences)\n");
        out.append("- measured runs per point: ").append(s.repetitions())
            .append(" (throughput: median [min, max]; latency: median of the runs' percentiles, p99 also [min, max])\n");
        out.append("- threads: ").append(s.threads())
            .append(" (engine: symmetric workers, each reading, processing and executing in turn; baselines: workers, the reading thread being one)\n");
        out.append("- traffic: generator, TCP (lb) or 90 % TCP (chain), Zipf 0.2 over 1,000 hosts and over destinations,"
            + " 64-128 B frames, seed 42, pre-generated in memory and replayed to every executor\n");
        out.append("- load balancer: d = 5 candidates; punctuation by transaction count (interval disabled)")
            .append(latencyTarget(s)).append("\n\n");
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
        if (s.experiment() == Experiment.STALE_READS)
        {
            staleReadsTable(result, out);
        }
        if (s.experiment() == Experiment.TENANTS)
        {
            tenantsTable(result, out);
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

    /** The title, the machine and the mode: how every summary starts. */
    private static void header(final ExperimentResult result, final StringBuilder out)
    {
        final ExperimentSettings s = result.settings();
        out.append("# Experiment ").append(s.experiment().label()).append("\n\n");
        out.append(s.experiment().title()).append(".\n\n");
        out.append("## Machine\n\n");
        for (final String line : result.machine())
        {
            out.append("- ").append(line).append('\n');
        }
        out.append("\n## Configuration\n\n");
        out.append("- mode: ").append(s.quick() ? "quick" : "full").append('\n');
    }

    private static String latencySummary(final ExperimentResult result, final List<Path> plots)
    {
        final ExperimentSettings s = result.settings();
        final List<Measurement> rows = result.measurements();
        final StringBuilder out = new StringBuilder();
        header(result, out);
        out.append("- packets offered per run: ").append(String.format(Locale.ROOT, "%,d", s.packets())).append('\n');
        out.append("- stage 1, capacity: every executor unpaced, ").append(s.warmups())
            .append(" warm-up run(s) (two more to warm the JIT; the first scored against the serial oracle) and ")
            .append(s.repetitions()).append(" measured run(s); transnfv's median is 100 %\n");
        out.append("- stage 2, sweep: offered load ").append(s.offeredLoadPercents())
            .append(" % of that capacity, the same traffic replayed paced in wall time through a ")
            .append(PacedSource.DEFAULT_RX_RING_SLOTS).append("-slot receive ring that drops when full (rx_missed); ")
            .append(s.repetitions()).append(" run(s) per point after one unmeasured paced run at its rate, executors interleaved within each repetition\n");
        out.append("- latency: wall time per packet from its scheduled arrival (ring wait included) to the end of its"
            + " processing; median over the runs of each run's percentile\n");
        out.append("- threads: ").append(s.threads()).append("; punctuation ").append(Experiment.DEFAULT_BATCH)
            .append(" transactions").append(latencyTarget(s))
            .append("; traffic: generator, TCP, Zipf 0.2, 64-128 B frames, seed 42, pre-generated\n\n");

        out.append("## Capacity (unpaced)\n\n| executor | packets/s | p50 us | p99 us | p99.9 us | div | load |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement m : rows)
        {
            if (!m.point().paced())
            {
                out.append(String.format(Locale.ROOT, "| %s | %,.0f [%,.0f, %,.0f] | %.1f | %.1f | %.1f | %d | %s |\n",
                    m.point().executor().label(), m.ppsMedian(), m.ppsMin(), m.ppsMax(), m.p50Us(), m.p99Us(),
                    m.p999Us(), m.recordDivergences(), load(m)));
            }
        }
        out.append("\n## Latency under load\n\n");
        out.append("Offered: share of transnfv's capacity and packets/s; achieved: packets delivered to the executor per"
            + " second of wall time (median [min, max]); drops: rx_missed over offered.\n\n");
        out.append("| offered | offered packets/s | executor | achieved packets/s | drops | p50 us | p99 us | p99.9 us | load |\n")
            .append("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final Measurement m : rows)
        {
            if (m.point().paced())
            {
                out.append(String.format(Locale.ROOT, "| %.0f %% | %,.0f | %s | %,.0f [%,.0f, %,.0f] | %.2f %% | %.1f | %.1f | %.1f | %s |\n",
                    m.point().offeredLoad() * 100, m.offeredPps(), m.point().executor().label(), m.achievedPps(),
                    m.ppsMin(), m.ppsMax(), m.dropRate() * 100, m.p50Us(), m.p99Us(), m.p999Us(), load(m)));
            }
        }
        out.append("\n## Reading\n\n").append(latencyReading(rows));
        out.append("\n## Plots\n\n");
        for (final Path plot : plots)
        {
            out.append("![").append(plot.getFileName()).append("](").append(plot.getFileName()).append(")\n");
        }
        return out.toString();
    }

    /**
     * What the table says, derived from it: for each executor the highest offered load it keeps up
     * with, and at which of the loads transnfv keeps up with its p99 is the lowest of all executors.
     */
    private static String latencyReading(final List<Measurement> rows)
    {
        final List<Measurement> sweep = rows.stream().filter(m -> m.point().paced()).toList();
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Keeping up means dropping under %.1f %% of the offered packets; the"
            + " highest offered load each executor kept up with (a lower load may still have dropped: a %d-slot ring"
            + " holds well under a millisecond at these rates, so a stall of the machine drops packets):%n%n",
            KEEPS_UP_DROP_RATE * 100, PacedSource.DEFAULT_RX_RING_SLOTS));
        for (final Map.Entry<ExecutorKind, List<Measurement>> e : byKey(sweep, m -> m.point().executor()).entrySet())
        {
            final Measurement best = e.getValue().stream().filter(m -> m.dropRate() < KEEPS_UP_DROP_RATE)
                .reduce((a, b) -> b.point().offeredLoad() > a.point().offeredLoad() ? b : a).orElse(null);
            out.append("- ").append(e.getKey().label()).append(": ").append(best == null
                ? "dropped at every offered load"
                : String.format(Locale.ROOT, "%.0f %% (%,.0f packets/s achieved, p99 %.1f us there)",
                    best.point().offeredLoad() * 100, best.achievedPps(), best.p99Us()))
                .append('\n');
        }
        final List<String> lowest = new ArrayList<>();
        final List<String> notLowest = new ArrayList<>();
        for (final Map.Entry<Double, List<Measurement>> load : byKey(sweep, m -> m.point().offeredLoad()).entrySet())
        {
            final Measurement ours = load.getValue().stream()
                .filter(m -> m.point().executor() == ExecutorKind.TRANSNFV).findFirst().orElse(null);
            if (ours == null || ours.dropRate() >= KEEPS_UP_DROP_RATE)
            {
                continue;
            }
            final Measurement fastest = load.getValue().stream()
                .min((a, b) -> Double.compare(a.p99Us(), b.p99Us())).orElseThrow();
            final String at = String.format(Locale.ROOT, "%.0f %%", load.getKey() * 100);
            if (fastest == ours)
            {
                lowest.add(at);
            }
            else
            {
                notLowest.add(String.format(Locale.ROOT, "%s (%s: %.1f us against %.1f us)", at,
                    fastest.point().executor().label(), fastest.p99Us(), ours.p99Us()));
            }
        }
        if (lowest.isEmpty() && notLowest.isEmpty())
        {
            out.append("\ntransnfv kept up with none of the offered loads, so its latency is not compared.\n");
        }
        else
        {
            out.append("\nAt the loads transnfv keeps up with, its p99 is the lowest of all executors at ")
                .append(lowest.isEmpty() ? "none" : String.join(", ", lowest))
                .append("; another executor's is lower at ")
                .append(notLowest.isEmpty() ? "none" : String.join(", ", notLowest)).append(".\n");
        }
        final long busy = rows.stream().filter(Measurement::busy).count();
        if (busy > 0)
        {
            out.append(String.format(Locale.ROOT, "%n%d of %d points ran on a busy machine (load average above the cores"
                + " before a run): their drops and tails are not to be quoted.%n", busy, rows.size()));
        }
        return out.toString();
    }

    private static String load(final Measurement m)
    {
        return String.format(Locale.ROOT, "%.2f → %.2f%s", m.loadBefore(), m.loadAfter(), m.busy() ? " **busy**" : "");
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

    /** @return the engine's latency target as the summary says it, empty without one. */
    private static String latencyTarget(final ExperimentSettings s)
    {
        return s.engineLatencyTargetNs() == 0 ? ""
            : "; the engine sizes its batches for a latency target of " + s.engineLatencyTargetNs() / 1_000 + " us (at most that many transactions)";
    }
}
