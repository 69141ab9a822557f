package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ExpiryQueueTest
{
    /** Values are {@code time << 8 | tag}: the activity time sits above a tag the test varies. */
    private static final int TAG_BITS = 8;

    private final TableCatalog catalog = new TableCatalog();
    private final int table = catalog.add("vnf", new TableSpec("t", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "")
        .expiringBy(value -> value >>> TAG_BITS, 1));
    private final int plain = catalog.add("vnf", new TableSpec("p", TableScope.PER_FLOW, KeyKind.FLOW, 0L, ""));

    @Test
    void shouldVisitExactlyTheDueEntriesInAscendingKeyOrderWhateverTheWritesBetweenSweeps()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final MapStateStore store = new MapStateStore(catalog);
            final int keys = 1 + random.nextInt(500);
            long now = 1;
            for (int round = 0; round < 40; round++)
            {
                final int writes = random.nextInt(300);
                for (int w = 0; w < writes; w++)
                {
                    now += random.nextInt(3);
                    final long key = random.nextInt(keys) - keys / 2;
                    if (random.nextInt(8) == 0)
                    {
                        store.put(table, key, 0L);
                    }
                    else
                    {
                        store.put(table, key, now << TAG_BITS | random.nextInt(1 << TAG_BITS));
                    }
                }
                final long cutoff = now - random.nextInt(100);
                final List<Long> expected = new ArrayList<>();
                store.forEach(table, (key, value) ->
                {
                    if (value >>> TAG_BITS <= cutoff)
                    {
                        expected.add(key);
                    }
                });
                final boolean keepSome = random.nextBoolean();
                final List<Long> visited = new ArrayList<>();
                store.forEachDue(table, cutoff, (key, value) ->
                {
                    visited.add(key);
                    if (!keepSome || (key & 1) == 0)
                    {
                        store.put(table, key, 0L);
                    }
                });
                assertEquals(expected, visited, "seed " + seed + " round " + round + " cutoff " + cutoff);
            }
        }
    }

    @Test
    void shouldPopOnlyTheEntriesWhoseTimeHasPassedNotTheWholeTable()
    {
        final MapStateStore store = new MapStateStore(catalog);
        for (long key = 0; key < 100_000; key++)
        {
            store.put(table, key, 10_000L << TAG_BITS);
        }
        for (long key = 100_000; key < 100_100; key++)
        {
            store.put(table, key, 1L << TAG_BITS);
        }
        store.forEachDue(table, 0, (key, value) -> store.put(table, key, 0L));
        final long afterIndexing = store.expiry(table).popped();

        final List<Long> visited = new ArrayList<>();
        store.forEachDue(table, 5_000, (key, value) ->
        {
            visited.add(key);
            store.put(table, key, 0L);
        });

        assertEquals(0, afterIndexing, "nothing was due at cutoff 0");
        assertEquals(100, visited.size());
        assertEquals(100, store.expiry(table).popped(), "one pop per expired entry, none for the 100,000 live ones");
        assertEquals(100_000, store.size(table));
    }

    @Test
    void shouldReindexALiveEntryOnceItsIndexedTimeHasPassedAndFindItWhenItExpiresLater()
    {
        final MapStateStore store = new MapStateStore(catalog);
        store.put(table, 42, 1L << TAG_BITS);
        store.forEachDue(table, 0, (key, value) -> store.put(table, key, 0L));
        store.put(table, 42, 100L << TAG_BITS);

        final List<Long> early = new ArrayList<>();
        store.forEachDue(table, 50, (key, value) -> early.add(key));
        final List<Long> late = new ArrayList<>();
        store.forEachDue(table, 100, (key, value) -> late.add(key));

        assertEquals(List.of(), early, "refreshed to 100: not due at 50, re-indexed at 100");
        assertEquals(List.of(42L), late);
        assertEquals(2, store.expiry(table).popped());
    }

    @Test
    void shouldVisitEveryEntryOfATableWithoutAClockAndKeepNoIndexForIt()
    {
        final MapStateStore store = new MapStateStore(catalog);
        store.put(plain, 3, 7L << TAG_BITS);
        store.put(plain, 1, 9L << TAG_BITS);
        final List<Long> visited = new ArrayList<>();
        store.forEachDue(plain, 0, (key, value) -> visited.add(key));

        assertEquals(List.of(1L, 3L), visited, "the visitor still tests what it is given");
        assertNull(store.expiry(plain));
    }
}
