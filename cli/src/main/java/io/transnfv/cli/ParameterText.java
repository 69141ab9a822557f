package io.transnfv.cli;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;

import java.util.Locale;

/**
 * VNF parameter values and ranges as a chain author writes them: durations with a unit
 * ({@code 60s}, not {@code 60000000000}), ranges as {@code min..max}.
 */
final class ParameterText
{
    private static final long[] UNIT_NS = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String[] UNIT = {"h", "m", "s", "ms", "us", "ns"};

    private ParameterText()
    {
    }

    /** @return {@code value} of a parameter of {@code kind}, in the form its YAML takes. */
    static String value(final ParamKind kind, final Object value)
    {
        if (kind == ParamKind.DURATION && value instanceof Number ns)
        {
            return duration(ns.longValue());
        }
        return String.valueOf(value);
    }

    /** @return {@code ns} in the largest unit that divides it exactly, e.g. {@code 60s}, {@code 250ms}, {@code 0s}. */
    static String duration(final long ns)
    {
        if (ns == 0)
        {
            return "0s";
        }
        for (int i = 0; i < UNIT_NS.length; i++)
        {
            if (ns % UNIT_NS[i] == 0)
            {
                return (ns / UNIT_NS[i]) + UNIT[i];
            }
        }
        return ns + "ns";
    }

    /** @return the parameter's allowed range as {@code min..max} (in units for durations), or "" when it has none. */
    static String range(final ParamSpec spec)
    {
        final boolean lower = spec.min() != Double.NEGATIVE_INFINITY;
        final boolean upper = spec.max() < Long.MAX_VALUE; // a duration's "no limit" is Long.MAX_VALUE ns
        if (!lower && !upper)
        {
            return "";
        }
        return (lower ? bound(spec.kind(), spec.min()) : "") + ".." + (upper ? bound(spec.kind(), spec.max()) : "");
    }

    private static String bound(final ParamKind kind, final double value)
    {
        return switch (kind)
        {
            case DURATION -> duration((long)value);
            case DOUBLE -> String.format(Locale.ROOT, "%s", value);
            default -> Long.toString((long)value);
        };
    }
}
