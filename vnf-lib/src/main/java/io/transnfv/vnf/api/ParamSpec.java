package io.transnfv.vnf.api;

import java.util.Objects;

/**
 * One parameter a VNF type accepts.
 *
 * @param name         as written in YAML, e.g. {@code pool_size}.
 * @param kind         its type.
 * @param required     whether it must be given.
 * @param defaultValue the value used when absent (null when required), already of the
 *                     converted type ({@link VnfConfig} documents the types).
 * @param min          smallest allowed numeric value (ignored for other kinds).
 * @param max          largest allowed numeric value (ignored for other kinds).
 * @param description  one sentence for docs and errors.
 * @param live         whether a running chain may change it ({@code POST /params/<vnf>}): the VNF
 *                     then applies a new value in {@link Vnf#prepareChange}, between two batches.
 */
public record ParamSpec(
    String name, ParamKind kind, boolean required, Object defaultValue, double min, double max, String description,
    boolean live)
{
    /** A parameter fixed for the whole run. */
    public ParamSpec(
        final String name, final ParamKind kind, final boolean required, final Object defaultValue, final double min,
        final double max, final String description)
    {
        this(name, kind, required, defaultValue, min, max, description, false);
    }

    /** Validates the spec itself. */
    public ParamSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (required == (defaultValue != null))
        {
            throw new IllegalArgumentException(name + ": exactly one of required or a default");
        }
    }

    /** @return a required parameter with no range limit. */
    public static ParamSpec required(final String name, final ParamKind kind, final String description)
    {
        return new ParamSpec(name, kind, true, null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, description);
    }

    /** @return an optional parameter with a default and no range limit. */
    public static ParamSpec optional(
        final String name, final ParamKind kind, final Object defaultValue, final String description)
    {
        return new ParamSpec(
            name, kind, false, defaultValue, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, description);
    }

    /** @return a copy limited to {@code [min, max]} (numbers, durations in ns, list items). */
    public ParamSpec range(final double min, final double max)
    {
        return new ParamSpec(name, kind, required, defaultValue, min, max, description, live);
    }

    /**
     * @return a copy that a running chain may change: the VNF must then take it in
     *         {@link Vnf#prepareChange}.
     */
    public ParamSpec whileRunning()
    {
        return new ParamSpec(name, kind, required, defaultValue, min, max, description, true);
    }

    /**
     * @param value a value of this parameter as {@link VnfConfig} converts it.
     * @return the value as chain YAML or a change request writes it, so that it reads back as the
     *         same value: numbers, booleans, text and lists as they are, a duration as {@code <n>ns}.
     */
    public Object plain(final Object value)
    {
        return kind == ParamKind.DURATION && value instanceof Long ns ? ns + "ns" : value;
    }
}
