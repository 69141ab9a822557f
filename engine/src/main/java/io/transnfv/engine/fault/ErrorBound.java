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
