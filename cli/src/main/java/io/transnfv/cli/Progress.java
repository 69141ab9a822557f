package io.transnfv.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A progress indication on stderr while a run goes on: a redrawn bar on a terminal, a line
 * every ten percent (or every 10 s when the total is unknown) otherwise.
 */
final class Progress implements AutoCloseable
{
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final LongSupplier done;
    private final Supplier<String> detail;
    private final long total;
    private final boolean terminal;
    private final Thread thread;
    private final long startNs = System.nanoTime();
    private volatile boolean running = true;

    /**
     * @param label what is counted, e.g. "packets".
     * @param done  reads the count so far (from any thread).
     * @param total the expected count, or -1 if unknown.
     */
    Progress(final String label, final LongSupplier done, final long total, final PrintStream out, final boolean enabled)
    {
        this(label, done, total, out, enabled, () -> "");
    }

    /**
     * @param detail what to show after the rate on each line (e.g. live state and heap), read
     *               from the progress thread; empty for nothing.
     */
    Progress(final String label, final LongSupplier done, final long total, final PrintStream out, final boolean enabled,
        final Supplier<String> detail)
    {
        this.out = out;
        this.done = done;
        this.detail = detail;
        this.total = total;
        this.terminal = System.console() != null;
        this.thread = new Thread(() -> loop(label), "transnfv-progress");
        this.thread.setDaemon(true);
        if (enabled)
        {
            thread.start();
        }
    }

    private void loop(final String label)
    {
        long lastLinePercent = 0;
        long lastLineNs = startNs;
        while (running)
        {
            try
            {
                Thread.sleep(terminal ? 200 : 1000);
            }
            catch (final InterruptedException e)
            {
                return;
            }
            final long n = done.getAsLong();
            final long now = System.nanoTime();
            final double rate = n / Math.max(1e-9, (now - startNs) / 1e9);
            if (terminal)
            {
                out.print("\r" + render(n, label, rate));
                out.flush();
            }
            else if (total > 0 && n * 100 / total >= lastLinePercent + 10)
            {
                lastLinePercent = n * 100 / total / 10 * 10;
                out.println(render(n, label, rate));
            }
            else if (total <= 0 && now - lastLineNs >= 10_000_000_000L)
            {
                lastLineNs = now;
                out.println(render(n, label, rate));
            }
        }
    }

    private String render(final long n, final String label, final double rate)
    {
        if (total > 0)
        {
            final int filled = (int)Math.min(WIDTH, n * WIDTH / total);
            return String.format(Locale.ROOT, "[%s%s] %3d%% %,d/%,d %s  %,.0f/s%s",
                "=".repeat(filled), " ".repeat(WIDTH - filled), n * 100 / total, n, total, label, rate, detail.get());
        }
        return String.format(Locale.ROOT, "%,d %s  %,.0f/s%s", n, label, rate, detail.get());
    }

    @Override
    public void close()
    {
        running = false;
        thread.interrupt();
        try
        {
            thread.join(1000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        if (terminal && thread.getState() != Thread.State.NEW)
        {
            out.print("\r" + " ".repeat(WIDTH + 100) + "\r");
            out.flush();
        }
    }
}
