package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.tpg.txn.TransactionLog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Runs every strategy (the 12 static policies, {@code adaptive}, {@code adaptive-feedback})
 * and the serial oracle over the same pre-generated batches and reports ns per operation and
 * the ratio to the best static policy, measured <em>interleaved</em>
 * ({@link InterleavedMeasurement}): every contestant runs each chunk of batches before any
 * runs the next, so the ratios are paired samples taken side by side.
 *
 * <p>Steady workloads: LB at 5/10/20/40/60 % new connections, {@code uniform},
 * {@code skewed}, {@code aborts}, {@code monitor} ({@link SchedulingWorkload}). Each contestant first runs
 * {@code warmupBatches} unmeasured batches (JIT, its state, a feedback model's first
 * estimates); then {@code chunks} chunks of {@code chunkBatches}. Figures: the median over
 * chunks of ns/op; ratios: the median (min–max) over chunks of the contestant's time over the
 * best static policy's on the same chunk.
 *
 * <p>Phase-changing workload: the {@code phases} workloads in turn, {@code phaseBatches}
 * batches each, {@code phaseCycles} times round, run from fresh executors (an adaptive model's
 * learning is part of its figure). Figure: total time over total operations.
 *
 * <p>Interleaving pairs away what changes over time (other processes, GC, frequency), not
 * what is fixed for a contestant in one JVM (its compiled code, where its tables landed):
 * identical contestants measured 5–25 % apart in one JVM, differently in the next. With
 * {@code forks=N} the whole measurement runs in N fresh JVMs, one after another, and their
 * chunks are pooled, so those differences average out instead of deciding a row.
 *
 * <pre>
 *  java -cp experiments/target/benchmarks.jar io.transnfv.experiments.scheduling.SchedulingBenchmarkMain \
 *       [threads=2] [batchOps=10000] [jitWarmupBatches=20] [warmupBatches=200] [chunks=15] [chunkBatches=20] \
 *       [phases=lb20,skewed,aborts,uniform,monitor] [phaseBatches=1000] [phaseCycles=2] \
 *       [workloads=lb5,...,monitor,phases] [forks=1] [csv=results/scheduling/scheduling-t2.csv]
 * </pre>
 *
 * {@link SchedulingBenchmarkMain} is its command line.
 */
public final class SchedulingBenchmark
{
    private static final int DISTINCT_BATCHES = 8;
    /** The phase-changing workload's row name. */
    static final String PHASES = "phases";
    /** A static policy shown in its own column: the engine's default before the adaptive heuristic. */
    private static final String REFERENCE_STATIC = "dfs/op/eager";

    private SchedulingBenchmark()
    {
    }

