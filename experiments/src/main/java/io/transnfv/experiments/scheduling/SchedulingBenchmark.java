package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.instance.MapStateStore;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs every strategy (12 static policies, {@code adaptive}, {@code adaptive-feedback}) and
 * the serial oracle over the same pre-generated batches of each workload and reports ns per
 * operation and the ratio to the best static policy. Steady workloads: LB at 5/10/20/40/60 %
 * new connections, uniform, skewed, aborts. Phase-changing: LB 20 %, skewed, aborts, uniform
 * in turn, {@code phaseBatches} batches each, twice round; its figure is the whole sequence.
 *
 * <pre>
 *  java -cp experiments/target/benchmarks.jar io.transnfv.experiments.scheduling.SchedulingBenchmarkMain \
 *       [threads=2] [batchOps=10000] [warmupBatches=100] [batches=300] [phaseBatches=250] \
 *       [csv=scheduling.csv] [workloads=lb5,uniform,...]
 * </pre>
 *
 * Returns a Markdown table; writes one CSV row per (workload, strategy).
 * {@link SchedulingBenchmarkMain} is its command line.
 */
public final class SchedulingBenchmark
{
    private static final int DISTINCT_BATCHES = 8;

    private SchedulingBenchmark()
    {
    }

    /**
     * Runs the benchmark and writes its CSV.
     *
     * @param opts     {@code key -> value} settings, see the class comment.
     * @param progress told the name of each workload when it is done.
     * @return the Markdown table, followed by the CSV's path.
     * @throws IOException if the CSV cannot be written.
     */
    public static String run(final Map<String, String> opts, final Consumer<String> progress) throws IOException
    {
        final int threads = Integer.parseInt(opts.getOrDefault("threads", "2"));
        final int batchOps = Integer.parseInt(opts.getOrDefault("batchOps", "10000"));
        final int warmup = Integer.parseInt(opts.getOrDefault("warmupBatches", "100"));
        final int measured = Integer.parseInt(opts.getOrDefault("batches", "300"));
        final int phaseBatches = Integer.parseInt(opts.getOrDefault("phaseBatches", "250"));
        final Path csv = Path.of(opts.getOrDefault("csv", "scheduling-t" + threads + ".csv"));
        final List<String> only = opts.containsKey("workloads") ? Arrays.asList(opts.get("workloads").split(",")) : null;

        final Map<String, TransactionLog[]> steady = new LinkedHashMap<>();
        for (final int p : new int[] {5, 10, 20, 40, 60})
        {
            steady.put("lb" + p, batches(SchedulingWorkload.Kind.LB, p, batchOps, DISTINCT_BATCHES, 100 * p));
        }
        steady.put("uniform", batches(SchedulingWorkload.Kind.UNIFORM, 0, batchOps, DISTINCT_BATCHES, 7000));
        steady.put("skewed", batches(SchedulingWorkload.Kind.SKEWED, 0, batchOps, DISTINCT_BATCHES, 8000));
        steady.put("aborts", batches(SchedulingWorkload.Kind.ABORTS, 0, batchOps, DISTINCT_BATCHES, 9000));

        final List<String> strategies = new ArrayList<>(TpgBatchExecutor.strategyNames());
        final List<String> columns = new ArrayList<>(strategies);
        columns.add("oracle");

        final Map<String, double[]> results = new LinkedHashMap<>();
        final Map<String, String> adaptiveChoice = new LinkedHashMap<>();
        for (final Map.Entry<String, TransactionLog[]> w : steady.entrySet())
        {
            if (only != null && !only.contains(w.getKey()))
            {
                continue;
            }
            final TransactionLog[] logs = w.getValue();
            final double[] row = new double[columns.size()];
            for (int s = 0; s < strategies.size(); s++)
            {
                final int cycleWarm = warmup;
                try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategies.get(s)))
                {
                    final MultiVersionStateTable state = new MultiVersionStateTable(SchedulingWorkload.catalog());
                    for (int b = 0; b < cycleWarm; b++)
                    {
                        executor.execute(logs[b % logs.length], state);
                    }
                    long ops = 0;
                    final long start = System.nanoTime();
                    for (int b = 0; b < measured; b++)
                    {
                        final TransactionLog log = logs[b % logs.length];
                        executor.execute(log, state);
                        ops += log.operationCount();
                    }
                    row[s] = (double)(System.nanoTime() - start) / ops;
                    if (strategies.get(s).startsWith("adaptive"))
                    {
                        adaptiveChoice.put(w.getKey() + " " + strategies.get(s), String.valueOf(executor.summary().get("decisions")));
                    }
                }
            }
            row[strategies.size()] = oracle(logs, warmup, measured);
            results.put(w.getKey(), row);
            progress.accept(w.getKey());
        }

        if (only == null || only.contains("phases"))
        {
            final TransactionLog[][] phases = {
                steady.get("lb20"), steady.get("skewed"), steady.get("aborts"), steady.get("uniform"),
            };
            final double[] row = new double[columns.size()];
            for (int s = 0; s < strategies.size(); s++)
            {
                try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategies.get(s)))
                {
                    final MultiVersionStateTable state = new MultiVersionStateTable(SchedulingWorkload.catalog());
                    runPhases(executor, state, phases, phaseBatches / 4);
                    long ops = 0;
                    final long start = System.nanoTime();
                    ops += runPhases(executor, state, phases, phaseBatches);
                    ops += runPhases(executor, state, phases, phaseBatches);
                    row[s] = (double)(System.nanoTime() - start) / ops;
                    if (strategies.get(s).startsWith("adaptive"))
                    {
                        adaptiveChoice.put("phases " + strategies.get(s), String.valueOf(executor.summary().get("decisions")));
                    }
                }
            }
            row[strategies.size()] = Double.NaN;
            results.put("phases", row);
        }

        return report(threads, batchOps, columns, strategies.size(), results, adaptiveChoice, csv);
    }

    private static long runPhases(
        final TpgBatchExecutor executor, final MultiVersionStateTable state, final TransactionLog[][] phases, final int perPhase)
    {
        long ops = 0;
        for (final TransactionLog[] phase : phases)
        {
            for (int b = 0; b < perPhase; b++)
            {
                final TransactionLog log = phase[b % phase.length];
                executor.execute(log, state);
                ops += log.operationCount();
            }
        }
        return ops;
    }

    private static double oracle(final TransactionLog[] logs, final int warmup, final int measured)
    {
        final MapStateStore store = new MapStateStore(SchedulingWorkload.catalog());
        final SerialApplier applier = new SerialApplier();
        for (int b = 0; b < warmup; b++)
        {
            applyAll(applier, logs[b % logs.length], store);
        }
        long ops = 0;
        final long start = System.nanoTime();
        for (int b = 0; b < measured; b++)
        {
            final TransactionLog log = logs[b % logs.length];
            applyAll(applier, log, store);
            ops += log.operationCount();
        }
        return (double)(System.nanoTime() - start) / ops;
    }

    private static void applyAll(final SerialApplier applier, final TransactionLog log, final MapStateStore store)
    {
        // the generator emits transactions in timestamp order: log order is the serial order
        final int n = log.transactionCount();
        for (int t = 0; t < n; t++)
        {
            applier.apply(log, t, store);
        }
    }

    private static TransactionLog[] batches(
        final SchedulingWorkload.Kind kind, final int newPercent, final int ops, final int count, final long seed)
    {
        final TransactionLog[] logs = new TransactionLog[count];
        for (int i = 0; i < count; i++)
        {
            logs[i] = SchedulingWorkload.batch(kind, newPercent, ops, seed + i);
        }
        return logs;
    }

    private static String report(
        final int threads, final int batchOps, final List<String> columns, final int staticAndAdaptive,
        final Map<String, double[]> results, final Map<String, String> choices, final Path csv) throws IOException
    {
        final int statics = SchedulingPolicy.STATIC_COUNT;
        final StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "threads=%d batchOps=%d (ns/op; ratio = ns/op over the best static policy's)%n%n", threads, batchOps));
        md.append("| workload | best static | best ns/op | worst static ratio | bfs/op/eager ratio | adaptive ratio | adaptive-feedback ratio | oracle ns/op | best static / oracle |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8)))
        {
            out.println("threads,batchOps,workload,strategy,nsPerOp,ratioToBestStatic");
            for (final Map.Entry<String, double[]> r : results.entrySet())
            {
                final double[] row = r.getValue();
                int best = 0;
                int worst = 0;
                for (int s = 1; s < statics; s++)
                {
                    best = row[s] < row[best] ? s : best;
                    worst = row[s] > row[worst] ? s : worst;
                }
                for (int s = 0; s < columns.size(); s++)
                {
                    out.printf(Locale.ROOT, "%d,%d,%s,%s,%.2f,%.3f%n", threads, batchOps, r.getKey(), columns.get(s), row[s], row[s] / row[best]);
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %.2f | %.2f | %s | %s |%n",
                    r.getKey(), columns.get(best), row[best], row[worst] / row[best], row[0] / row[best],
                    row[statics] / row[best], row[statics + 1] / row[best],
                    Double.isNaN(row[staticAndAdaptive]) ? "–" : String.format(Locale.ROOT, "%.1f", row[staticAndAdaptive]),
                    Double.isNaN(row[staticAndAdaptive]) ? "–" : String.format(Locale.ROOT, "%.2f", row[best] / row[staticAndAdaptive])));
            }
        }
        md.append("\nAll strategies, ns/op:\n\n| workload |");
        for (final String c : columns)
        {
            md.append(' ').append(c).append(" |");
        }
        md.append("\n| --- |");
        for (int i = 0; i < columns.size(); i++)
        {
            md.append(" ---: |");
        }
        md.append('\n');
        for (final Map.Entry<String, double[]> r : results.entrySet())
        {
            md.append("| ").append(r.getKey()).append(" |");
            for (final double v : r.getValue())
            {
                md.append(String.format(Locale.ROOT, " %.1f |", v));
            }
            md.append('\n');
        }
        md.append("\nAdaptive decisions (policy → batches):\n\n");
        for (final Map.Entry<String, String> c : choices.entrySet())
        {
            md.append("* ").append(c.getKey()).append(": ").append(c.getValue()).append('\n');
        }
        md.append("\nCSV: ").append(csv.toAbsolutePath()).append('\n');
        return md.toString();
    }
}
