package io.transnfv.cli;

import io.transnfv.chains.ClosestName;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.experiments.runner.ExecutorKind;
import io.transnfv.experiments.runner.Experiment;
import io.transnfv.experiments.runner.ExperimentResult;
import io.transnfv.experiments.runner.ExperimentRunner;
import io.transnfv.experiments.runner.ExperimentSettings;
import io.transnfv.experiments.runner.Measurement;
import io.transnfv.experiments.runner.Point;
import io.transnfv.vnf.api.VnfConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code transnfv experiment <name>}: runs one of the paper's experiments with the engine and
 * its baselines side by side and writes {@code data.csv}, PNG plots and {@code summary.md}
 * under {@code <out>/<name>/<timestamp>/}; prints where, and the throughput table.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true,
    description = {"Run an experiment: the engine and its baselines (chc-style, no-lock, partitioned, serial) side by"
        + " side on the same traffic; writes data.csv (a row as each point finishes), PNG plots and summary.md"
        + " (at the end, or on Ctrl-C from the points finished so far).",
        "Experiments: lb-new-conn (Fig. 3: load balancer, 5-60 %% new connections, 7,200 / 72,000 / 64 servers),"
            + " chain (nat-lb-td, same sweep), threads (1..N threads), batch (punctuation size),"
            + " latency (latency under load: each executor's capacity, then p50/p99/p99.9 and drops at 10-120 %%"
            + " of the engine's capacity, paced through a receive ring; quick: 25, 50, 90, 120 %%),"
            + " stale-reads (the load balancer's server loads serializable vs { stale-reads: 1 }, engine only: throughput"
            + " and packets differing from the oracle, 5 / 60 %% new connections, 7,200 / 64 servers),"
            + " tenants (a noisy neighbour: two steady tenants and a third calm, 10x, and 10x under a rate limit;"
            + " each tenant's packets/s and p99)."})