    /**
     * The benchmark's settings, from {@code key=value} options.
     *
     * @param threads          executors per strategy (the calling thread included).
     * @param batchOps         operations per batch.
     * @param jitWarmupBatches batches per strategy and workload run once before anything is measured.
     * @param warmupBatches    unmeasured batches per contestant before a steady workload's chunks.
     * @param chunks           measured chunks (paired samples) per steady workload.
     * @param chunkBatches     batches per chunk.
     * @param phases           the workloads the phase-changing workload cycles through.
     * @param phaseBatches     batches per phase (a multiple of {@code chunkBatches}).
     * @param phaseCycles      times round the phases.
     * @param workloads        which rows to run (steady names and {@code phases}).
     * @param forks            JVMs to run the whole measurement in, one after another; their
     *                         chunks are pooled (see {@link SchedulingBenchmark}).
     * @param csv              where the per-chunk samples go.
     */
    public record Settings(
        int threads, int batchOps, int jitWarmupBatches, int warmupBatches, int chunks, int chunkBatches,
        List<String> phases, int phaseBatches, int phaseCycles, List<String> workloads, int forks, Path csv)
    {
        /** Every steady workload, in report order. */
        public static final List<String> STEADY = List.of("lb5", "lb10", "lb20", "lb40", "lb60", "uniform", "skewed", "aborts", "monitor");
        /** The phase-changing workload's phases unless {@code phases=} says otherwise. */
        public static final List<String> DEFAULT_PHASES = List.of("lb20", "skewed", "aborts", "uniform", "monitor");

        /** Checks the settings. */
        public Settings
        {
            positive("threads", threads);
            positive("batchOps", batchOps);
            positive("chunks", chunks);
            positive("chunkBatches", chunkBatches);
            positive("phaseBatches", phaseBatches);
            positive("phaseCycles", phaseCycles);
            positive("forks", forks);
            if (jitWarmupBatches < 0 || warmupBatches < 0)
            {
                throw new IllegalArgumentException("warm-up batches must be >= 0");
            }
            if (phaseBatches % chunkBatches != 0)
            {
                throw new IllegalArgumentException("phaseBatches (" + phaseBatches + ") must be a multiple of chunkBatches (" + chunkBatches + ")");
            }
            for (final String w : workloads)
            {
                if (!STEADY.contains(w) && !w.equals(PHASES))
                {
                    throw new IllegalArgumentException("unknown workload '" + w + "'; known: " + String.join(", ", STEADY) + ", " + PHASES);
                }
            }
            for (final String p : phases)
            {
                if (!STEADY.contains(p))
                {
                    throw new IllegalArgumentException("unknown phase '" + p + "'; known: " + String.join(", ", STEADY));
                }
            }
        }

        /** @return settings from {@code key=value} options, with the defaults of the class comment. */
        public static Settings parse(final Map<String, String> opts)
        {
            final int threads = integer(opts, "threads", 2);
            final List<String> all = new ArrayList<>(STEADY);
            all.add(PHASES);
            return new Settings(
                threads, integer(opts, "batchOps", 10_000), integer(opts, "jitWarmupBatches", 20),
                integer(opts, "warmupBatches", 200), integer(opts, "chunks", 15), integer(opts, "chunkBatches", 20),
                list(opts, "phases", DEFAULT_PHASES), integer(opts, "phaseBatches", 1000),
                integer(opts, "phaseCycles", 2), list(opts, "workloads", all), integer(opts, "forks", 1),
                Path.of(opts.getOrDefault("csv", "results/scheduling/scheduling-t" + threads + ".csv")));
        }

        /** @return these settings as {@code key=value} arguments, for one fork writing {@code forkCsv}. */
        List<String> forkArguments(final Path forkCsv)
        {
            return List.of("threads=" + threads, "batchOps=" + batchOps, "jitWarmupBatches=" + jitWarmupBatches,
                "warmupBatches=" + warmupBatches, "chunks=" + chunks, "chunkBatches=" + chunkBatches,
                "phases=" + String.join(",", phases), "phaseBatches=" + phaseBatches, "phaseCycles=" + phaseCycles,
                "workloads=" + String.join(",", workloads), "forks=1", "csv=" + forkCsv);
        }

        /** @return chunks per cycle of the phase-changing workload. */
        int chunksPerPhaseCycle()
        {
            return phaseBatches / chunkBatches * phases.size();
        }

        private static int integer(final Map<String, String> opts, final String key, final int fallback)
        {
            final String v = opts.get(key);
            try
            {
                return v == null ? fallback : Integer.parseInt(v.trim());
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'", e);
            }
        }

        private static List<String> list(final Map<String, String> opts, final String key, final List<String> fallback)
        {
            final String v = opts.get(key);
            return v == null ? fallback : List.of(v.trim().split("\\s*,\\s*"));
        }

        private static void positive(final String name, final int value)
        {
            if (value < 1)
            {
                throw new IllegalArgumentException(name + " must be >= 1, got " + value);
            }
        }
    }

    /**
     * Runs the benchmark and writes its CSV.
     *
     * @param settings what to run.
     * @param progress told what has been done, now and then.
     * @return the Markdown report, ending with the CSV's path.
     * @throws IOException if the CSV cannot be written.
     */
    public static String run(final Settings settings, final Consumer<String> progress) throws IOException
    {
        final MeasuredSamples measured = settings.forks() == 1 ? measure(settings, progress) : measureInForks(settings, progress);
        measured.write(settings.csv());
        return report(settings, measured);
    }

