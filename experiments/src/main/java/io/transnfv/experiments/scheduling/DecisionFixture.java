package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.BatchStatistics;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.instance.MapStateStore;

import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Writes the measured fixture the heuristic decision model is tested against
 * ({@code scheduler/src/test/resources/io/transnfv/scheduler/heuristic-decisions.csv}): per
 * steady workload of {@link SchedulingBenchmark} and executor count, the figures the model
 * reads, measured on the workload's own sealed graphs and outcomes by {@link BatchStatistics}
 * exactly as the executor measures them, and the median ns/op of every static policy, measured
 * interleaved ({@link InterleavedMeasurement}) as the benchmark does: the median over
 * {@code rounds} rounds, each with fresh executors, of the median over a round's chunks. At one
 * executor the figure is the calling thread's CPU time, which runs every batch: on a shared,
 * loaded machine the time other processes held the core does not decide a row.
 *
 * <pre>
 *  java -cp experiments/target/benchmarks.jar io.transnfv.experiments.scheduling.DecisionFixture \
 *       [threads=1,2] [batchOps=10000] [warmupBatches=100] [chunks=7] [chunkBatches=10] [rounds=3] \
 *       [out=scheduler/src/test/resources/io/transnfv/scheduler/heuristic-decisions.csv]
 * </pre>
 *
 * The abort ratio is the one the model sees after the warm-up: the moving average of the
 * batches' abort ratios, the batches run in order against one state (a workload such as
 * {@code aborts} aborts more as its state fills).
 */
public final class DecisionFixture
{
    private DecisionFixture()
    {
    }

    /** @param args {@code key=value} settings, see the class comment. */
    public static void main(final String[] args) throws IOException
    {
        measure(SchedulingBenchmarkMain.keyValues(args), System.err::println);
    }

    /**
     * Measures every steady workload and writes the fixture.
     *
     * @param opts     the {@code key=value} settings, see the class comment.
     * @param progress told each row as it is measured.
     */
    static void measure(final Map<String, String> opts, final Consumer<String> progress) throws IOException
    {
        final List<Integer> threadCounts = new ArrayList<>();
        for (final String t : opts.getOrDefault("threads", "1,2").split(","))
        {
            threadCounts.add(Integer.parseInt(t.trim()));
        }
        final int batchOps = Integer.parseInt(opts.getOrDefault("batchOps", "10000"));
        final int warmupBatches = Integer.parseInt(opts.getOrDefault("warmupBatches", "100"));
        final int chunks = Integer.parseInt(opts.getOrDefault("chunks", "7"));
        final int chunkBatches = Integer.parseInt(opts.getOrDefault("chunkBatches", "10"));
        final int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        final Path out = Path.of(opts.getOrDefault("out", "scheduler/src/test/resources/io/transnfv/scheduler/heuristic-decisions.csv"));

        final List<String> statics = new ArrayList<>();
        for (final SchedulingPolicy p : SchedulingPolicy.allStatic())
        {
            statics.add(p.name());
        }
        final double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        final List<String> rows = new ArrayList<>();
        for (final int threads : threadCounts)
        {
            final Map<String, TransactionLog[]> logs = new LinkedHashMap<>();
            for (final String w : SchedulingBenchmark.Settings.STEADY)
            {
                logs.put(w, SchedulingBenchmark.batches(w, batchOps));
            }
            try (InterleavedMeasurement jit = new InterleavedMeasurement(statics, threads, false))
            {
                for (final TransactionLog[] w : logs.values())
                {
                    jit.warmUp(b -> w[b % w.length], 20);
                }
            }
            for (final Map.Entry<String, TransactionLog[]> e : logs.entrySet())
            {
                final String row = row(e.getKey(), e.getValue(), statics, threads, warmupBatches, chunks, chunkBatches, rounds);
                rows.add(row);
                progress.accept(row);
            }
        }
        final double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        write(out, statics, rows, opts, loadBefore, loadAfter);
    }

