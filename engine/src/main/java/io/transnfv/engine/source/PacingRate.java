package io.transnfv.engine.source;

import java.util.Locale;

/**
 * How fast a paced replay offers packets ({@code --rate}): a fixed rate in packets per wall-clock
 * second, or a capture's own inter-packet timing ({@link #ORIGINAL}).
 *
 * @param packetsPerSecond the fixed rate, or 0 for {@link #ORIGINAL}.
 */
public record PacingRate(double packetsPerSecond)
{
    /** A capture's own timing: each packet is due its timestamp's distance from the first one after the start. */
    public static final PacingRate ORIGINAL = new PacingRate(0);

    /** The word that selects {@link #ORIGINAL}. */
    public static final String ORIGINAL_WORD = "original";

    /** Checks the rate. */
    public PacingRate
    {
        if (!(packetsPerSecond >= 0) || Double.isInfinite(packetsPerSecond))
        {
            throw new IllegalArgumentException("packets per second must be finite and > 0: " + packetsPerSecond);
        }
    }

    /**
     * @param packetsPerSecond the fixed rate, above 0.
     * @return the rate.
     * @throws IllegalArgumentException if the rate is not above 0.
     */
    public static PacingRate of(final double packetsPerSecond)
    {
        if (!(packetsPerSecond > 0) || Double.isInfinite(packetsPerSecond))
        {
            throw new IllegalArgumentException("packets per second must be finite and > 0: " + packetsPerSecond);
        }
        return new PacingRate(packetsPerSecond);
    }

    /**
     * Parses {@code original} or a rate in packets per second: a number, optionally with a
     * {@code k} (thousand) or {@code M} (million) suffix, e.g. {@code 250000}, {@code 250k}, {@code 1.5M}.
     *
     * @param text the value as given.
     * @return the rate.
     * @throws IllegalArgumentException with a message a user can act on if the text is neither.
     */
    public static PacingRate parse(final String text)
    {
        final String t = text.trim();
        if (t.equalsIgnoreCase(ORIGINAL_WORD))
        {
            return ORIGINAL;
        }
        double scale = 1;
        String digits = t;
        if (t.endsWith("k") || t.endsWith("K"))
        {
            scale = 1e3;
            digits = t.substring(0, t.length() - 1);
        }
        else if (t.endsWith("M"))
        {
            scale = 1e6;
            digits = t.substring(0, t.length() - 1);
        }
        final double value;
        try
        {
            // digits only: Double.parseDouble alone would take "NaN", "Infinity" and "1d"
            if (digits.isEmpty() || !digits.matches("[-+]?[0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?"))
            {
                throw new NumberFormatException(digits);
            }
            value = Double.parseDouble(digits) * scale;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("'" + text + "' is not a rate; fix: give packets per second above 0"
                + " (e.g. 250000, 250k or 1.5M), or 'original' for a capture's own timing");
        }
        if (!(value > 0) || Double.isInfinite(value))
        {
            throw new IllegalArgumentException("rate must be above 0 packets per second, got '" + text
                + "'; fix: give e.g. 250000, 250k or 1.5M");
        }
        return new PacingRate(value);
    }

    /** @return true for a capture's own timing. */
    public boolean original()
    {
        return packetsPerSecond == 0;
    }

    /** @return the rate as given back: {@code original} or the packets per second. */
    public String describe()
    {
        if (original())
        {
            return ORIGINAL_WORD;
        }
        return packetsPerSecond == Math.rint(packetsPerSecond)
            ? String.format(Locale.ROOT, "%.0f packets/s", packetsPerSecond)
            : String.format(Locale.ROOT, "%.3f packets/s", packetsPerSecond);
    }
}
