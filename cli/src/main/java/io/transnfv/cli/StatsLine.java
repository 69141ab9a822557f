package io.transnfv.cli;

import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SnapshotExchange;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --stats-interval}: one line on stderr every interval while a run goes on, with the
 * figures of a snapshot the engine copied at a batch boundary and the rates since the previous
 * line, e.g.
 * <pre>
 * stats 12.0s: packets 1,204,224 (100,352/s)  forwarded 1,150,000 (95,800/s)  dropped 54,224 (4,552/s)  alerts 17  latency p99 210 us  state 40,112 entries
 * </pre>
 * Its own thread ({@code transnfv-stats}) asks for the snapshots; the data path only copies them.
 */
final class StatsLine implements AutoCloseable
{
    private final ChainExecutor executor;
    private final SnapshotExchange exchange;
    private final long intervalNs;
    private final PrintStream out;
    private final Thread thread;
    private final long startNs = System.nanoTime();
    private volatile boolean running = true;

    private StatsLine(final ChainExecutor executor, final SnapshotExchange exchange, final long intervalNs, final PrintStream out)
    {
        this.executor = executor;
        this.exchange = exchange;
        this.intervalNs = intervalNs;
        this.out = out;
        this.thread = new Thread(this::loop, "transnfv-stats");
        this.thread.setDaemon(true);
    }

    /** @return the stats line, started; null for an executor that publishes no snapshots. */
    static StatsLine start(final ChainExecutor executor, final long intervalNs, final PrintStream out)
    {
        final Optional<SnapshotExchange> exchange = executor.snapshots();
        if (exchange.isEmpty())
        {
            return null;
        }
        final StatsLine line = new StatsLine(executor, exchange.get(), intervalNs, out);
        line.thread.start();
        return line;
    }

    private void loop()
    {
        RunSnapshot previous = exchange.latest();
        long nextNs = startNs + intervalNs;
        while (running)
        {
            final long waitNs = nextNs - System.nanoTime();
            if (waitNs > 0)
            {
                LockSupport.parkNanos(this, waitNs);
                continue;
            }
            nextNs += intervalNs;
            final RunSnapshot now = exchange.await(TimeUnit.NANOSECONDS.convert(1, TimeUnit.SECONDS));
            if (!running || now.last())
            {
                return;
            }
            out.println(line(previous, now, startNs, executor.liveEntries().map(StatsLine::sum).orElse(-1L)));
            out.flush();
            previous = now;
        }
    }

    /**
     * @param previous the snapshot of the line before (or the run's start).
     * @param now      this line's snapshot.
     * @param startNs  when the run started ({@code System.nanoTime()}).
     * @param entries  state entries over every table, or -1 if unknown.
     * @return the line.
     */
    static String line(final RunSnapshot previous, final RunSnapshot now, final long startNs, final long entries)
    {
        final RunStats a = previous.stats();
        final RunStats b = now.stats();
        final double seconds = Math.max(1e-9, (now.takenNs() - previous.takenNs()) / 1e9);
        final long droppedA = a.droppedTotal();
        final long droppedB = b.droppedTotal();
        final StringBuilder s = new StringBuilder(160);
        s.append(String.format(Locale.ROOT, "stats %.1fs: packets %,d (%,.0f/s)  forwarded %,d (%,.0f/s)  dropped %,d (%,.0f/s)"
                + "  alerts %,d",
            (now.takenNs() - startNs) / 1e9,
            b.packetsFinished(), (b.packetsFinished() - a.packetsFinished()) / seconds,
            b.forwarded(), (b.forwarded() - a.forwarded()) / seconds,
            droppedB, (droppedB - droppedA) / seconds,
            b.alertsTotal()));
        if (b.latencyNs().getTotalCount() > 0)
        {
            s.append(String.format(Locale.ROOT, "  latency p99 %,d us", Math.round(b.latencyNs().getValueAtPercentile(99) / 1e3)));
        }
        if (entries >= 0)
        {
            s.append(String.format(Locale.ROOT, "  state %,d entries", entries));
        }
        return s.toString();
    }

    private static long sum(final long[] values)
    {
        long total = 0;
        for (final long v : values)
        {
            total += v;
        }
        return total;
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(2000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
