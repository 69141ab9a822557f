package io.transnfv.engine.fault;

import io.transnfv.engine.chain.FaultSettings;

import java.util.Locale;

/**
 * The error bound: the share of packets dropped as VNF errors, per window of packet time,
 * judged packet by packet in arrival order (so the serial oracle and the engine stop after the
 * same packet's batch). Windows follow one another from the first packet's time; a window is
 * judged once it holds {@link FaultSettings#MIN_WINDOW_PACKETS} packets. Owned by the thread
 * that finishes packets; allocation-free until the bound is crossed.
 */
public final class ErrorBound
{
    private final double bound;
    private final long windowNs;
    private long windowStartNs = Long.MIN_VALUE;
    private long packets;
    private long faulted;
    private String exceeded;

    /** @param settings the bound and the window. */
    public ErrorBound(final FaultSettings settings)
    {
        this.bound = settings.errorBound();
        this.windowNs = settings.errorWindowNs();
    }

    /**
     * Counts one finished packet.
     *
     * @param timeNs  its packet time (non-decreasing).
     * @param isFault true if it was dropped as a VNF error.
     * @return true the first time the bound is crossed: the caller stops the run.
     */
    public boolean onPacket(final long timeNs, final boolean isFault)
    {
        if (windowStartNs == Long.MIN_VALUE || timeNs - windowStartNs >= windowNs)
        {
            windowStartNs = timeNs;
            packets = 0;
            faulted = 0;
        }
        packets++;
        if (!isFault)
        {
            return false;
        }
        faulted++;
        if (exceeded == null && bound < 1 && packets >= FaultSettings.MIN_WINDOW_PACKETS && faulted > bound * packets)
        {
            exceeded = String.format(Locale.ROOT, "%d of %d packets (%.2f %%) in a window of %s of packet time failed in VNF"
                + " code, above the error bound of %s %%", faulted, packets, 100.0 * faulted / packets, seconds(windowNs),
                trim(100.0 * bound));
            return true;
        }
        return false;
    }

    /**
     * @return the current window's state: a checkpoint carries it, so that a resumed run judges
     *         the packets after the cut in the same window as an uninterrupted run does.
     */
    public Window window()
    {
        return new Window(windowStartNs, packets, faulted);
    }

    /** Continues from {@code window}, a checkpoint's (before the first packet of a resumed run). */
    public void restore(final Window window)
    {
        windowStartNs = window.startNs();
        packets = window.packets();
        faulted = window.faulted();
    }

    /**
     * The state of the error bound's window at a checkpoint's cut.
     *
     * @param startNs packet time the window began at, or Long.MIN_VALUE before the first packet.
     * @param packets packets finished in the window.
     * @param faulted of them, dropped as VNF errors.
     */
    public record Window(long startNs, long packets, long faulted)
    {
        /** No packet yet: the next one opens a window. */
        public static final Window FRESH = new Window(Long.MIN_VALUE, 0, 0);

        /** Checks the counts. */
        public Window
        {
            if (packets < 0 || faulted < 0 || faulted > packets)
            {
                throw new IllegalArgumentException("error window of " + packets + " packets, " + faulted + " faulted");
            }
        }
    }

    /** @return what crossed the bound, or null. */
    public String exceeded()
    {
        return exceeded;
    }

    private static String seconds(final long ns)
    {
        return ns % 1_000_000_000L == 0 ? ns / 1_000_000_000L + " s" : trim(ns / 1e6) + " ms";
    }

    private static String trim(final double value)
    {
        final String text = String.format(Locale.ROOT, "%.3f", value);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
