package io.transnfv.engine.thread;

import java.util.Arrays;

/**
 * One worker's time, split by {@link TimeCategory}: the worker switches category at activity
 * boundaries (one clock read per switch) and the time since the last switch goes to the
 * category it was in. Written by its worker only; read by others after the run (or as a
 * recent, possibly stale, figure while it runs).
 */
public final class WorkerClock
{
    private static final int CATEGORIES = TimeCategory.values().length;

    private final long[] nanos = new long[CATEGORIES];
    private int current = TimeCategory.IDLE.ordinal();
    private long markNs = System.nanoTime();

    /** Switches to {@code category}: the time since the last switch goes to the previous one. */
    public void switchTo(final TimeCategory category)
    {
        final long now = System.nanoTime();
        nanos[current] += now - markNs;
        markNs = now;
        current = category.ordinal();
    }

    /** @return nanoseconds spent in {@code category} so far (up to the last switch). */
    public long nanos(final TimeCategory category)
    {
        return nanos[category.ordinal()];
    }

    /** Forgets what was counted (the start of a measured run); the current category goes on. */
    public void clear()
    {
        Arrays.fill(nanos, 0L);
        markNs = System.nanoTime();
    }
}
