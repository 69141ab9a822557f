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
 */
public record ParamSpec(
    String name, ParamKind kind, boolean required, Object defaultValue, double min, double max, String description)
{
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
        return new ParamSpec(name, kind, required, defaultValue, min, max, description);
    }
}