final class ExperimentCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "NAME", description = "lb-new-conn, chain, threads, batch, latency, stale-reads or tenants.")
    String name;

    @Option(names = "--quick", description = "Short version: "
        + ExperimentSettings.QUICK_PACKETS + " packets per run, " + ExperimentSettings.QUICK_REPETITIONS + " repetitions.")
    boolean quick;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
        description = "Executor threads, 0.." + RunSettings.MAX_EXECUTOR_THREADS
            + " (threads: the largest of the sweep); 0 = one per core (default).")
    int threads;

    @Option(names = "--repetitions", paramLabel = "R", defaultValue = "0",
        description = "Measured runs per point; 0 = the mode's default (full: " + ExperimentSettings.FULL_REPETITIONS
            + ", quick: " + ExperimentSettings.QUICK_REPETITIONS + ").")
    int repetitions;

    @Option(names = "--packets", paramLabel = "N", defaultValue = "0",
        description = "Packets per run; 0 = the mode's default (full: " + ExperimentSettings.FULL_PACKETS
            + ", quick: " + ExperimentSettings.QUICK_PACKETS + ").")
    int packets;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
        description = "Results directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--latency-target", paramLabel = "DURATION",
        description = "Size the engine's batches for this latency, e.g. 200us (as run --latency-target); the baselines"
            + " have no batches to size. Default: none.")
    String latencyTarget;

    @Option(names = "--no-progress", description = "Do not show progress on stderr.")
    boolean noProgress;

    @Override
    public Integer call() throws IOException
    {
        final Experiment experiment = experiment(name);
        ChainOptions.checkThreads("--threads", threads);
        checkZeroOrMore("--repetitions", repetitions, "e.g. --repetitions 3, or 0 for the mode's default");
        checkZeroOrMore("--packets", packets, "e.g. --packets 200000, or 0 for the mode's default");
        if (Files.exists(out) && !Files.isDirectory(out))
        {
            throw new UsageProblem("--out " + out + ": is a file; the results go into a directory.",
                "name a directory (it is created when missing), e.g. --out results.");
        }
        System.setProperty("java.awt.headless", "true");
        final ExperimentSettings settings = ExperimentSettings.of(experiment, quick, threads, repetitions, packets, out)
            .withEngineLatencyTarget(latencyTarget == null ? 0 : latencyTargetNs(latencyTarget));
        ChainOptions.warnAboutThreadsBeyondCores(settings.threads());
        final ExperimentRunner runner = new ExperimentRunner(settings);
        System.err.println("experiment: results go to " + runner.directory()
            + "; data.csv gains each point's row as it finishes");
        final ExperimentResult result;
        final long startNs = System.nanoTime();
        // SIGINT or SIGTERM: summary and plots from the points data.csv holds; a SIGKILL leaves data.csv alone
        final Thread reportOnStop = new Thread(() -> reportInterrupted(runner), "experiment-report-on-stop");
        Runtime.getRuntime().addShutdownHook(reportOnStop);
        try (Progress ignored = new Progress("packets", runner::packetsDone, runner.plannedPackets(), System.err,
            !noProgress))
        {
            result = runner.run();
        }
        finally
        {
            removeHook(reportOnStop);
        }
        print(result, System.out, (System.nanoTime() - startNs) / 1e9);
        return 0;
    }

    private static void reportInterrupted(final ExperimentRunner runner)
    {
        try
        {
            final int points = runner.reportInterrupted("Stopped by a signal");
            if (points >= 0)
            {
                System.err.println("experiment: stopped after " + points + " of " + runner.points().size()
                    + " points; their rows, plots and summary are in " + runner.directory());
            }
        }
        catch (final IOException | RuntimeException e)
        {
            System.err.println("experiment: stopped; data.csv in " + runner.directory()
                + " holds the finished points, but the summary could not be written: " + e.getMessage());
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException e)
        {
            // the JVM is shutting down: the hook is running and writes the report
        }
    }

    /** @return the experiment {@code label} names; a usage problem with the closest name when there is none. */
    private static Experiment experiment(final String label)
    {
        final List<String> labels = Arrays.stream(Experiment.values()).map(Experiment::label).toList();
        if (!labels.contains(label))
        {
            final String closest = ClosestName.of(label, labels);
            throw new UsageProblem("no experiment '" + label + "'" + (closest == null ? "" : "; did you mean '" + closest + "'?"),
                "name one of " + String.join(", ", labels) + ".");
        }
        return Experiment.ofLabel(label);
    }

    private static void checkZeroOrMore(final String option, final int value, final String example)
    {
        if (value < 0)
        {
            throw new UsageProblem(option + " must be 0 or more, got " + value + ".", example + ".");
        }
    }

    private static void print(final ExperimentResult result, final PrintStream out, final double seconds)
    {
        out.printf(Locale.ROOT, "%s: %d points in %.0f s; results in %s%n", result.settings().experiment().label(),
            result.measurements().size(), seconds, result.directory());
        if (result.settings().experiment() == Experiment.LATENCY)
        {
            printLatency(result, out);
            return;
        }
        out.printf(Locale.ROOT, "%-10s %7s %6s %4s %6s  %-12s %14s %10s %10s %9s%n",
            "chain", "servers", "new", "thr", "batch", "executor", "packets/s", "p99 us", "div", "ours/x");
        for (final Measurement m : result.measurements())
        {
            final Point p = m.point();
            final Measurement ours = result.measurements().stream()
                .filter(o -> o.point().executor() == ExecutorKind.TRANSNFV && o.point().chain().equals(p.chain())
                    && o.point().servers() == p.servers() && o.point().newConnRatio() == p.newConnRatio()
                    && o.point().threads() == p.threads() && o.point().batchTxns() == p.batchTxns())
                .findFirst().orElse(null);
            final String ratio = ours == null || ours == m ? "" : String.format(Locale.ROOT, "%.2f", ours.ppsMedian() / m.ppsMedian());
            out.printf(Locale.ROOT, "%-10s %7d %5.0f%% %4d %6d  %-12s %,14.0f %10.1f %10d %9s%n",
                p.chain(), p.servers(), p.newConnRatio() * 100, p.threads(), p.batchTxns(), p.executor().label(),
                m.ppsMedian(), m.p99Us(), m.recordDivergences(), ratio);
        }
        if (result.settings().experiment() == Experiment.STALE_READS)
        {
            for (final Measurement stale : result.measurements())
            {
                final Point p = stale.point();
                result.measurements().stream()
                    .filter(m -> p.chain().equals(Experiment.LB_STALE) && m.point().chain().equals("lb")
                        && m.point().servers() == p.servers() && m.point().newConnRatio() == p.newConnRatio())
                    .findFirst().ifPresent(serializable -> out.printf(Locale.ROOT,
                        "%d servers, %.0f%% new: stale-reads / serializable %.2f; stale reads cost %,d differing packets (%.1f%%)%n",
                        p.servers(), p.newConnRatio() * 100, stale.ppsMedian() / serializable.ppsMedian(),
                        stale.recordDivergences(), 100.0 * stale.recordDivergences() / result.settings().packets()));
            }
        }
        if (result.settings().experiment() == Experiment.TENANTS)
        {
            printTenants(result, out);
        }
        out.println("summary: " + result.directory().resolve("summary.md"));
    }

    /** Each point's tenants of the tenants experiment, a line per point. */
    private static void printTenants(final ExperimentResult result, final PrintStream out)
    {
        for (final Measurement m : result.measurements())
        {
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-22s %-12s", m.point().chain(),
                m.point().executor().label()));
            for (final Measurement.TenantFigures t : m.tenants())
            {
                line.append(String.format(Locale.ROOT, "  %s %,.0f packets/s p99 %.0f us", t.name(), t.pps(), t.p99Us()));
            }
            out.println(line);
        }
    }

    private static void printLatency(final ExperimentResult result, final PrintStream out)
    {
        out.printf(Locale.ROOT, "%-9s %12s  %-12s %14s %8s %10s %10s %10s%n",
            "offered", "offered/s", "executor", "achieved/s", "drops", "p50 us", "p99 us", "p99.9 us");
        for (final Measurement m : result.measurements())
        {
            final Point p = m.point();
            out.printf(Locale.ROOT, "%-9s %12s  %-12s %,14.0f %7.2f%% %10.1f %10.1f %10.1f%n",
                p.paced() ? String.format(Locale.ROOT, "%.0f%%", p.offeredLoad() * 100) : "unpaced",
                p.paced() ? String.format(Locale.ROOT, "%,.0f", m.offeredPps()) : "-",
                p.executor().label(), m.achievedPps(), m.dropRate() * 100, m.p50Us(), m.p99Us(), m.p999Us());
        }
        out.println("summary: " + result.directory().resolve("summary.md"));
    }

    private static long latencyTargetNs(final String text)
    {
        try
        {
            final long ns = VnfConfig.parseDurationNs(text);
            if (ns > 0)
            {
                return ns;
            }
        }
        catch (final IllegalArgumentException e)
        {
            // reported below with what to write
        }
        throw new UsageProblem("--latency-target " + text + ": not a positive duration.", "write a duration with a unit, e.g. 200us or 1ms.");
    }
}
