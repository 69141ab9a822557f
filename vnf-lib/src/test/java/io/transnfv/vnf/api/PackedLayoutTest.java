package io.transnfv.vnf.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.transnfv.vnf.api.PackedLayout.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link PackedLayout} places its fields side by side from the most significant bit of the
 * layout down to bit 0, and its accessors behave as a record of bounded unsigned fields: on random
 * layouts of 1 to 64 bits, setting any field to any value in range and reading every field back
 * gives what a plain array of the fields gives, the record never has a bit outside the layout,
 * and the record equals the fields shifted and or-ed together; widths, overflow at setup and
 * out-of-range values are refused with messages that name the field.
 */
class PackedLayoutTest
{
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void shouldBehaveAsAnArrayOfBoundedFields(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++)
        {
            final PackedLayout layout = randomLayout(random);
            final List<PackedField> fields = layout.fields();
            final long[] model = new long[fields.size()];
            long record = 0L;
            for (int step = 0; step < 50; step++)
            {
                final int f = random.nextInt(fields.size());
                final PackedField field = fields.get(f);
                final long value = boundaryOrRandom(random, field);
                record = field.set(record, value);
                model[f] = value;
                long expected = 0L;
                for (int g = 0; g < fields.size(); g++)
                {
                    assertEquals(model[g], fields.get(g).get(record), () -> layout + " field " + fields.get(f).name());
                    expected |= model[g] << fields.get(g).shift();
                }
                assertEquals(expected, record, layout::toString);
                if (layout.bits() < Long.SIZE)
                {
                    assertEquals(0L, record >>> layout.bits(), () -> "no bit above the layout: " + layout);
                }
            }
        }
    }

    @Test
    void shouldPlaceTheFirstFieldInTheMostSignificantBits()
    {
        final PackedLayout nat = PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16));
        assertEquals(64, nat.bits());
        assertEquals(List.of("seen", "address", "port"), nat.names());
        assertEquals(24, nat.field("seen").shift());
        assertEquals(16, nat.field("address").shift());
        assertEquals(0, nat.field("port").shift());
        // the NAT's hand-packed encoding: ms mod 2^40 << 24 | address index << 16 | port
        final long ms = 0xAB_CDEF_0123L;
        final long handPacked = (ms << 24) | (7L << 16) | 40_001L;
        final long record = nat.field("seen").set(nat.field("address").set(nat.field("port").set(0L, 40_001L), 7L), ms);
        assertEquals(handPacked, record);
        assertEquals("seen=" + ms + " address=7 port=40001", nat.format(record));
        assertEquals("{seen: 40, address: 8, port: 16}", nat.toString());
        final PackedLayout low = PackedLayout.of(field("hi", 3), field("lo", 5));
        assertEquals(5, low.field("hi").shift());
        assertEquals(0xFFL, low.field("hi").set(low.field("lo").set(0L, 31L), 7L));
    }

    @Test
    void shouldHoldEveryValueOfAFieldAndRefuseTheNextOne()
    {
        final PackedLayout layout = PackedLayout.of(field("a", 1), field("b", 31), field("c", 32));
        for (final PackedField field : layout.fields())
        {
            final long max = field.max();
            assertEquals((1L << field.bits()) - 1, max);
            final long all = -1L;
            assertEquals(max, field.get(field.set(all, max)));
            assertEquals(0L, field.get(field.set(all, 0L)));
            assertEquals(all, field.set(field.set(all, 0L), max), "the other fields are left as they are");
            final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () -> field.set(0L, max + 1));
            assertTrue(tooBig.getMessage().contains("'" + field.name() + "'") && tooBig.getMessage().contains(field.bits() + " bits"),
                tooBig::getMessage);
            assertThrows(IllegalArgumentException.class, () -> field.set(0L, -1L));
            assertThrows(IllegalArgumentException.class, () -> field.set(0L, Long.MIN_VALUE));
        }
        final PackedField whole = PackedLayout.of(field("all", 64)).field("all");
        assertEquals(-1L, whole.max());
        assertEquals(Long.MIN_VALUE, whole.get(whole.set(0L, Long.MIN_VALUE)));
        assertEquals(-1L, whole.set(0L, -1L));
        assertEquals(-5L, whole.signed(-5L));
    }

    @Test
    void shouldKeepAWrappedValueModuloItsWidthAndMeasureDistancesAcrossTheWrap()
    {
        final PackedLayout layout = PackedLayout.of(field("seen", 40), field("key", 24));
        final PackedField seen = layout.field("seen");
        final PackedField key = layout.field("key");
        final long modulus = 1L << 40;
        final long record = key.set(0L, 0xABCDEFL);
        final long wrapped = seen.setWrapped(record, modulus + 5);
        assertEquals(5L, seen.get(wrapped));
        assertEquals(0xABCDEFL, key.get(wrapped), "wrapping never spills into the next field");
        assertEquals(seen.get(seen.setWrapped(record, -1L)), modulus - 1);
        // last seen just before the wrap, now just after it: 10 ms idle, not 2^40 - 10
        final long before = seen.setWrapped(0L, modulus - 4);
        assertEquals(10L, seen.signed(modulus + 6 - seen.get(before)));
        // a packet earlier than the last one seen: a small negative distance
        assertEquals(-3L, seen.signed(100L - seen.get(seen.setWrapped(0L, 103L))));
        assertEquals(modulus / 2 - 1, seen.signed(modulus / 2 - 1));
        assertEquals(-modulus / 2, seen.signed(modulus / 2));
    }

    @Test
    void shouldRefuseABadLayoutAtSetupNamingWhatIsWrong()
    {
        assertThrows(IllegalArgumentException.class, PackedLayout::of);
        final IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
            () -> PackedLayout.of(field("seen", 40), field("address", 9), field("port", 16)));
        assertEquals("packed fields need 65 bits (seen 40 + address 9 + port 16), more than the 64 of one entry", wide.getMessage());
        assertEquals("packed field 'port' is 0 bits wide: a field takes 1 to 64 bits",
            assertThrows(IllegalArgumentException.class, () -> field("port", 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> field("port", 65));
        assertThrows(IllegalArgumentException.class, () -> field("Port", 16));
        assertEquals("packed field 'port' is declared twice",
            assertThrows(IllegalArgumentException.class, () -> PackedLayout.of(field("port", 16), field("port", 8))).getMessage());
        final PackedLayout layout = PackedLayout.of(field("port", 16));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> layout.field("seen")).getMessage().contains("no field 'seen'"));
    }

    @Test
    void shouldDeclareAPackedTableAsOneValueEntryPerRecord()
    {
        final TableSpec value = new TableSpec("mappings", TableScope.PER_FLOW, KeyKind.ENDPOINT, 0L, "endpoint -> mapping");
        final TableSpec packed = value.asPacked(field("seen", 40), field("address", 8), field("port", 16));
        assertEquals(StateType.PACKED, packed.type());
        assertEquals(PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16)), packed.packed());
        assertEquals(List.of("seen", "address", "port"), packed.fields());
        assertEquals(KeyKind.ENDPOINT, packed.keyKind(), "one entry per record: its keys stay what they encode");
        assertEquals(value.honoursCommutative(), packed.honoursCommutative());
        assertEquals(packed.packed(), packed.expiringBy(v -> v, 1L).packed());
        assertEquals(packed.packed(), packed.commutable().packed());
        assertEquals("packed {seen: 40, address: 8, port: 16}", packed.typeText());
        assertEquals("value", value.typeText());
        assertNull(value.packed());
        assertEquals(StateType.PACKED, StateType.parse("packed"));
        assertThrows(IllegalArgumentException.class,
            () -> new TableSpec("m", TableScope.CROSS_FLOW, KeyKind.FLOW, 1L, "m").asPacked(field("port", 16)));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("m", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "m", null,
            null, null, null, StateType.PACKED, 0, List.of("port"), null));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("m", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "m", null,
            null, null, null, StateType.VALUE, 0, List.of(), PackedLayout.of(field("port", 16))));
        assertNotEquals(PackedLayout.of(field("a", 8), field("b", 8)), PackedLayout.of(field("a", 8), field("b", 9)));
    }

    private static PackedLayout randomLayout(final SplittableRandom random)
    {
        final int total = 1 + random.nextInt(Long.SIZE);
        final List<PackedLayout.Width> widths = new ArrayList<>();
        int left = total;
        while (left > 0)
        {
            final int bits = 1 + random.nextInt(left);
            widths.add(field("f" + widths.size(), bits));
            left -= bits;
        }
        final PackedLayout layout = PackedLayout.of(widths.toArray(new PackedLayout.Width[0]));
        assertEquals(total, layout.bits());
        return layout;
    }

    private static long boundaryOrRandom(final SplittableRandom random, final PackedField field)
    {
        switch (random.nextInt(4))
        {
            case 0:
                return 0L;
            case 1:
                return field.max();
            default:
                return field.bits() == Long.SIZE ? random.nextLong() : random.nextLong(field.max()) + (random.nextBoolean() ? 1 : 0);
        }
    }
}
