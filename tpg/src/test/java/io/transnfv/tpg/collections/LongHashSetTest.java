package io.transnfv.tpg.collections;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LongHashSetTest
{
    @Test
    void shouldHoldWhatASetHoldsIncludingTheSentinelValue()
    {
        final LongHashSet set = new LongHashSet(2);
        final Set<Long> expected = new HashSet<>();
        final Random random = new Random(3);
        for (int i = 0; i < 10_000; i++)
        {
            final long value = i % 1000 == 0 ? Long.MIN_VALUE : random.nextInt(5000) - 2500L;
            assertEquals(expected.add(value), set.add(value), "add " + value);
        }
        assertEquals(expected.size(), set.size());
        for (long v = -3000; v < 3000; v++)
        {
            assertEquals(expected.contains(v), set.contains(v), "contains " + v);
        }
        assertTrue(set.contains(Long.MIN_VALUE));
        final long[] members = new long[set.size() + 1];
        assertEquals(set.size() + 1, set.copyTo(members, 1));
        final long[] sorted = Arrays.copyOfRange(members, 1, members.length);
        Arrays.sort(sorted);
        assertArrayEquals(expected.stream().mapToLong(Long::longValue).sorted().toArray(), sorted);
    }

    @Test
    void shouldKeepItsCapacityWhenClearedSoThatRefillingAllocatesNothing()
    {
        final LongHashSet set = new LongHashSet(16);
        for (long v = 0; v < 1000; v++)
        {
            set.add(v * 31);
        }
        final int capacity = set.capacity();
        set.clear();
        assertEquals(0, set.size());
        assertFalse(set.contains(31));
        for (long v = 0; v < 1000; v++)
        {
            set.add(v * 17);
        }
        assertEquals(capacity, set.capacity());
        assertEquals(1000, set.size());
    }
}
