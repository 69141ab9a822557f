package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SortedKeyVisitTest
{
    private static final long INITIAL = -1;

    private final TableCatalog catalog = new TableCatalog();
    private final int table = catalog.add("vnf", new TableSpec("t", TableScope.PER_FLOW, KeyKind.INDEX, INITIAL, ""));

    @Test
    void shouldVisitEachKeyOfSeveralStoresOnceInAscendingOrderWithTheMergedValue()
    {
        final MapStateStore a = new MapStateStore(catalog);
        final MapStateStore b = new MapStateStore(catalog);
        a.put(table, 30, 3);
        a.put(table, 10, 1);
        b.put(table, 10, 100);
        b.put(table, 20, 2);
        for (long key = 1_000; key < 1_200; key++)
        {
            b.put(table, key, key);
        }
        final StateMaintenance merged = sumOf(a, b);

        final List<long[]> visited = new ArrayList<>();
        SortedKeyVisit.visitUnion(new StateMaintenance[] {a, b}, table, merged, INITIAL,
            (key, value) -> visited.add(new long[] {key, value}));

        assertEquals(3 + 200, visited.size(), "key 10, held by both stores, is visited once");
        assertEquals(List.of(10L, 101L), List.of(visited.get(0)[0], visited.get(0)[1]), "the value read from the merged view");
        assertEquals(List.of(20L, 2L), List.of(visited.get(1)[0], visited.get(1)[1]));
        assertEquals(List.of(30L, 3L), List.of(visited.get(2)[0], visited.get(2)[1]));
        assertEquals(1_199L, visited.get(visited.size() - 1)[0]);
    }

    @Test
    void shouldSkipAKeyWhoseMergedValueIsTheInitialOne()
    {
        final MapStateStore a = new MapStateStore(catalog);
        final MapStateStore b = new MapStateStore(catalog);
        a.put(table, 5, 1);
        b.put(table, 5, -2);
        b.put(table, 6, 4);

        final List<Long> keys = new ArrayList<>();
        SortedKeyVisit.visitUnion(new StateMaintenance[] {a, b}, table, sumOf(a, b), INITIAL, (key, value) -> keys.add(key));

        assertEquals(List.of(6L), keys, "5 sums to the initial value: absent");
    }

    /** A read-only view whose value is the sum of the stores' values (initial where none holds the key). */
    private static StateMaintenance sumOf(final MapStateStore a, final MapStateStore b)
    {
        return new StateMaintenance()
        {
            @Override
            public long get(final int table, final long key)
            {
                final long x = a.get(table, key);
                final long y = b.get(table, key);
                return x == INITIAL ? y : y == INITIAL ? x : x + y;
            }

            @Override
            public void put(final int table, final long key, final long value)
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public void forEach(final int table, final EntryVisitor visitor)
            {
                throw new UnsupportedOperationException();
            }
        };
    }
}
