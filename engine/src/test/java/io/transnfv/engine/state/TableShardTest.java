package io.transnfv.engine.state;

import io.transnfv.tpg.graph.TouchedKeyTable;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TableShard} against a {@link HashMap} on seeded random puts, deletions (storing the
 * initial value) and look-ups over small key ranges, so that probe chains wrap around, grow
 * and are compacted by backward-shift deletion; the free-key marker itself is a key too.
 */
class TableShardTest
{
    private static final long INITIAL = -7;

    @Test
    void shouldHoldTheEntriesItWasSizedForWithoutGrowing()
    {
        final TableShard sized = new TableShard(3, INITIAL, 1 << 20, 10_000);
        final int capacity = sized.capacity();
        final long allocated = sized.bytesAllocated;
        for (long key = 0; key < 11_000; key++)
        {
            sized.put(key * 0x9E3779B97F4A7C15L, TouchedKeyTable.hash(3, key * 0x9E3779B97F4A7C15L), key);
            sized.prepareForBatch();
        }
        assertEquals(capacity, sized.capacity(), "room for the expected keys and a margin: no rehash");
        assertEquals(allocated, sized.bytesAllocated);
        assertEquals(11_000, sized.size());

        final TableShard growing = new TableShard(3, INITIAL, 1 << 20, 0);
        for (long key = 0; key < 11_000; key++)
        {
            growing.put(key, TouchedKeyTable.hash(3, key), key);
            growing.prepareForBatch();
        }
        assertEquals(capacity, growing.capacity(), "the same room, reached by growing");
        assertTrue(growing.bytesAllocated > allocated, "growing allocated the smaller tables on the way");
    }

    @Test
    void shouldNeverSizeAShardPastItsMostSlots()
    {
        assertEquals(1 << 10, new TableShard(3, INITIAL, 1 << 10, 1L << 40).capacity());
    }

    @Test
    void shouldAgreeWithAHashMapOnRandomPutsDeletesAndLookUps()
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final TableShard shard = new TableShard(3, INITIAL, 1 << 20, 0);
            final Map<Long, Long> expected = new HashMap<>();
            final int range = 8 + rnd.nextInt(2_000);
            for (int step = 0; step < 5_000; step++)
            {
                final long key = rnd.nextInt(50) == 0 ? TableShard.FREE_KEY : rnd.nextInt(range) * 0x9E3779B97F4A7C15L;
                final long hash = TouchedKeyTable.hash(3, key);
                final String where = "seed " + seed + " step " + step + " key " + key;
                switch (rnd.nextInt(4))
                {
                    case 0, 1 ->
                    {
                        final long value = rnd.nextInt(4) == 0 ? INITIAL : rnd.nextLong();
                        shard.put(key, hash, value);
                        if (value == INITIAL)
                        {
                            expected.remove(key);
                        }
                        else
                        {
                            expected.put(key, value);
                        }
                    }
                    case 2 -> assertEquals(expected.getOrDefault(key, INITIAL), shard.get(key, hash), where);
                    default ->
                    {
                        final int slot = shard.find(key, hash);
                        assertEquals(expected.containsKey(key), slot != TableShard.MISSING, where);
                        if (slot != TableShard.MISSING)
                        {
                            assertEquals(key, shard.key(slot), where);
                            assertEquals((long)expected.get(key), shard.value(slot), where);
                        }
                    }
                }
                assertEquals(expected.size(), shard.size(), where);
            }
            for (final Map.Entry<Long, Long> e : expected.entrySet())
            {
                assertEquals((long)e.getValue(), shard.get(e.getKey(), TouchedKeyTable.hash(3, e.getKey())), "seed " + seed);
            }
        }
    }
}