    /** Measures everything {@code settings} asks for in this JVM. */
    private static MeasuredSamples measure(final Settings settings, final Consumer<String> progress)
    {
        final Map<String, TransactionLog[]> logs = new LinkedHashMap<>();
        for (final String w : Settings.STEADY)
        {
            logs.put(w, batches(w, settings.batchOps()));
        }
        final List<String> strategies = TpgBatchExecutor.strategyNames();

        progress.accept("JIT warm-up: " + settings.jitWarmupBatches() + " batches per strategy and workload");
        try (InterleavedMeasurement jit = new InterleavedMeasurement(strategies, settings.threads(), true))
        {
            for (final TransactionLog[] w : logs.values())
            {
                jit.warmUp(b -> w[b % w.length], settings.jitWarmupBatches());
            }
        }

        final MeasuredSamples measured = new MeasuredSamples(settings.threads(), settings.batchOps());
        for (final String w : Settings.STEADY)
        {
            if (!settings.workloads().contains(w))
            {
                continue;
            }
            final TransactionLog[] batches = logs.get(w);
            final IntFunction<TransactionLog> sequence = b -> batches[b % batches.length];
            try (InterleavedMeasurement m = new InterleavedMeasurement(strategies, settings.threads(), true))
            {
                m.warmUp(sequence, settings.warmupBatches());
                measured.steady().put(w, m.measure(sequence, settings.warmupBatches(), settings.chunks(), settings.chunkBatches(), k -> { }));
                recordDecisions(measured, w, m);
            }
            progress.accept(w + " done");
        }
        if (settings.workloads().contains(PHASES))
        {
            measurePhases(measured, settings, logs, strategies, progress);
        }
        return measured;
    }

