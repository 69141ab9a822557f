package io.transnfv.vnf.api;

import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ring encoding of {@link StateRing}, applied by the serial oracle, keeps the last values
 * pushed: pushes, reads and sizes, several per transaction (the same ring pushed twice, pushed
 * then read), in transactions that may abort after them, give what a list of the committed
 * pushes per ring gives, for capacities from 1 to {@link StateRing#MAX_CAPACITY}, and the table
 * holds exactly a head per ring pushed and a slot per value kept.
 */
class StateRingTest
{
    private static final int PUSH = 0;
    private static final int READ = 1;
    private static final int SIZE = 2;
    private static final StateFunction ABORT_IF_ASKED = (current, ctx) ->
    {
        if (ctx.operand() == 1)
        {
            ctx.abort(9);
        }
        return current + 1;
    };

    private static TableCatalog catalog(final int capacity)
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("events", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "flow -> last events").asRing(capacity));
        catalog.add("vnf", new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "packets"));
        return catalog;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8, 64})
    void shouldKeepTheLastValuesOfTheCommittedPushes(final int capacity)
    {
        final Random random = new Random(capacity);
        final TableCatalog catalog = catalog(capacity);
        final MapStateStore state = new MapStateStore(catalog);
        final SerialApplier applier = new SerialApplier();
        final TransactionLog log = new TransactionLog();
        final Map<Long, List<Long>> model = new HashMap<>();
        final int rings = 1 + random.nextInt(5);
        for (int batch = 0; batch < 20; batch++)
        {
            log.clear();
            for (int n = 0; n < 50; n++)
            {
                final int t = log.begin(batch * 1000L + n, n, null);
                final int ops = 1 + random.nextInt(4);
                final int[] kind = new int[ops];
                final long[] ring = new long[ops];
                final long[] value = new long[ops];
                final int[] index = new int[ops];
                for (int i = 0; i < ops; i++)
                {
                    kind[i] = random.nextInt(3);
                    ring[i] = random.nextInt(rings) * 0x9E37_79B9L;
                    // 0 and negative values too: a slot holding 0 is a value, not an empty slot
                    value[i] = random.nextInt(4) == 0 ? 0L : random.nextLong();
                    index[i] = switch (kind[i])
                    {
                        case PUSH -> StateRing.push(log, 0, capacity, ring[i], value[i]);
                        case READ -> StateRing.read(log, 0, capacity, ring[i]);
                        default -> StateRing.size(log, 0, ring[i]);
                    };
                }
                final boolean abort = random.nextInt(5) == 0;
                log.readModify(1, 7L, ABORT_IF_ASKED, abort ? 1 : 0);
                log.end();
                applier.apply(log, t, state);
                final TransactionView result = log.view(t);
                assertEquals(abort, result.aborted());
                if (abort)
                {
                    continue;
                }
                for (int i = 0; i < ops; i++)
                {
                    final List<Long> pushed = model.computeIfAbsent(ring[i], k -> new ArrayList<>());
                    final String what = "capacity " + capacity + " batch " + batch + " txn " + n + " op " + i;
                    switch (kind[i])
                    {
                        case PUSH ->
                        {
                            assertEquals(pushed.size(), StateRing.pushesBefore(result, index[i]), what);
                            pushed.add(value[i]);
                        }
                        case READ ->
                        {
                            assertEquals(pushed.size(), StateRing.pushes(result, index[i]), what);
                            final int length = StateRing.length(result, index[i], capacity);
                            assertEquals(Math.min(pushed.size(), capacity), length, what);
                            for (int back = 0; back < length; back++)
                            {
                                assertEquals(pushed.get(pushed.size() - 1 - back), StateRing.last(result, index[i], capacity, back),
                                    what + " back " + back);
                            }
                            final int op = index[i];
                            assertThrows(IndexOutOfBoundsException.class, () -> StateRing.last(result, op, capacity, length));
                        }
                        default -> assertEquals(pushed.size(), StateRing.pushes(result, index[i]), what);
                    }
                }
            }
            assertTableHolds(model, capacity, state);
        }
    }

    /** The table's entries are exactly the model's: a head per ring pushed, the last values in their slots. */
    private static void assertTableHolds(final Map<Long, List<Long>> model, final int capacity, final MapStateStore state)
    {
        final Map<Long, Long> expected = new HashMap<>();
        for (final Map.Entry<Long, List<Long>> ring : model.entrySet())
        {
            final List<Long> pushed = ring.getValue();
            if (!pushed.isEmpty())
            {
                expected.put(StateRing.headKey(ring.getKey()), (long)pushed.size());
            }
            for (int back = 0; back < Math.min(pushed.size(), capacity); back++)
            {
                final long value = pushed.get(pushed.size() - 1 - back);
                if (value != 0)
                {
                    expected.put(StateRing.slotKey(ring.getKey(), (pushed.size() - 1 - back) % capacity), value);
                }
                assertEquals(value, StateRing.last(state, 0, capacity, ring.getKey(), back));
            }
        }
        final Map<Long, Long> actual = new HashMap<>();
        state.forEach(0, actual::put);
        assertEquals(expected, actual);
    }

    @Test
    void shouldGiveEverySlotOfOneRingItsOwnEntryApartFromTheHead()
    {
        for (final long ring : new long[] {0L, 1L, -1L, 0xC0A8_0001L, Long.MIN_VALUE})
        {
            final Set<Long> keys = new HashSet<>();
            for (int slot = 0; slot < StateRing.MAX_CAPACITY; slot++)
            {
                assertTrue(keys.add(StateRing.slotKey(ring, slot)));
            }
            assertTrue(keys.add(StateRing.headKey(ring)));
        }
    }

    @Test
    void shouldEmptyARingBetweenBatches()
    {
        final TableCatalog catalog = catalog(3);
        final MapStateStore state = new MapStateStore(catalog);
        final TransactionLog log = new TransactionLog();
        final int t = log.begin(1L, 0L, null);
        for (long v = 1; v <= 5; v++)
        {
            StateRing.push(log, 0, 3, 42L, v);
        }
        log.end();
        new SerialApplier().apply(log, t, state);
        assertEquals(5, StateRing.last(state, 0, 3, 42L, 0));
        assertEquals(3, StateRing.last(state, 0, 3, 42L, 2));
        assertEquals(3, StateRing.clear(state, 0, 3, 42L));
        final Map<Long, Long> left = new HashMap<>();
        state.forEach(0, left::put);
        assertEquals(Map.of(), left);
    }

    @Test
    void shouldRefuseARingOutOfRangeOrThatTakesAHint()
    {
        final TableSpec value = new TableSpec("events", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "events");
        assertThrows(IllegalArgumentException.class, () -> value.asRing(0));
        assertThrows(IllegalArgumentException.class, () -> value.asRing(StateRing.MAX_CAPACITY + 1));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("events", TableScope.CROSS_FLOW, KeyKind.FLOW, 5L, "e").asRing(4));
        final TableSpec ring = value.asRing(4);
        assertEquals(StateType.RING, ring.type());
        assertEquals(4, ring.ringCapacity());
        assertEquals(4, ring.expiringBy(v -> v, 1L).ringCapacity());
        assertTrue(!ring.honoursCommutative() && !ring.honoursFireAndForget() && !ring.honoursStaleReads());
    }
}
