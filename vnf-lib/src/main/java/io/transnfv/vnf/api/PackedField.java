package io.transnfv.vnf.api;

/**
 * One field of a {@link PackedLayout}: an unsigned value of {@link #bits()} bits at {@link #shift()}
 * of a record. Its accessors read or replace the field in a {@code long} and leave the other bits
 * as they are; they allocate nothing and read only final fields computed when the layout was built.
 * Immutable; any thread.
 */
public final class PackedField
{
    private final String name;
    private final int bits;
    private final int shift;
    /** The field's largest value, unshifted: {@code bits} ones. */
    private final long mask;
    /** The record's bits outside the field. */
    private final long clear;

    PackedField(final String name, final int bits, final int shift)
    {
        this.name = name;
        this.bits = bits;
        this.shift = shift;
        this.mask = -1L >>> (Long.SIZE - bits);
        this.clear = ~(mask << shift);
    }

    /** @return the field's name. */
    public String name()
    {
        return name;
    }

    /** @return its width, 1 to 64. */
    public int bits()
    {
        return bits;
    }

    /** @return the position of its least significant bit in a record. */
    public int shift()
    {
        return shift;
    }

    /** @return the largest value it holds, {@code 2^bits - 1} (-1 for a 64-bit field, all ones). */
    public long max()
    {
        return mask;
    }

    /** @return the field of {@code record}, 0 to {@link #max()}. */
    public long get(final long record)
    {
        return (record >>> shift) & mask;
    }

    /**
     * @return {@code record} with the field set to {@code value}.
     * @throws IllegalArgumentException if {@code value} is negative or above {@link #max()}: it
     *                                  would spill into the other fields.
     */
    public long set(final long record, final long value)
    {
        if ((value & ~mask) != 0)
        {
            throw outOfRangeSlowPath(value);
        }
        return (record & clear) | (value << shift);
    }

    /**
     * @return {@code record} with the field set to {@code value} modulo {@code 2^bits}: for a
     *         counter or a clock kept modulo the field's range (compare such values with
     *         {@link #signed}).
     */
    public long setWrapped(final long record, final long value)
    {
        return (record & clear) | ((value & mask) << shift);
    }

    /**
     * @return the low {@link #bits()} bits of {@code value} read as a two's complement number, in
     *         {@code -2^(bits-1)} to {@code 2^(bits-1) - 1}: the distance {@code a - b} between two
     *         values kept modulo {@code 2^bits} is {@code signed(a - b)}, right across the wrap.
     */
    public long signed(final long value)
    {
        return (value << (Long.SIZE - bits)) >> (Long.SIZE - bits);
    }

    private IllegalArgumentException outOfRangeSlowPath(final long value)
    {
        return new IllegalArgumentException("value " + value + " does not fit packed field '" + name + "' (" + bits + " bits: 0 to "
            + Long.toUnsignedString(mask) + ")");
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PackedField field && field.name.equals(name) && field.bits == bits && field.shift == shift;
    }

    @Override
    public int hashCode()
    {
        return (name.hashCode() * 31 + bits) * 31 + shift;
    }

    @Override
    public String toString()
    {
        return name + " (" + bits + " bits at " + shift + ")";
    }
}
