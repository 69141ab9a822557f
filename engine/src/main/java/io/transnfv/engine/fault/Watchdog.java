package io.transnfv.engine.fault;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The batch deadline: a daemon thread that watches a run's progress and calls its stuck handler
 * once when work is in flight and no progress was made for the deadline (a VNF function that
 * never returns, a lost wake-up). It reads two numbers the run keeps anyway, so the hot path
 * pays nothing: a progress count that moves whenever work gets done, and whether work is in
 * flight.
 */
public final class Watchdog implements AutoCloseable
{
    /** What the watchdog reads off the run. */
    public interface Run
    {
        /** @return a number that changes whenever the run makes progress. */
        long progress();

        /** @return true while a batch (or packet) is in flight: only then is time counted. */
        boolean inFlight();

        /** @return where the run is stuck, for the message: the VNF, the callback and the packet. */
        String whereStuck();

        /** Fails the run with {@code message}; called once, on the watchdog's thread. */
        void stuck(String message);
    }

    private final Thread thread;
    private volatile boolean closed;

    /**
     * Starts watching.
     *
     * @param name       the thread's name.
     * @param deadlineNs the deadline, positive.
     * @param run        the run to watch.
     * @param clock      wall time in nanoseconds ({@code System::nanoTime}; a fake in tests).
     * @param pollNs     how often to look.
     */
    public Watchdog(final String name, final long deadlineNs, final Run run, final LongSupplier clock, final long pollNs)
    {
        if (deadlineNs <= 0 || pollNs <= 0)
        {
            throw new IllegalArgumentException("deadline and poll period must be positive: " + deadlineNs + ", " + pollNs);
        }
        this.thread = new Thread(() -> watch(deadlineNs, run, clock, pollNs), name);
        thread.setDaemon(true);
        thread.start();
    }

    /** @return a watchdog polling every tenth of the deadline, at most every 100 ms, on the wall clock. */
    public static Watchdog start(final String name, final long deadlineNs, final Run run)
    {
        return new Watchdog(name, deadlineNs, run, System::nanoTime, Math.max(1_000_000L, Math.min(deadlineNs / 10, 100_000_000L)));
    }

    private void watch(final long deadlineNs, final Run run, final LongSupplier clock, final long pollNs)
    {
        long seen = run.progress();
        long sinceNs = clock.getAsLong();
        while (!closed)
        {
            LockSupport.parkNanos(this, pollNs);
            final long now = clock.getAsLong();
            final long progress = run.progress();
            if (progress != seen || !run.inFlight())
            {
                seen = progress;
                sinceNs = now;
                continue;
            }
            if (now - sinceNs >= deadlineNs && !closed)
            {
                run.stuck("no progress for " + describe(now - sinceNs) + ", over the batch deadline of " + describe(deadlineNs)
                    + ": " + run.whereStuck());
                return;
            }
        }
    }

    /** @return {@code ns} as a person reads it: {@code 1.5 s}, {@code 200 ms}. */
    public static String describe(final long ns)
    {
        if (ns >= 1_000_000_000L)
        {
            return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
        }
        return (ns / 1_000_000L) + " ms";
    }

    @Override
    public void close()
    {
        closed = true;
        LockSupport.unpark(thread);
    }
}