    /** @return the fixture's row for workload {@code name}: the figures the model reads, then each static policy's ns/op. */
    private static String row(
        final String name, final TransactionLog[] batches, final List<String> statics, final int threads, final int warmupBatches,
        final int chunks, final int chunkBatches, final int rounds)
    {
        final BatchStatistics stats = features(batches, threads, warmupBatches);
        final IntFunction<TransactionLog> sequence = b -> batches[b % batches.length];
        final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%s,%d,%d,%d,%.3f,%.4f",
            name, threads, stats.operations(), stats.transactions(), stats.contendedChainLength(), stats.recentAbortRatio()));
        final double[][] byRound = new double[statics.size()][rounds];
        for (int r = 0; r < rounds; r++)
        {
            // fresh executors and state each round: where a contestant's tables land does not decide its row
            final double[] medians = threads == 1
                ? cpuNsPerOp(statics, sequence, warmupBatches, chunks, chunkBatches)
                : wallNsPerOp(statics, threads, sequence, warmupBatches, chunks, chunkBatches);
            for (int c = 0; c < statics.size(); c++)
            {
                byRound[c][r] = medians[c];
            }
        }
        for (int c = 0; c < statics.size(); c++)
        {
            row.append(String.format(Locale.ROOT, ",%.1f", InterleavedMeasurement.Samples.quantile(byRound[c], 0.5)));
        }
        return row.toString();
    }

    /** @return each contestant's median wall ns/op over interleaved chunks ({@link InterleavedMeasurement}). */
    private static double[] wallNsPerOp(
        final List<String> statics, final int threads, final IntFunction<TransactionLog> sequence, final int warmupBatches,
        final int chunks, final int chunkBatches)
    {
        try (InterleavedMeasurement m = new InterleavedMeasurement(statics, threads, false))
        {
            m.warmUp(sequence, warmupBatches);
            final InterleavedMeasurement.Samples s = m.measure(sequence, warmupBatches, chunks, chunkBatches, k -> { });
            final double[] medians = new double[statics.size()];
            for (int c = 0; c < medians.length; c++)
            {
                medians[c] = s.medianNsPerOp(c);
            }
            return medians;
        }
    }

    /**
     * One executor: the calling thread runs every batch (the worker group has no other thread),
     * so its CPU time is the batch's cost without the time other processes held the core. The
     * same interleaving as {@link InterleavedMeasurement}: each chunk runs on every contestant,
     * in an order that rotates from chunk to chunk.
     *
     * @return each contestant's median CPU ns/op over the chunks.
     */
    private static double[] cpuNsPerOp(
        final List<String> statics, final IntFunction<TransactionLog> sequence, final int warmupBatches, final int chunks,
        final int chunkBatches)
    {
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        final int n = statics.size();
        final TpgBatchExecutor[] executors = new TpgBatchExecutor[n];
        final MultiVersionStateTable[] states = new MultiVersionStateTable[n];
        try
        {
            for (int c = 0; c < n; c++)
            {
                executors[c] = TpgBatchExecutor.create(1, statics.get(c));
                states[c] = new MultiVersionStateTable(SchedulingWorkload.catalog());
                for (int b = 0; b < warmupBatches; b++)
                {
                    executors[c].execute(sequence.apply(b), states[c]);
                }
            }
            final double[][] nsPerOp = new double[n][chunks];
            for (int k = 0; k < chunks; k++)
            {
                final int first = warmupBatches + k * chunkBatches;
                long ops = 0;
                for (int b = 0; b < chunkBatches; b++)
                {
                    ops += sequence.apply(first + b).operationCount();
                }
                for (int i = 0; i < n; i++)
                {
                    final int c = (i + k) % n;
                    final long start = mx.getCurrentThreadCpuTime();
                    for (int b = 0; b < chunkBatches; b++)
                    {
                        executors[c].execute(sequence.apply(first + b), states[c]);
                    }
                    nsPerOp[c][k] = (double)(mx.getCurrentThreadCpuTime() - start) / ops;
                }
            }
            final double[] medians = new double[n];
            for (int c = 0; c < n; c++)
            {
                medians[c] = InterleavedMeasurement.Samples.quantile(nsPerOp[c], 0.5);
            }
            return medians;
        }
        finally
        {
            for (final TpgBatchExecutor e : executors)
            {
                if (e != null)
                {
                    e.close();
                }
            }
        }
    }

    /**
     * @return the statistics the model would read for the next batch of {@code batches} run in
     *         order after {@code warmupBatches}: the graph's figures and the recent abort ratio.
     */
    static BatchStatistics features(final TransactionLog[] batches, final int threads, final int warmupBatches)
    {
        final TaskPrecedenceGraph[] graphs = new TaskPrecedenceGraph[batches.length];
        for (int b = 0; b < batches.length; b++)
        {
            graphs[b] = new TaskPrecedenceGraph();
            graphs[b].buildAndSeal(batches[b], new OperationStateMachine());
        }
        final MapStateStore store = new MapStateStore(SchedulingWorkload.catalog());
        final SerialApplier applier = new SerialApplier();
        final BatchStatistics stats = new BatchStatistics();
        for (int b = 0; b < warmupBatches; b++)
        {
            final TransactionLog log = batches[b % batches.length];
            stats.measure(graphs[b % batches.length], threads);
            long aborted = 0;
            for (int t = 0; t < log.transactionCount(); t++)
            {
                aborted += applier.apply(log, t, store) != 0 ? 1 : 0;
            }
            stats.recordOutcome(aborted, 0);
        }
        stats.measure(graphs[warmupBatches % batches.length], threads);
        return stats;
    }

    private static void write(
        final Path out, final List<String> statics, final List<String> rows, final Map<String, String> opts,
        final double loadBefore, final double loadAfter) throws IOException
    {
        if (out.getParent() != null)
        {
            Files.createDirectories(out.getParent());
        }
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8))
        {
            w.write("# Measured by io.transnfv.experiments.scheduling.DecisionFixture on " + Instant.now() + "\n");
            w.write(String.format(Locale.ROOT, "# load average (1 min) %.2f before, %.2f after; %d processors; Java %s%n", loadBefore,
                loadAfter, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
            w.write("# Regenerate: mvn -q -B -o -pl tpg,scheduler,vnf-lib,engine,experiments -am package -DskipTests &&\n");
            w.write("#   java -cp experiments/target/benchmarks.jar io.transnfv.experiments.scheduling.DecisionFixture " + args(opts) + "\n");
            w.write("# Columns: workload, executors, operations and transactions per batch, contended chain length and recent abort\n");
            w.write("# ratio as BatchStatistics measures them, then each static policy's ns/op: the median over rounds (fresh\n");
            w.write("# executors each) of the median over a round's interleaved chunks; at one executor the calling thread's CPU\n");
            w.write("# time (it runs every batch), at more the wall time.\n");
            w.write("workload,threads,operations,transactions,contended_chain,abort_ratio," + String.join(",", statics) + "\n");
            for (final String r : rows)
            {
                w.write(r + "\n");
            }
        }
    }

    private static String args(final Map<String, String> opts)
    {
        final StringBuilder sb = new StringBuilder();
        opts.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }
}