    /**
     * Runs the measurement in {@code settings.forks()} fresh JVMs, one after another, and pools
     * their chunks. One JVM's contestants carry fixed differences that interleaving cannot
     * pair away (compiled code, where their tables landed in memory): identical contestants
     * measured 5–25 % apart within a JVM, differently from run to run.
     */
    private static MeasuredSamples measureInForks(final Settings settings, final Consumer<String> progress) throws IOException
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final List<MeasuredSamples> forks = new ArrayList<>();
        for (int f = 1; f <= settings.forks(); f++)
        {
            final Path forkCsv = MeasuredSamples.sibling(settings.csv(), "-fork" + f);
            final List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(SchedulingBenchmarkMain.class.getName());
            command.addAll(settings.forkArguments(forkCsv));
            final Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            final String prefix = "fork " + f + "/" + settings.forks() + ": ";
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)))
            {
                for (String line = err.readLine(); line != null; line = err.readLine())
                {
                    progress.accept(prefix + line);
                }
            }
            final int exit;
            try
            {
                exit = process.waitFor();
            }
            catch (final InterruptedException e)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + prefix.trim(), e);
            }
            if (exit != 0)
            {
                throw new IOException(prefix + "exited with status " + exit + " (its messages are above)");
            }
            forks.add(MeasuredSamples.read(forkCsv));
        }
        return MeasuredSamples.pool(forks);
    }

    private static void recordDecisions(final MeasuredSamples measured, final String row, final InterleavedMeasurement m)
    {
        for (final String strategy : List.of(TpgBatchExecutor.ADAPTIVE, TpgBatchExecutor.ADAPTIVE_FEEDBACK))
        {
            final Map<String, Long> chosen = new LinkedHashMap<>();
            m.summary(strategy).ifPresent(report -> report.decisions().forEach(d -> chosen.put(d.policy(), d.graphs())));
            measured.decisions().put(row + " " + strategy, chosen);
        }
    }

    /** @return the Markdown report of {@code measured}, ending with the CSV's path. */
    static String report(final Settings settings, final MeasuredSamples measured)
    {
        final StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "threads=%d batchOps=%d warmupBatches=%d chunks=%d chunkBatches=%d forks=%d%n%n",
            settings.threads(), settings.batchOps(), settings.warmupBatches(), settings.chunks(), settings.chunkBatches(),
            measured.forks()));
        if (measured.forks() > 1)
        {
            md.append(String.format(Locale.ROOT,
                "Chunks of %d JVMs pooled: every figure below is over all of them (a ratio pairs chunks of one JVM).%n%n",
                measured.forks()));
        }
        if (!measured.steady().isEmpty())
        {
            steadyTables(md, measured.steady());
        }
        if (measured.phases() != null)
        {
            phasesTables(md, settings, measured);
        }
        md.append("\nAdaptive decisions (policy → batches, warm-up included):\n\n");
        for (final Map.Entry<String, Map<String, Long>> c : measured.decisions().entrySet())
        {
            md.append("* ").append(c.getKey()).append(": ").append(c.getValue()).append('\n');
        }
        md.append("\nCSV: ").append(settings.csv().toAbsolutePath()).append('\n');
        return md.toString();
    }

    private static void measurePhases(
        final MeasuredSamples measured, final Settings settings, final Map<String, TransactionLog[]> logs,
        final List<String> strategies, final Consumer<String> progress)
    {
        final List<String> phases = settings.phases();
        final int perPhase = settings.phaseBatches();
        final IntFunction<TransactionLog> sequence = b ->
        {
            final TransactionLog[] batches = logs.get(phases.get((b / perPhase) % phases.size()));
            return batches[b % batches.length];
        };
        final int chunksPerPhase = perPhase / settings.chunkBatches();
        final int chunks = settings.chunksPerPhaseCycle() * settings.phaseCycles();
        final IntFunction<String> phaseOf = k -> phases.get((k / chunksPerPhase) % phases.size());
        try (InterleavedMeasurement m = new InterleavedMeasurement(strategies, settings.threads(), false))
        {
            final int every = Math.max(1, chunks / 20);
            final InterleavedMeasurement.Samples s = m.measure(sequence, 0, chunks, settings.chunkBatches(), k ->
            {
                if (k % every == 0)
                {
                    progress.accept(String.format(Locale.ROOT, "phases: %d/%d chunks (%s)", k, chunks, phaseOf.apply(k - 1)));
                }
            });
            final String[] phaseOfChunk = new String[chunks];
            Arrays.setAll(phaseOfChunk, phaseOf::apply);
            measured.phases(s, phaseOfChunk);
            recordDecisions(measured, PHASES, m);
        }
    }

    private static void phasesTables(final StringBuilder md, final Settings settings, final MeasuredSamples measured)
    {
        final List<String> phases = settings.phases();
        final InterleavedMeasurement.Samples s = measured.phases();
        final String[] phaseOf = measured.phaseOfChunk();
        final int chunks = phaseOf.length;
        final int statics = SchedulingPolicy.STATIC_COUNT;
        final int contestants = s.names().size();
        // per phase: each contestant's median ns/op over the phase's chunks, and the phase's operations
        final double[][] phaseMedian = new double[phases.size()][contestants];
        final long[] phaseOps = new long[phases.size()];
        for (int p = 0; p < phases.size(); p++)
        {
            final String phase = phases.get(p);
            for (int k = 0; k < chunks; k++)
            {
                phaseOps[p] += phaseOf[k].equals(phase) ? s.ops()[k] : 0;
            }
            for (int c = 0; c < contestants; c++)
            {
                final double[] v = s.nsPerOp(c);
                final double[] mine = new double[chunks];
                int n = 0;
                for (int k = 0; k < chunks; k++)
                {
                    if (phaseOf[k].equals(phase))
                    {
                        mine[n++] = v[k];
                    }
                }
                phaseMedian[p][c] = InterleavedMeasurement.Samples.quantile(Arrays.copyOf(mine, n), 0.5);
            }
        }
        final long allOps = Arrays.stream(phaseOps).sum();
        final double[] total = new double[contestants];
        final double[] robust = new double[contestants];
        for (int c = 0; c < contestants; c++)
        {
            total[c] = s.totalNsPerOp(c);
            for (int p = 0; p < phases.size(); p++)
            {
                robust[c] += phaseMedian[p][c] * phaseOps[p] / allOps;
            }
        }
        final int best = argMin(total, statics);
        final int bestRobust = argMin(robust, statics);
        int worst = 0;
        for (int c = 1; c < statics; c++)
        {
            worst = total[c] > total[worst] ? c : worst;
        }
        final int cycles = chunks / settings.chunksPerPhaseCycle();
        final double seconds = (double)Arrays.stream(s.ns()[best]).sum() / 1e9 / (phases.size() * cycles);
        md.append(String.format(Locale.ROOT,
            "%nPhase-changing workload: %s, %d batches per phase (%.1f s per phase for the best static policy), %d cycles "
                + "in each of %d JVMs, from fresh executors. Total: all time over all operations. Robust: the phases' median "
                + "ns/op weighted by their operations (a chunk slowed by another process does not count more than any other)%n%n",
            String.join(" → ", phases), settings.phaseBatches(), seconds, settings.phaseCycles(), measured.forks()));
        final int adaptive = s.names().indexOf(TpgBatchExecutor.ADAPTIVE);
        final int feedback = s.names().indexOf(TpgBatchExecutor.ADAPTIVE_FEEDBACK);
        md.append("| measure | best static | ns/op | worst static ratio | adaptive ratio | adaptive-feedback ratio | statics adaptive beats | statics adaptive-feedback beats |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        md.append(String.format(Locale.ROOT, "| total | %s | %.1f | %.2f | %.3f | %.3f | %d of %d | %d of %d |%n", s.names().get(best), total[best],
            total[worst] / total[best], total[adaptive] / total[best], total[feedback] / total[best],
            beaten(total, adaptive, statics), statics, beaten(total, feedback, statics), statics));
        md.append(String.format(Locale.ROOT, "| robust | %s | %.1f | %.2f | %.3f | %.3f | %d of %d | %d of %d |%n", s.names().get(bestRobust),
            robust[bestRobust], max(robust, statics) / robust[bestRobust], robust[adaptive] / robust[bestRobust],
            robust[feedback] / robust[bestRobust], beaten(robust, adaptive, statics), statics, beaten(robust, feedback, statics), statics));
        md.append(String.format(Locale.ROOT, "%nTotal per cycle, over the best static's: adaptive %s, adaptive-feedback %s%n",
            perCycle(s, adaptive, best, settings.chunksPerPhaseCycle()), perCycle(s, feedback, best, settings.chunksPerPhaseCycle())));

        md.append("\nBy phase (median ns/op over the phase's chunks):\n\n| phase | best static | ns/op | adaptive ratio | adaptive-feedback ratio |");
        for (int c = 0; c < statics; c++)
        {
            md.append(' ').append(s.names().get(c)).append(" |");
        }
        md.append("\n| --- | --- | ---: | ---: | ---: |").append(" ---: |".repeat(statics)).append('\n');
        for (int p = 0; p < phases.size(); p++)
        {
            final double[] median = phaseMedian[p];
            final int b = argMin(median, statics);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f |", phases.get(p), s.names().get(b), median[b],
                median[adaptive] / median[b], median[feedback] / median[b]));
            for (int c = 0; c < statics; c++)
            {
                md.append(String.format(Locale.ROOT, " %.1f |", median[c]));
            }
            md.append('\n');
        }
    }

    private static int beaten(final double[] values, final int c, final int statics)
    {
        int n = 0;
        for (int i = 0; i < statics; i++)
        {
            n += values[c] < values[i] ? 1 : 0;
        }
        return n;
    }

    private static double max(final double[] values, final int count)
    {
        double m = values[0];
        for (int i = 1; i < count; i++)
        {
            m = Math.max(m, values[i]);
        }
        return m;
    }

    private static String perCycle(final InterleavedMeasurement.Samples s, final int c, final int reference, final int chunksPerCycle)
    {
        final StringBuilder out = new StringBuilder();
        for (int from = 0; from < s.ops().length; from += chunksPerCycle)
        {
            long mine = 0;
            long theirs = 0;
            for (int k = from; k < from + chunksPerCycle; k++)
            {
                mine += s.ns()[c][k];
                theirs += s.ns()[reference][k];
            }
            out.append(from == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", (double)mine / theirs));
        }
        return out.toString();
    }

    private static void steadyTables(final StringBuilder md, final Map<String, InterleavedMeasurement.Samples> steady)
    {
        final int statics = SchedulingPolicy.STATIC_COUNT;
        md.append("Steady workloads: median ns/op over chunks; ratios are the median (min–max) over chunks of the time over the best static policy's time on the same chunk\n\n");
        md.append("| workload | best static | ns/op | adaptive ratio | adaptive-feedback ratio | worst static ratio | dfs/op/eager ratio | oracle ns/op | best static / oracle |\n");
        md.append("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |\n");
        for (final Map.Entry<String, InterleavedMeasurement.Samples> e : steady.entrySet())
        {
            final InterleavedMeasurement.Samples s = e.getValue();
            final double[] median = medians(s);
            final int best = argMin(median, statics);
            int worst = 0;
            for (int c = 1; c < statics; c++)
            {
                worst = median[c] > median[worst] ? c : worst;
            }
            final int oracle = s.names().indexOf(InterleavedMeasurement.ORACLE);
            final int reference = s.names().indexOf(REFERENCE_STATIC);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %s | %s | %.2f | %.2f | %.1f | %.2f |%n", e.getKey(),
                s.names().get(best), median[best], ratio(s, s.names().indexOf(TpgBatchExecutor.ADAPTIVE), best),
                ratio(s, s.names().indexOf(TpgBatchExecutor.ADAPTIVE_FEEDBACK), best), median[worst] / median[best],
                median[reference] / median[best], median[oracle], median[best] / median[oracle]));
        }
        md.append("\nAll strategies, median ns/op:\n\n| workload |");
        final List<String> names = steady.values().iterator().next().names();
        for (final String n : names)
        {
            md.append(' ').append(n).append(" |");
        }
        md.append("\n| --- |").append(" ---: |".repeat(names.size())).append('\n');
        for (final Map.Entry<String, InterleavedMeasurement.Samples> e : steady.entrySet())
        {
            md.append("| ").append(e.getKey()).append(" |");
            for (final double v : medians(e.getValue()))
            {
                md.append(String.format(Locale.ROOT, " %.1f |", v));
            }
            md.append('\n');
        }
    }

    private static String ratio(final InterleavedMeasurement.Samples s, final int c, final int reference)
    {
        final double[] r = s.pairedRatios(c, reference);
        return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", InterleavedMeasurement.Samples.quantile(r, 0.5),
            InterleavedMeasurement.Samples.quantile(r, 0), InterleavedMeasurement.Samples.quantile(r, 1));
    }

    private static double[] medians(final InterleavedMeasurement.Samples s)
    {
        final double[] m = new double[s.names().size()];
        for (int c = 0; c < m.length; c++)
        {
            m[c] = s.medianNsPerOp(c);
        }
        return m;
    }

    private static int argMin(final double[] values, final int count)
    {
        int best = 0;
        for (int c = 1; c < count; c++)
        {
            best = values[c] < values[best] ? c : best;
        }
        return best;
    }

    /** @return {@link #DISTINCT_BATCHES} pre-generated batches of the steady workload {@code name}. */
    static TransactionLog[] batches(final String name, final int ops)
    {
        final SchedulingWorkload.Kind kind;
        final int newPercent;
        final long seed;
        if (name.startsWith("lb"))
        {
            kind = SchedulingWorkload.Kind.LB;
            newPercent = Integer.parseInt(name.substring(2));
            seed = 100L * newPercent;
        }
        else
        {
            kind = SchedulingWorkload.Kind.valueOf(name.toUpperCase(Locale.ROOT));
            newPercent = 0;
            seed = 6000 + 1000L * kind.ordinal();
        }
        final TransactionLog[] logs = new TransactionLog[DISTINCT_BATCHES];
        for (int i = 0; i < logs.length; i++)
        {
            logs[i] = SchedulingWorkload.batch(kind, newPercent, ops, seed + i);
        }
        return logs;
    }
}
