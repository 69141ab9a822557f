package io.transnfv.vnf.api;

/** The type of a VNF parameter, as written in chain YAML. */
public enum ParamKind
{
    /** A whole number that fits in an {@code int}. */
    INT("a whole number, e.g. 64"),
    /** A whole number that fits in a {@code long}. */
    LONG("a whole number, e.g. 100000"),
    /** A decimal number. */
    DOUBLE("a number, e.g. 0.5"),
    /** {@code true} or {@code false}. */
    BOOLEAN("true or false"),
    /** Text. */
    STRING("text"),
    /** A duration with a unit: ns, us, ms, s, m or h (e.g. {@code 30s}); stored in nanoseconds. */
    DURATION("a duration with a unit, e.g. 30s, 250ms, 5m"),
    /** A list of text items. */
    STRING_LIST("a list of text items, e.g. [a, b]"),
    /** A list of whole numbers. */
    INT_LIST("a list of whole numbers, e.g. [22, 80]");

    private final String expected;

    ParamKind(final String expected)
    {
        this.expected = expected;
    }

    /** @return how to write a value of this kind, for error messages. */
    public String expected()
    {
        return expected;
    }
}
