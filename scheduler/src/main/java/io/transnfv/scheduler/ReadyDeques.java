package io.transnfv.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One work-stealing deque of ready units per executor (Chase and Lev, "Dynamic Circular
 * Work-Stealing Deque", SPAA 2005; memory orders after Lê et al., PPoPP 2013), over
 * {@code int} cells: no boxing, no allocation once sized. The owner pushes at the bottom and
 * takes from either end; any other executor steals from the top.
 *
 * <pre>
 *  executor e:   cells  [ .. | u7 | u9 | u4 | .. ]       ring of capacity ≥ 2 × offers
 *                              ▲top          ▲bottom
 *                 steal / FIFO take ◄┘        └► push, LIFO take (owner only)
 * </pre>
 *
 * <p>Indices are padded apart (a top read by thieves never shares a line with another
 * executor's indices). {@link #reset} and {@link #seed} are called by the coordinating thread
 * before the batch is published; {@link #push}, {@link #takeBottom} and {@link #takeTop}
 * only by executor {@code e}'s own thread; {@link #takeTop} on a victim by any thread. A
 * deque reset for one executor uses plain accesses.
 */
public final class ReadyDeques
{
    /** Nothing to take. */
    public static final int EMPTY = -1;
    /** A thief lost a race on the top: the deque may still hold work. */
    public static final int CONTENDED = -2;

    private static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(int[].class);
    /** 16 longs = 128 bytes: two cache lines between any two indices. */
    private static final int PAD = 16;

    private final int executors;
    private final long[] indices;
    private final long[] randomState;
    private final int[][] cells;
    private final int[] masks;
    private boolean concurrent;

    /** @param executors the number of executors, each with its own deque. */
    public ReadyDeques(final int executors)
    {
        if (executors < 1)
        {
            throw new IllegalArgumentException("executors must be >= 1: " + executors);
        }
        this.executors = executors;
        this.indices = new long[(2 * executors + 2) * PAD];
        this.randomState = new long[(executors + 2) * PAD];
        this.cells = new int[executors][];
        this.masks = new int[executors];
        for (int e = 0; e < executors; e++)
        {
            cells[e] = new int[64];
            masks[e] = 63;
            randomState[(e + 1) * PAD] = 0x9E3779B97F4A7C15L * (e + 1);
        }
        this.concurrent = executors > 1;
    }

    /** @return the number of deques. */
    public int executors()
    {
        return executors;
    }

    /**
     * Empties every deque and sizes each for {@code offers} pushes in the coming batch.
     *
     * @param concurrent false if one executor thread alone uses the deques this batch.
     */
    public void reset(final int offers, final boolean concurrent)
    {
        final int capacity = Integer.highestOneBit(Math.max(32, 2 * offers) - 1) << 1;
        for (int e = 0; e < executors; e++)
        {
            if (cells[e].length < capacity)
            {
                cells[e] = new int[capacity];
                masks[e] = capacity - 1;
            }
            indices[top(e)] = 0;
            indices[bottom(e)] = 0;
        }
        this.concurrent = concurrent;
    }

    /** Adds {@code unit} to executor {@code e}'s deque before the batch is published. */
    public void seed(final int e, final int unit)
    {
        final long b = indices[bottom(e)];
        cells[e][(int)b & masks[e]] = unit;
        indices[bottom(e)] = b + 1;
    }

    /** Owner only: makes {@code unit} available, at the bottom of executor {@code e}'s deque. */
    public void push(final int e, final int unit)
    {
        final int bi = bottom(e);
        final long b = indices[bi];
        cells[e][(int)b & masks[e]] = unit;
        if (concurrent)
        {
            INDEX.setRelease(indices, bi, b + 1);
        }
        else
        {
            indices[bi] = b + 1;
        }
    }

    /** Owner only: takes the most recently pushed unit (LIFO), or {@link #EMPTY}. */
    public int takeBottom(final int e)
    {
        final int bi = bottom(e);
        final int ti = top(e);
        final long b = indices[bi] - 1;
        if (!concurrent)
        {
            final long t = indices[ti];
            if (t > b)
            {
                return EMPTY;
            }
            indices[bi] = b;
            return cells[e][(int)b & masks[e]];
        }
        INDEX.setVolatile(indices, bi, b);
        final long t = (long)INDEX.getVolatile(indices, ti);
        if (t > b)
        {
            INDEX.setRelease(indices, bi, b + 1);
            return EMPTY;
        }
        int unit = cells[e][(int)b & masks[e]];
        if (t == b)
        {
            // the last unit: race the thieves for it on the top
            if (!INDEX.compareAndSet(indices, ti, t, t + 1))
            {
                unit = EMPTY;
            }
            INDEX.setRelease(indices, bi, b + 1);
        }
        return unit;
    }

    /**
     * Takes the oldest unit of executor {@code victim}'s deque (FIFO): the owner's breadth-first
     * take, or a thief's steal.
     *
     * @return a unit, {@link #EMPTY}, or {@link #CONTENDED} if another taker won the race.
     */
    public int takeTop(final int victim)
    {
        final int ti = top(victim);
        if (!concurrent)
        {
            final long t = indices[ti];
            if (t >= indices[bottom(victim)])
            {
                return EMPTY;
            }
            indices[ti] = t + 1;
            return cells[victim][(int)t & masks[victim]];
        }
        final long t = (long)INDEX.getVolatile(indices, ti);
        final long b = (long)INDEX.getVolatile(indices, bottom(victim));
        if (t >= b)
        {
            return EMPTY;
        }
        final int unit = (int)CELL.getAcquire(cells[victim], (int)t & masks[victim]);
        return INDEX.compareAndSet(indices, ti, t, t + 1) ? unit : CONTENDED;
    }

    /** @return true if executor {@code e}'s deque looks non-empty (a hint, for waking). */
    public boolean looksNonEmpty(final int e)
    {
        return (long)INDEX.getOpaque(indices, top(e)) < (long)INDEX.getOpaque(indices, bottom(e));
    }

    /** Owner only: the next value of executor {@code e}'s xorshift generator. */
    public int nextRandom(final int e)
    {
        final int i = (e + 1) * PAD;
        long x = randomState[i];
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        randomState[i] = x;
        return (int)(x >>> 33);
    }

    private static int top(final int e)
    {
        return (2 * e + 1) * PAD;
    }

    private static int bottom(final int e)
    {
        return (2 * e + 2) * PAD;
    }
}
