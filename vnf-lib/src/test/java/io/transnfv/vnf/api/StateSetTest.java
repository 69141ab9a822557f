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

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The set encoding of {@link StateSet}, applied by the serial oracle, behaves as a set: every
 * add, remove, contains and size, in transactions that mix several of them (the same member
 * twice, an add and a remove of it, several members of one set) and that may abort after them,
 * gives what a {@code Map<Long, Set<Long>>} of the committed transactions gives, and the table
 * holds exactly one size entry per non-empty set and one entry per member.
 */
class StateSetTest
{
    private static final int ADD = 0;
    private static final int REMOVE = 1;
    private static final int CONTAINS = 2;
    private static final int SIZE = 3;
    /** Aborts when its operand is 1: the set operations before it must be undone. */
    private static final StateFunction ABORT_IF_ASKED = (current, ctx) ->
    {
        if (ctx.operand() == 1)
        {
            ctx.abort(9);
        }
        return current + 1;
    };

    private static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "host -> ports").asSet());
        catalog.add("vnf", new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "packets"));
        return catalog;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void shouldBehaveAsASetOfTheCommittedTransactions(final long seed)
    {
        final Random random = new Random(seed);
        final TableCatalog catalog = catalog();
        final MapStateStore state = new MapStateStore(catalog);
        final SerialApplier applier = new SerialApplier();
        final TransactionLog log = new TransactionLog();
        final Map<Long, Set<Long>> model = new HashMap<>();
        final int sets = 1 + random.nextInt(6);
        final int members = 1 + random.nextInt(12);
        for (int batch = 0; batch < 20; batch++)
        {
            log.clear();
            for (int n = 0; n < 50; n++)
            {
                final int t = log.begin(batch * 1000L + n, n, null);
                final int ops = 1 + random.nextInt(4);
                final int[] kind = new int[ops];
                final long[] set = new long[ops];
                final long[] member = new long[ops];
                final int[] index = new int[ops];
                for (int i = 0; i < ops; i++)
                {
                    kind[i] = random.nextInt(4);
                    set[i] = random.nextInt(sets) * 0x1_0000_0001L;
                    member[i] = random.nextInt(members) - 2;
                    index[i] = switch (kind[i])
                    {
                        case ADD -> StateSet.add(log, 0, set[i], member[i]);
                        case REMOVE -> StateSet.remove(log, 0, set[i], member[i]);
                        case CONTAINS -> StateSet.contains(log, 0, set[i], member[i]);
                        default -> StateSet.size(log, 0, set[i]);
                    };
                }
                final boolean abort = random.nextInt(5) == 0;
                log.readModify(1, 7L, ABORT_IF_ASKED, abort ? 1 : 0);
                log.end();
                applier.apply(log, t, state);
                final TransactionView result = log.view(t);
                assertEquals(abort, result.aborted(), "transaction " + t);
                if (abort)
                {
                    continue;
                }
                for (int i = 0; i < ops; i++)
                {
                    final Set<Long> members1 = model.computeIfAbsent(set[i], k -> new HashSet<>());
                    final String what = "seed " + seed + " batch " + batch + " txn " + n + " op " + i;
                    switch (kind[i])
                    {
                        case ADD ->
                        {
                            final long before = members1.size();
                            assertEquals(members1.add(member[i]), StateSet.added(result, index[i]), what);
                            assertEquals(before, StateSet.sizeBefore(result, index[i]), what);
                            assertEquals(members1.size(), StateSet.sizeAfter(result, index[i]), what);
                        }
                        case REMOVE ->
                        {
                            final long before = members1.size();
                            assertEquals(members1.remove(member[i]), StateSet.removed(result, index[i]), what);
                            assertEquals(before, StateSet.sizeBefore(result, index[i]), what);
                            assertEquals(members1.size(), StateSet.sizeAfter(result, index[i]), what);
                        }
                        case CONTAINS -> assertEquals(members1.contains(member[i]), StateSet.contains(result, index[i]), what);
                        default -> assertEquals(members1.size(), StateSet.sizeAfter(result, index[i]), what);
                    }
                }
            }
            assertTableHolds(model, state);
        }
    }

    /** The table's entries are exactly the model's: a size entry per non-empty set, a 1 per member. */
    private static void assertTableHolds(final Map<Long, Set<Long>> model, final MapStateStore state)
    {
        final Map<Long, Long> expected = new HashMap<>();
        for (final Map.Entry<Long, Set<Long>> set : model.entrySet())
        {
            if (!set.getValue().isEmpty())
            {
                expected.put(StateSet.sizeKey(set.getKey()), (long)set.getValue().size());
            }
            for (final long member : set.getValue())
            {
                expected.put(StateSet.memberKey(set.getKey(), member), 1L);
            }
        }
        final Map<Long, Long> actual = new HashMap<>();
        state.forEach(0, actual::put);
        assertEquals(expected, actual);
    }

    @Test
    void shouldGiveEveryMemberOfOneSetItsOwnEntryApartFromTheSize()
    {
        for (final long set : new long[] {0L, 1L, -1L, 0xC0A8_0001L, Long.MIN_VALUE})
        {
            final Set<Long> keys = new HashSet<>();
            for (long member = -50_000; member < 50_000; member++)
            {
                assertTrue(keys.add(StateSet.memberKey(set, member)), "member " + member + " of set " + set);
            }
            assertFalse(keys.contains(StateSet.sizeKey(set)));
            assertNotEquals(StateSet.sizeKey(set), StateSet.sizeKey(set + 1));
        }
    }

    @Test
    void shouldRemoveAMemberBetweenBatchesKeepingTheSize()
    {
        final TableCatalog catalog = catalog();
        final MapStateStore state = new MapStateStore(catalog);
        final SerialApplier applier = new SerialApplier();
        final TransactionLog log = new TransactionLog();
        final int t = log.begin(1L, 0L, null);
        StateSet.add(log, 0, 5L, 80L);
        StateSet.add(log, 0, 5L, 443L);
        log.end();
        applier.apply(log, t, state);
        assertEquals(2, StateSet.size(state, 0, 5L));
        assertTrue(StateSet.remove(state, 0, 5L, 80L));
        assertFalse(StateSet.remove(state, 0, 5L, 80L));
        assertFalse(StateSet.contains(state, 0, 5L, 80L));
        assertTrue(StateSet.contains(state, 0, 5L, 443L));
        assertEquals(1, StateSet.size(state, 0, 5L));
        assertTrue(StateSet.remove(state, 0, 5L, 443L));
        final Map<Long, Long> left = new HashMap<>();
        state.forEach(0, left::put);
        assertEquals(Map.of(), left, "an emptied set leaves no entry");
    }

    @Test
    void shouldRefuseASetThatIsNotEmptyWhenAbsentOrThatTakesAHint()
    {
        final TableSpec value = new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.HOST, -1L, "ports");
        assertThrows(IllegalArgumentException.class, value::asSet);
        final TableSpec set = new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "ports").asSet();
        assertEquals(StateType.SET, set.type());
        assertFalse(set.honoursCommutative());
        assertFalse(set.honoursFireAndForget());
        assertFalse(set.honoursStaleReads());
        assertThrows(IllegalArgumentException.class, set::commutable);
        assertEquals(StateType.SET, set.expiringBy(v -> v, 1L).type());
    }
}
