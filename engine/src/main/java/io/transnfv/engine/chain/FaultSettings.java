package io.transnfv.engine.chain;

/**
 * What a run does about faults in VNF code (see {@code docs/reliability.md}). Every setting has
 * its default here; the YAML {@code settings: faults:} block and the {@code run} command's flags
 * override them.
 *
 * @param errorBound      the largest share of packets, in one window of packet time, that may be
 *                        dropped as VNF errors before the run stops: 0.01 is 1 %; 1 never stops.
 * @param errorWindowNs   the window of packet time the share is taken over.
 * @param batchDeadlineNs the wall time one batch (or, on the serial executor, one packet) may take
 *                        before the run fails as stuck, naming the VNF and the packet; 0 for none.
 */
public record FaultSettings(double errorBound, long errorWindowNs, long batchDeadlineNs)
{
    /** Default error bound: 1 % of the packets of a window. */
    public static final double DEFAULT_ERROR_BOUND = 0.01;
    /** Default window: 10 s of packet time. */
    public static final long DEFAULT_ERROR_WINDOW_NS = 10_000_000_000L;
    /** Default batch deadline: 10 s of wall time, thousands of times what a batch takes. */
    public static final long DEFAULT_BATCH_DEADLINE_NS = 10_000_000_000L;
    /**
     * A window is judged only once it holds this many packets, so that one fault among the first
     * few packets does not stop a run.
     */
    public static final int MIN_WINDOW_PACKETS = 100;

    /** Validates the settings. */
    public FaultSettings
    {
        if (!(errorBound >= 0 && errorBound <= 1))
        {
            throw new IllegalArgumentException("error bound must be a share between 0 and 1 (0% to 100%): " + errorBound
                + "; fix: e.g. 0.01 or 1%");
        }
        if (errorWindowNs < 1)
        {
            throw new IllegalArgumentException("error window must be a positive duration: " + errorWindowNs + " ns"
                + "; fix: e.g. 10s");
        }
        if (batchDeadlineNs < 0)
        {
            throw new IllegalArgumentException("batch deadline must be >= 0 (0 for none): " + batchDeadlineNs + " ns"
                + "; fix: e.g. 10s");
        }
    }

    /** @return the defaults: 1 % over 10 s of packet time, a 10 s batch deadline. */
    public static FaultSettings defaults()
    {
        return new FaultSettings(DEFAULT_ERROR_BOUND, DEFAULT_ERROR_WINDOW_NS, DEFAULT_BATCH_DEADLINE_NS);
    }

    /**
     * Parses a share as a user writes it: {@code 1%}, {@code 0.5%} or {@code 0.01}.
     *
     * @throws IllegalArgumentException if it is not a number or a percentage between 0 and 100 %.
     */
    public static double parseShare(final String text)
    {
        final String trimmed = text.trim();
        final double value;
        try
        {
            value = trimmed.endsWith("%")
                ? Double.parseDouble(trimmed.substring(0, trimmed.length() - 1).trim()) / 100.0
                : Double.parseDouble(trimmed);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("'" + text + "' is not a share; fix: write a percentage like 1% or a"
                + " fraction like 0.01");
        }
        if (!(value >= 0 && value <= 1))
        {
            throw new IllegalArgumentException("'" + text + "' is not between 0% and 100%; fix: write e.g. 1% or 0.01");
        }
        return value;
    }

    /** @return a copy with another error bound. */
    public FaultSettings withErrorBound(final double bound)
    {
        return new FaultSettings(bound, errorWindowNs, batchDeadlineNs);
    }

    /** @return a copy with another error window. */
    public FaultSettings withErrorWindow(final long windowNs)
    {
        return new FaultSettings(errorBound, windowNs, batchDeadlineNs);
    }

    /** @return a copy with another batch deadline (0 for none). */
    public FaultSettings withBatchDeadline(final long deadlineNs)
    {
        return new FaultSettings(errorBound, errorWindowNs, deadlineNs);
    }
}
