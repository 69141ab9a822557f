package io.transnfv.engine.report;

import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.engine.thread.WorkerClock;
import io.transnfv.engine.thread.WorkerGroup;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a worker group's time and allocations went during a run: the {@link WorkerClock}s'
 * time per {@link TimeCategory}, summed or per worker, and the bytes each worker thread
 * allocated between {@link #runStarted} and {@link #runEnded} (the JVM's thread allocation
 * counters, -1 where it has none). Read off the hot path: the clocks switch at phase and task
 * boundaries only.
 *
 * <p>Threads: {@link #runStarted} and {@link #runEnded} on the thread that runs the group;
 * {@link #timeNs} from whichever thread serves a snapshot (a moment's figures); the per-packet
 * figures after the run.
 */
public final class WorkerTimes
{
    private final WorkerGroup workers;
    private final int threads;
    private long[] allocatedAtStart;
    private long[] allocatedAtEnd;
    private long packetsRun;

    /**
     * @param workers the group whose clocks and threads are read.
     * @param threads its workers.
     */
    public WorkerTimes(final WorkerGroup workers, final int threads)
    {
        this.workers = workers;
        this.threads = threads;
    }

    /** Before the workers run: their allocation counters now. */
    public void runStarted()
    {
        allocatedAtStart = allocatedBytes();
    }

    /** After the workers ran: their allocation counters now, and the run's packets (the per-packet figures' divisor). */
    public void runEnded(final long packets)
    {
        allocatedAtEnd = allocatedBytes();
        packetsRun = packets;
    }

    /** @return the packets of the run, as {@link #runEnded} was told. */
    public long packetsRun()
    {
        return packetsRun;
    }

    /**
     * @return time the workers spent per {@link TimeCategory} ordinal, summed over them; read
     *         without synchronisation from whichever thread serves a snapshot (a moment's figures).
     */
    public long[] timeNs()
    {
        final TimeCategory[] categories = TimeCategory.values();
        final long[] ns = new long[categories.length];
        for (int w = 0; w < threads; w++)
        {
            final WorkerClock clock = workers.clock(w);
            for (final TimeCategory category : categories)
            {
                ns[category.ordinal()] += clock.nanos(category);
            }
        }
        return ns;
    }

    /**
     * @return worker time per packet of the last run, summed over every worker, indexed by
     *         {@link TimeCategory#ordinal()}: where the engine's time went, on the threads where it went.
     */
    public double[] timeNsPerPacket()
    {
        final double packets = Math.max(1, packetsRun);
        final double[] perPacket = new double[TimeCategory.values().length];
        for (final TimeCategory category : TimeCategory.values())
        {
            long ns = 0;
            for (int w = 0; w < threads; w++)
            {
                ns += workers.clock(w).nanos(category);
            }
            perPacket[category.ordinal()] = ns / packets;
        }
        return perPacket;
    }

    /** Adds the run's time per packet, summed and per worker thread, with each thread's allocations, to {@code report}. */
    public void addTo(final SchedulerReport.Builder report)
    {
        final double packets = Math.max(1, packetsRun);
        final double[] nsPerPacket = timeNsPerPacket();
        for (final TimeCategory category : TimeCategory.values())
        {
            report.timeShare(category.label(), round(nsPerPacket[category.ordinal()]));
        }
        for (int w = 0; w < threads; w++)
        {
            final WorkerClock clock = workers.clock(w);
            final List<SchedulerReport.TimeShare> own = new ArrayList<>();
            long busy = 0;
            for (final TimeCategory category : TimeCategory.values())
            {
                own.add(new SchedulerReport.TimeShare(category.label(), round(clock.nanos(category) / packets)));
                busy += category == TimeCategory.IDLE || category == TimeCategory.WAIT ? 0 : clock.nanos(category);
            }
            final double allocated = allocatedAtStart == null || allocatedAtEnd == null || allocatedAtStart[w] < 0
                ? -1 : Math.round(100.0 * (allocatedAtEnd[w] - allocatedAtStart[w]) / packets) / 100.0;
            report.thread(new SchedulerReport.ThreadReport(workers.thread(w).getName(), round(busy / packets), allocated, own));
        }
    }

    private long[] allocatedBytes()
    {
        final long[] bytes = new long[threads];
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx && mx.isThreadAllocatedMemorySupported())
        {
            for (int w = 0; w < threads; w++)
            {
                final Thread thread = workers.thread(w);
                bytes[w] = thread == null ? -1 : mx.getThreadAllocatedBytes(thread.getId());
            }
        }
        return bytes;
    }

    private static double round(final double value)
    {
        return Math.round(10.0 * value) / 10.0;
    }
}
