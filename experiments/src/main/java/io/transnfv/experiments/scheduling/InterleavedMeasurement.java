package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.instance.MapStateStore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * Measures several contestants (strategies of the batch executor, and the serial oracle) on
 * the same sequence of batches, <em>interleaved</em>: the sequence is cut into chunks, and
 * every contestant runs chunk {@code i} before any runs chunk {@code i + 1}, in an order that
 * rotates from chunk to chunk. Load from elsewhere on the machine, GC and frequency changes
 * then hit every contestant alike, and each chunk gives one paired sample per contestant.
 * Each contestant keeps its own executor, state and decision model for the whole sequence, so
 * an adaptive model sees the sequence exactly as it would alone.
 *
 * <pre>
 *  chunk:        0            1            2      ...
 *  order:   A B C D O    B C D O A    C D O A B   ...   (A..D strategies, O the oracle)
 *  sample:  ns[c][chunk] = wall time of contestant c on the chunk's batches
 * </pre>
 *
 * Single-threaded driver (the executors' own workers park between chunks).
 */
final class InterleavedMeasurement implements AutoCloseable
{
    /** Name of the serial oracle's contestant. */
    static final String ORACLE = "oracle";

    private final List<String> names;
    private final Contestant[] contestants;

    /**
     * @param strategies executor strategies ({@link TpgBatchExecutor#create} names).
     * @param threads    executors per strategy.
     * @param withOracle also measure the serial oracle (last contestant).
     */
    InterleavedMeasurement(final List<String> strategies, final int threads, final boolean withOracle)
    {
        names = new ArrayList<>(strategies);
        if (withOracle)
        {
            names.add(ORACLE);
        }
        contestants = new Contestant[names.size()];
        for (int c = 0; c < contestants.length; c++)
        {
            contestants[c] = names.get(c).equals(ORACLE) ? new OracleContestant() : new ExecutorContestant(threads, names.get(c));
        }
    }

    /** @return the contestants' names, in column order. */
    List<String> names()
    {
        return names;
    }

    /**
     * Runs batches {@code 0 .. batches - 1} of {@code sequence} on every contestant without
     * timing them (warm-up: JIT, state tables, a feedback model's first estimates).
     */
    void warmUp(final IntFunction<TransactionLog> sequence, final int batches)
    {
        for (final Contestant c : contestants)
        {
            for (int b = 0; b < batches; b++)
            {
                c.run(sequence.apply(b));
            }
        }
    }

    /**
     * Runs {@code chunks × chunkBatches} batches of {@code sequence} interleaved by chunk.
     *
     * @param sequence      batch {@code i} of the sequence (the same for every contestant).
     * @param firstBatch    index of the sequence's first measured batch.
     * @param chunks        paired samples wanted.
     * @param chunkBatches  batches per chunk.
     * @param progress      told the number of chunks done, after each chunk.
     * @return {@code ns[contestant][chunk]} and the operations per chunk.
     */
    Samples measure(
        final IntFunction<TransactionLog> sequence, final long firstBatch, final int chunks, final int chunkBatches,
        final IntConsumer progress)
    {
        final long[][] ns = new long[contestants.length][chunks];
        final long[] ops = new long[chunks];
        for (int k = 0; k < chunks; k++)
        {
            final int first = (int)(firstBatch + (long)k * chunkBatches);
            for (int b = 0; b < chunkBatches; b++)
            {
                ops[k] += sequence.apply(first + b).operationCount();
            }
            for (int i = 0; i < contestants.length; i++)
            {
                final int c = (i + k) % contestants.length;
                final Contestant contestant = contestants[c];
                final long start = System.nanoTime();
                for (int b = 0; b < chunkBatches; b++)
                {
                    contestant.run(sequence.apply(first + b));
                }
                ns[c][k] = System.nanoTime() - start;
            }
            progress.accept(k + 1);
        }
        return new Samples(names, ns, ops);
    }

    /** @return what the executor of contestant {@code name} reports ({@link TpgBatchExecutor#summary()}), if it is one. */
    Optional<SchedulerReport> summary(final String name)
    {
        final Contestant c = contestants[names.indexOf(name)];
        return c instanceof ExecutorContestant e ? e.executor.summary() : Optional.empty();
    }

    @Override
    public void close()
    {
        for (final Contestant c : contestants)
        {
            c.close();
        }
    }

    /**
     * Paired samples: {@code ns[c][k]} is contestant {@code c}'s time on chunk {@code k},
     * which had {@code ops[k]} operations.
     */
    record Samples(List<String> names, long[][] ns, long[] ops)
    {
        /** @return contestant {@code c}'s ns per operation on each chunk. */
        double[] nsPerOp(final int c)
        {
            final double[] v = new double[ops.length];
            for (int k = 0; k < v.length; k++)
            {
                v[k] = (double)ns[c][k] / ops[k];
            }
            return v;
        }

        /** @return contestant {@code c}'s total time over total operations. */
        double totalNsPerOp(final int c)
        {
            return (double)Arrays.stream(ns[c]).sum() / Arrays.stream(ops).sum();
        }

        /** @return the median over chunks of contestant {@code c}'s ns per operation. */
        double medianNsPerOp(final int c)
        {
            return quantile(nsPerOp(c), 0.5);
        }

        /** @return per chunk, the time of {@code c} over the time of {@code reference} on the same chunk. */
        double[] pairedRatios(final int c, final int reference)
        {
            final double[] v = new double[ops.length];
            for (int k = 0; k < v.length; k++)
            {
                v[k] = (double)ns[c][k] / ns[reference][k];
            }
            return v;
        }

        /** @return the {@code q} quantile (0..1) of {@code values}, by linear interpolation. */
        static double quantile(final double[] values, final double q)
        {
            final double[] s = values.clone();
            Arrays.sort(s);
            if (s.length == 0)
            {
                return Double.NaN;
            }
            final double at = q * (s.length - 1);
            final int lo = (int)Math.floor(at);
            final int hi = Math.min(s.length - 1, lo + 1);
            return s[lo] + (at - lo) * (s[hi] - s[lo]);
        }
    }

    private interface Contestant extends AutoCloseable
    {
        void run(TransactionLog log);

        @Override
        void close();
    }

    private static final class ExecutorContestant implements Contestant
    {
        private final TpgBatchExecutor executor;
        private final MultiVersionStateTable state = new MultiVersionStateTable(SchedulingWorkload.catalog());

        ExecutorContestant(final int threads, final String strategy)
        {
            executor = TpgBatchExecutor.create(threads, strategy);
        }

        @Override
        public void run(final TransactionLog log)
        {
            executor.execute(log, state);
        }

        @Override
        public void close()
        {
            executor.close();
        }
    }

    private static final class OracleContestant implements Contestant
    {
        private final MapStateStore store = new MapStateStore(SchedulingWorkload.catalog());
        private final SerialApplier applier = new SerialApplier();

        @Override
        public void run(final TransactionLog log)
        {
            // the generator emits transactions in timestamp order: log order is the serial order
            final int n = log.transactionCount();
            for (int t = 0; t < n; t++)
            {
                applier.apply(log, t, store);
            }
        }

        @Override
        public void close()
        {
        }
    }
}
