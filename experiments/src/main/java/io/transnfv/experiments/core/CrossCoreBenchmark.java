package io.transnfv.experiments.core;

import io.transnfv.tpg.collections.Long2LongHashMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the second core can buy a batch of dependent state operations on a given machine: the
 * price of handing one value from one core to the other, against the price of applying an
 * operation where the state already is. Three measurements:
 *
 * <ul>
 *   <li>{@code pingPong}: two threads take turns incrementing one counter; a call waits for the
 *       other thread's turn, so its time is a round trip between the cores (two hand-overs).</li>
 *   <li>{@code serial}: one thread applies a batch of transactions of two read-modify-writes, the
 *       second's function taking the first's result (a parametric dependency, as in
 *       {@link CoreWorkload}), to one hash map, in order: the serial oracle's work without its
 *       bookkeeping.</li>
 *   <li>{@code partitioned}: the same batch on two threads, each applying in order the operations
 *       whose key hashes to its half of the state, so each key's cache lines stay on one core; where
 *       a transaction's second key is the other half's, the first result crosses to the other thread
 *       through a single-writer FIFO. The best case of any schedule that splits state by key: no
 *       graph, no versions, no aborts. Its final state equals {@code serial}'s.</li>
 * </ul>
 *
 * <p>Scores are per call: a round trip; a batch; a batch (each thread's call applies its half of it).
 * {@code partitioned} beats {@code serial} only if the hand-overs it needs (about half the
 * transactions with uniform keys) cost less than the work it moves; docs/PERFORMANCE.md gives the
 * figures of this machine.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CrossCoreBenchmark
{
    /** Transactions per batch (two operations each). */
    static final int TRANSACTIONS = 5_000;
    /** Batches generated, replayed in turn. */
    static final int BATCHES = 64;
    private static final int FIFO = 1 << 16;

    /** The turn counter the two ping-pong threads share. */
    @State(Scope.Group)
    public static class Ball
    {
        final AtomicLong turn = new AtomicLong();
    }

    /** The batches: two uniform keys per transaction, from a fixed seed. */
    @State(Scope.Benchmark)
    public static class Batches
    {
        @Param({"100000"})
        int keys;

        long[][] first;
        long[][] second;

        @Setup(Level.Trial)
        public void generate()
        {
            final SplittableRandom random = new SplittableRandom(42);
            first = new long[BATCHES][TRANSACTIONS];
            second = new long[BATCHES][TRANSACTIONS];
            for (int b = 0; b < BATCHES; b++)
            {
                for (int t = 0; t < TRANSACTIONS; t++)
                {
                    first[b][t] = 1 + random.nextInt(keys);
                    second[b][t] = 1 + random.nextInt(keys);
                }
            }
        }
    }

    /** One thread's state for {@code serial}. */
    @State(Scope.Thread)
    public static class Serial
    {
        Long2LongHashMap state;
        long[] results = new long[2 * TRANSACTIONS];
        int batch;

        @Setup(Level.Iteration)
        public void reset(final Batches batches)
        {
            state = new Long2LongHashMap(Integer.highestOneBit(batches.keys) << 2, 0L);
            batch = 0;
        }
    }

    /** The two halves of the state and the FIFOs between them, for {@code partitioned}. */
    @State(Scope.Group)
    public static class Halves
    {
        final Long2LongHashMap[] state = new Long2LongHashMap[2];
        final long[][] fifo = new long[2][FIFO];
        final AtomicLong[] written = {new AtomicLong(), new AtomicLong()};
        final long[][] results = new long[2][2 * TRANSACTIONS];
        final int[] batch = new int[2];
        final long[] read = new long[2];

        @Setup(Level.Iteration)
        public void reset(final Batches batches)
        {
            for (int p = 0; p < 2; p++)
            {
                state[p] = new Long2LongHashMap(Integer.highestOneBit(batches.keys) << 2, 0L);
                written[p].set(0);
                batch[p] = 0;
                read[p] = 0;
            }
        }
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long ping(final Ball ball, final Control control)
    {
        return turn(ball, control, 0);
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long pong(final Ball ball, final Control control)
    {
        return turn(ball, control, 1);
    }

    private static long turn(final Ball ball, final Control control, final int parity)
    {
        long v;
        while (((v = ball.turn.get()) & 1) != parity)
        {
            if (control.stopMeasurement)
            {
                return v;
            }
            Thread.onSpinWait();
        }
        ball.turn.lazySet(v + 1);
        return v;
    }

    @Benchmark
    public long serial(final Batches batches, final Serial s)
    {
        final int b = s.batch++ & (BATCHES - 1);
        final long[] first = batches.first[b];
        final long[] second = batches.second[b];
        final Long2LongHashMap state = s.state;
        final long[] results = s.results;
        for (int t = 0; t < TRANSACTIONS; t++)
        {
            final long a = state.get(first[t]) + 1;
            state.put(first[t], a);
            results[2 * t] = a;
            final long c = state.get(second[t]) + a;
            state.put(second[t], c);
            results[2 * t + 1] = c;
        }
        return results[2 * TRANSACTIONS - 1];
    }

    @Benchmark
    @Group("partitioned")
    @GroupThreads(1)
    public long half0(final Batches batches, final Halves halves, final Control control)
    {
        return half(batches, halves, control, 0);
    }

    @Benchmark
    @Group("partitioned")
    @GroupThreads(1)
    public long half1(final Batches batches, final Halves halves, final Control control)
    {
        return half(batches, halves, control, 1);
    }

    /** @return which half of the state {@code key} lives in. */
    static int half(final long key)
    {
        return (int)((key * 0xC2B2AE3D27D4EB4FL) >>> 63);
    }

    static long half(final Batches batches, final Halves halves, final Control control, final int p)
    {
        final int b = halves.batch[p]++ & (BATCHES - 1);
        final long[] first = batches.first[b];
        final long[] second = batches.second[b];
        final Long2LongHashMap state = halves.state[p];
        final long[] results = halves.results[p];
        final long[] out = halves.fifo[p];
        final long[] in = halves.fifo[1 - p];
        final AtomicLong written = halves.written[p];
        final AtomicLong theirs = halves.written[1 - p];
        long sent = written.get();
        long read = halves.read[p];
        long available = read;
        for (int t = 0; t < TRANSACTIONS; t++)
        {
            final long k1 = first[t];
            final long k2 = second[t];
            final boolean mine1 = half(k1) == p;
            final boolean mine2 = half(k2) == p;
            long a = 0;
            if (mine1)
            {
                a = state.get(k1) + 1;
                state.put(k1, a);
                results[2 * t] = a;
                if (!mine2)
                {
                    out[(int)(sent & (FIFO - 1))] = a;
                    written.lazySet(++sent);
                }
            }
            if (mine2)
            {
                if (!mine1)
                {
                    while (available <= read)
                    {
                        if (control.stopMeasurement)
                        {
                            halves.read[p] = read;
                            return a;
                        }
                        Thread.onSpinWait();
                        available = theirs.get();
                    }
                    a = in[(int)(read++ & (FIFO - 1))];
                }
                final long c = state.get(k2) + a;
                state.put(k2, c);
                results[2 * t + 1] = c;
            }
        }
        halves.read[p] = read;
        return results[2 * TRANSACTIONS - 1];
    }
}
