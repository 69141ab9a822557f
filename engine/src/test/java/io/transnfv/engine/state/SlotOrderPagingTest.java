package io.transnfv.engine.state;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.FlowKeys;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paging a heap table in slot order: every entry once, across shard growth between pages,
 * and work bounded per page however sparse the table.
 */
class SlotOrderPagingTest
{
    private static final int LIMIT = 100;

    private static MultiVersionStateTable table()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("flows", TableScope.PER_FLOW, KeyKind.FLOW, 0, ""));
        return new MultiVersionStateTable(catalog);
    }

    @Test
    void shouldGiveEveryEntryOnceWithItsValueInPagesOfAtMostTheLimit()
    {
        final MultiVersionStateTable state = table();
        final Map<Long, Long> expected = new HashMap<>();
        for (long i = 0; i < 10_000; i++)
        {
            final long key = FlowKeys.mix64(i);
            state.put(0, key, i + 1);
            expected.put(key, i + 1);
        }
        state.put(0, Long.MIN_VALUE, 7);
        expected.put(Long.MIN_VALUE, 7L);

        final Map<Long, Long> seen = new HashMap<>();
        long cursor = 0;
        int pages = 0;
        do
        {
            final StatePage page = new StatePage();
            cursor = state.pageInSlotOrder(0, cursor, LIMIT, LIMIT * 16, page);
            assertTrue(page.size() <= LIMIT, "page of " + page.size());
            for (int i = 0; i < page.size(); i++)
            {
                assertEquals(null, seen.put(page.key(i), page.value(i)), "key given twice: " + page.key(i));
            }
            pages++;
        }
        while (cursor != MultiVersionStateTable.END_OF_PAGES);
        assertEquals(expected, seen);
        assertTrue(pages >= expected.size() / LIMIT, "pages: " + pages);
    }

    @Test
    void shouldGiveEveryEntryPresentThroughoutOnceWhenShardsGrowBetweenPages()
    {
        final MultiVersionStateTable state = table();
        final Set<Long> kept = new HashSet<>();
        for (long i = 0; i < 2_000; i++)
        {
            final long key = FlowKeys.mix64(i);
            state.put(0, key, 1);
            kept.add(key);
        }
        final Set<Long> seen = new HashSet<>();
        long cursor = 0;
        int pages = 0;
        do
        {
            final StatePage page = new StatePage();
            cursor = state.pageInSlotOrder(0, cursor, LIMIT, LIMIT * 16, page);
            for (int i = 0; i < page.size(); i++)
            {
                assertTrue(seen.add(page.key(i)), "key given twice: " + page.key(i));
            }
            if (++pages == 5)
            {
                // every shard doubles several times between two pages
                for (long i = 2_000; i < 40_000; i++)
                {
                    state.put(0, FlowKeys.mix64(i), 2);
                }
            }
        }
        while (cursor != MultiVersionStateTable.END_OF_PAGES);
        assertTrue(seen.containsAll(kept), () -> "missed " + kept.stream().filter(k -> !seen.contains(k)).count() + " keys");
    }

    @Test
    void shouldBoundTheSlotsOnePageVisitsInASparseTable()
    {
        final MultiVersionStateTable state = table();
        for (long i = 0; i < 100_000; i++)
        {
            state.put(0, FlowKeys.mix64(i), 1);
        }
        for (long i = 10; i < 100_000; i++)
        {
            state.put(0, FlowKeys.mix64(i), 0);
        }
        // ten entries left in the slots of 100,000: a page of ten may visit only 160 home slots
        final StatePage first = new StatePage();
        final long cursor = state.pageInSlotOrder(0, 0, 10, 160, first);
        assertTrue(cursor != MultiVersionStateTable.END_OF_PAGES, "the walk stopped at its bound, not at the end");
        assertTrue(first.size() < 10, "the first page is short: " + first.size());
        int found = first.size();
        int pages = 1;
        long next = cursor;
        while (next != MultiVersionStateTable.END_OF_PAGES)
        {
            final StatePage page = new StatePage();
            next = state.pageInSlotOrder(0, next, 10, 160, page);
            found += page.size();
            pages++;
        }
        assertEquals(10, found);
        assertTrue(pages > 100_000 / 160 / 2, "many short pages, each bounded: " + pages);
    }
}
