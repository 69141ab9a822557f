package io.transnfv.engine.report;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How a reader off the data path (the HTTP control plane, a periodic stats line) gets a
 * consistent copy of counters that the engine's threads write without synchronisation:
 *
 * <pre>
 *  reader (any thread)               owner (the thread that finishes packets)
 *   t = request() ─────────────────►  at its next batch boundary, or while idle:
 *                                      pending() != NONE ─► copy ─► publish(t, snapshot)
 *   served() >= t ? latest() ◄──────   (served, latest: volatile)
 *                                     the run's caller, after the run: publishLast(snapshot)
 * </pre>
 *
 * <p>The data path pays one volatile read per check and copies only when asked, so a reader
 * never takes a lock or slows a packet; a reader waits at most until the owner's next check
 * (a batch, or an idle loop's turn). Any number of readers; one owner at a time (the IO role's
 * hand-over orders successive owners).
 */
public final class SnapshotExchange
{
    /** {@link #pending()}: nobody is waiting for a snapshot. */
    public static final long NONE = -1;

    private final AtomicLong requested = new AtomicLong();
    private volatile long served;
    private volatile RunSnapshot latest;
    /** What the owner served last: read on the data path without a volatile access. */
    private long servedByOwner;

    /** @param initial what readers get before the owner has published anything. */
    public SnapshotExchange(final RunSnapshot initial)
    {
        this.latest = initial;
    }

    /**
     * Asks the owner for a fresh snapshot; any thread.
     *
     * @return the ticket: once {@link #served()} reaches it, {@link #latest()} was taken after this call.
     */
    public long request()
    {
        return requested.incrementAndGet();
    }

    /** @return the highest ticket served so far (every ticket once the run's last snapshot is out). */
    public long served()
    {
        return served;
    }

    /** @return the most recent snapshot published; never null. */
    public RunSnapshot latest()
    {
        return latest;
    }

    /**
     * Owner only: is a reader waiting?
     *
     * @return the ticket to pass to {@link #publish}, or {@link #NONE}.
     */
    public long pending()
    {
        final long ticket = requested.get();
        return ticket != servedByOwner ? ticket : NONE;
    }

    /** Owner only: publishes {@code snapshot}, taken after {@link #pending()} returned {@code ticket}. */
    public void publish(final long ticket, final RunSnapshot snapshot)
    {
        latest = snapshot;
        servedByOwner = ticket;
        served = ticket;
    }

    /** Publishes the run's final figures once the run has ended; every ticket, past and future, is then served. */
    public void publishLast(final RunSnapshot snapshot)
    {
        latest = snapshot;
        served = Long.MAX_VALUE;
    }

    /**
     * Asks for a snapshot and waits for it on the calling thread (never a data-path thread).
     *
     * @param timeoutNs how long to wait for the owner before settling for the latest one.
     * @return the fresh snapshot, or the latest one if the owner did not answer in time.
     */
    public RunSnapshot await(final long timeoutNs)
    {
        final long ticket = request();
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (served < ticket && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        return latest;
    }
}
