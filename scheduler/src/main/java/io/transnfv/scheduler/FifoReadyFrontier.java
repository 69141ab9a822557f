package io.transnfv.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A multi-producer, multi-consumer FIFO of ready units over one array that every batch
 * fills at most once: a producer claims a cell by incrementing {@code tail} and publishes
 * into it; a consumer claims a cell by a CAS on {@code head} and waits (briefly) for the
 * cell's producer to publish. No locks; no allocation after the array has grown.
 *
 * <pre>
 *   cells: [u0][u1][u2][--][--] ...     (-- = claimed, not yet published, or free)
 *            ▲head      ▲tail
 * </pre>
 */
final class FifoReadyFrontier implements ReadyFrontier
{
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(FifoReadyFrontier.class, "head", int.class);
            TAIL = lookup.findVarHandle(FifoReadyFrontier.class, "tail", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int[] cells = new int[256];
    private long p01, p02, p03, p04, p05, p06, p07;
    private volatile int head;
    private long p11, p12, p13, p14, p15, p16, p17;
    private volatile int tail;
    private long p21, p22, p23, p24, p25, p26, p27;

    FifoReadyFrontier()
    {
        Arrays.fill(cells, EMPTY);
    }

    @Override
    public void reset(final int capacity)
    {
        final int used = tail;
        if (cells.length < capacity)
        {
            cells = new int[Integer.highestOneBit(capacity - 1) << 1];
            Arrays.fill(cells, EMPTY);
        }
        else
        {
            Arrays.fill(cells, 0, Math.min(used, cells.length), EMPTY);
        }
        head = 0;
        tail = 0;
    }

    @Override
    public void offer(final int executor, final int unit)
    {
        final int cell = (int)TAIL.getAndAdd(this, 1);
        CELLS.setRelease(cells, cell, unit);
    }

    @Override
    public int poll(final int executor)
    {
        while (true)
        {
            final int h = head;
            if (h >= tail)
            {
                return EMPTY;
            }
            if (HEAD.compareAndSet(this, h, h + 1))
            {
                return awaitPublished(h);
            }
        }
    }

    private int awaitPublished(final int cell)
    {
        // the producer claimed the cell but may have been descheduled before publishing
        int spins = 0;
        int unit;
        while ((unit = (int)CELLS.getAcquire(cells, cell)) == EMPTY)
        {
            if (++spins < 64)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
        return unit;
    }
}
