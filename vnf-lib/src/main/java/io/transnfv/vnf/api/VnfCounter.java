package io.transnfv.vnf.api;

import io.transnfv.vnf.instance.CounterStripe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonically increasing counter a VNF reports in the run summary. Safe to increment
 * from several post-processing threads; counters are reports, not state, and play no part
 * in chain output equivalence.
 *
 * <p>On the engine's worker threads (each a {@link CounterStripe} with a stripe) an increment
 * is a plain add to the thread's own padded cell; on any other thread it goes to a {@link LongAdder}.
 * {@link #get()} sums both; it sees every increment made before a happens-before edge (the end
 * of a batch, the end of a run), and a recent, possibly stale, total otherwise.
 */
public final class VnfCounter
{
    private static final int PAD = 8;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

    private final String name;
    private final long[] cells = new long[(CounterStripe.STRIPES + 1) * PAD];
    private final LongAdder others = new LongAdder();

    /** @param name the counter's full name, {@code <instance>.<counter>}. */
    public VnfCounter(final String name)
    {
        this.name = name;
    }

    /** @return the counter's full name. */
    public String name()
    {
        return name;
    }

    /** Adds one. */
    public void increment()
    {
        add(1L);
    }

    /** Adds {@code delta}. */
    public void add(final long delta)
    {
        final int stripe = Thread.currentThread() instanceof CounterStripe owner ? owner.counterStripe() : -1;
        if (stripe >= 0)
        {
            final int i = (stripe + 1) * PAD;
            CELLS.setOpaque(cells, i, cells[i] + delta);
        }
        else
        {
            others.add(delta);
        }
    }

    /** @return the current total. */
    public long get()
    {
        long sum = others.sum();
        for (int i = PAD; i < cells.length; i += PAD)
        {
            sum += (long)CELLS.getOpaque(cells, i);
        }
        return sum;
    }
}
