package io.transnfv.vnf.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The layout of a {@link StateType#PACKED} table's records: named unsigned fields of fixed bit
 * widths that together fit in one {@code long}, the first declared in the most significant bits
 * and the last ending at bit 0, as they are drawn:
 * <pre>
 *  PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16))
 *
 *   63                               24 23        16 15              0
 *   | seen (40)                        | address (8) | port (16)       |
 * </pre>
 * A record is one entry of its table, so a transaction reads or rewrites all its fields with one
 * operation, as any value. Each {@link PackedField} holds its shift and mask, computed here, so
 * its accessors are arithmetic on a {@code long}: build the layout and look its fields up once (a
 * {@code static final} constant, or at setup), never per packet. Immutable; any thread.
 */
public final class PackedLayout
{
    /** The most fields a layout may declare. */
    public static final int MAX_FIELDS = Long.SIZE;

    private final List<PackedField> fields;
    private final int bits;

    private PackedLayout(final List<PackedField> fields, final int bits)
    {
        this.fields = fields;
        this.bits = bits;
    }

    /** A field's name and width, as declared; {@link PackedLayout#of} places it. */
    public record Width(String name, int bits)
    {
        /** Checks the name and width. */
        public Width
        {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[a-z][a-z0-9_-]*"))
            {
                throw new IllegalArgumentException("packed field name must match [a-z][a-z0-9_-]*: '" + name + "'");
            }
            if (bits < 1 || bits > Long.SIZE)
            {
                throw new IllegalArgumentException("packed field '" + name + "' is " + bits + " bits wide: a field takes 1 to "
                    + Long.SIZE + " bits");
            }
        }
    }

    /** @return the declaration of field {@code name}, {@code bits} wide (1 to 64). */
    public static Width field(final String name, final int bits)
    {
        return new Width(name, bits);
    }

    /**
     * @param widths the fields from the most significant to the least, distinct names whose widths
     *               add up to at most 64 bits; fewer leave the top bits 0.
     * @return the layout placing them.
     * @throws IllegalArgumentException if there are none, two share a name or they need more than
     *                                  64 bits.
     */
    public static PackedLayout of(final Width... widths)
    {
        if (widths.length == 0)
        {
            throw new IllegalArgumentException("a packed layout needs at least one field");
        }
        final Set<String> names = new HashSet<>();
        int total = 0;
        for (final Width width : widths)
        {
            if (!names.add(width.name()))
            {
                throw new IllegalArgumentException("packed field '" + width.name() + "' is declared twice");
            }
            total += width.bits();
        }
        if (total > Long.SIZE)
        {
            final StringBuilder sum = new StringBuilder();
            for (final Width width : widths)
            {
                sum.append(sum.length() == 0 ? "" : " + ").append(width.name()).append(' ').append(width.bits());
            }
            throw new IllegalArgumentException("packed fields need " + total + " bits (" + sum + "), more than the 64 of one entry");
        }
        final List<PackedField> placed = new ArrayList<>(widths.length);
        int shift = total;
        for (final Width width : widths)
        {
            shift -= width.bits();
            placed.add(new PackedField(width.name(), width.bits(), shift));
        }
        return new PackedLayout(Collections.unmodifiableList(placed), total);
    }

    /** @return the fields from the most significant to the least. */
    public List<PackedField> fields()
    {
        return fields;
    }

    /** @return the field names from the most significant to the least. */
    public List<String> names()
    {
        return fields.stream().map(PackedField::name).toList();
    }

    /** @return the bits the fields take, 1 to 64; the bits above are 0 in every record. */
    public int bits()
    {
        return bits;
    }

    /**
     * @return field {@code name}, to look up once and keep.
     * @throws IllegalArgumentException if the layout has no such field.
     */
    public PackedField field(final String name)
    {
        for (final PackedField field : fields)
        {
            if (field.name().equals(name))
            {
                return field;
            }
        }
        throw new IllegalArgumentException("packed layout " + this + " has no field '" + name + "'");
    }

    /**
     * @return {@code name=value} per field of {@code record}, in layout order, e.g.
     *         {@code seen=1042 address=0 port=1025}: how dumps and tools show a record.
     */
    public String format(final long record)
    {
        final StringBuilder out = new StringBuilder();
        for (final PackedField field : fields)
        {
            out.append(out.length() == 0 ? "" : " ").append(field.name()).append('=').append(field.get(record));
        }
        return out.toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PackedLayout layout && layout.fields.equals(fields);
    }

    @Override
    public int hashCode()
    {
        return fields.hashCode();
    }

    /** @return the layout as declared, e.g. {@code {seen: 40, address: 8, port: 16}}. */
    @Override
    public String toString()
    {
        final StringBuilder out = new StringBuilder("{");
        for (final PackedField field : fields)
        {
            out.append(out.length() == 1 ? "" : ", ").append(field.name()).append(": ").append(field.bits());
        }
        return out.append('}').toString();
    }
}
