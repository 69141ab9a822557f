package io.transnfv.tpg.collections;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class Long2LongHashMapTest
{
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void shouldBehaveLikeAHashMapUnderRandomPutsAndRemoves(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long missing = seed % 2 == 0 ? 0L : -1L;
        final Long2LongHashMap map = new Long2LongHashMap(2, missing);
        final Map<Long, Long> reference = new HashMap<>();
        final int keySpace = 1 + random.nextInt(2000);
        for (int i = 0; i < 50_000; i++)
        {
            // keys collide on purpose: a small key space and multiples of a power of two
            final long key = random.nextInt(keySpace) * (random.nextBoolean() ? 1L : 1L << 32);
            final int action = random.nextInt(3);
            if (action == 0)
            {
                assertEquals(reference.getOrDefault(key, missing).longValue(), map.remove(key), "seed " + seed);
                reference.remove(key);
            }
            else
            {
                final long value = random.nextInt(5) == 0 ? missing : random.nextLong();
                final Long previous = value == missing ? reference.remove(key) : reference.put(key, value);
                assertEquals(previous == null ? missing : previous, map.put(key, value), "seed " + seed);
            }
            if (i % 997 == 0)
            {
                assertSame(reference, map, missing, seed);
            }
        }
        assertSame(reference, map, missing, seed);
    }

    @Test
    void shouldListKeysInAscendingOrder()
    {
        final Long2LongHashMap map = new Long2LongHashMap(4, 0L);
        map.put(30, 1);
        map.put(-5, 2);
        map.put(7, 3);
        final long[] keys = map.sortedKeys();
        assertEquals(3, keys.length);
        assertEquals(-5, keys[0]);
        assertEquals(7, keys[1]);
        assertEquals(30, keys[2]);
    }

    @Test
    void shouldRejectCapacityThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new Long2LongHashMap(12, 0L));
    }

    @Test
    void shouldForgetEverythingOnClear()
    {
        final Long2LongHashMap map = new Long2LongHashMap(8, -1L);
        for (int i = 0; i < 100; i++)
        {
            map.put(i, i);
        }
        map.clear();
        assertEquals(0, map.size());
        assertEquals(-1L, map.get(5));
    }

    private static void assertSame(final Map<Long, Long> reference, final Long2LongHashMap map, final long missing, final long seed)
    {
        assertEquals(reference.size(), map.size(), "size, seed " + seed);
        for (final Map.Entry<Long, Long> e : reference.entrySet())
        {
            assertEquals(e.getValue().longValue(), map.get(e.getKey()), "key " + e.getKey() + ", seed " + seed);
        }
        final Map<Long, Long> seen = new TreeMap<>();
        map.forEach(seen::put);
        assertEquals(new TreeMap<>(reference), seen, "forEach, seed " + seed);
        assertEquals(missing, map.get(Long.MIN_VALUE + 12345), "absent key, seed " + seed);
    }
}
