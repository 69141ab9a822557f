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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The struct encoding of {@link StateStruct}, applied by the serial oracle, behaves as a map of
 * records: writes, reads of one field or all, and updates of a field from itself and another
 * field (of the same struct or another, possibly written earlier in the same transaction), in
 * transactions that may abort after them, give what a {@code Map<Long, long[]>} of the
 * committed transactions gives, and the table holds exactly the non-zero fields.
 */
class StateStructTest
{
    private static final String[] FIELDS = {"address", "port", "last-seen"};
    private static final int WRITE = 0;
    private static final int UPDATE = 1;
    private static final int READ = 2;
    private static final int READ_ALL = 3;
    /** field := field + 3 × the field it sees + operand. */
    private static final StateFunction FROM_OTHER = (current, ctx) -> current + 3 * ctx.param(0) + ctx.operand();
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
        catalog.add("nat", new TableSpec("mappings", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "flow -> mapping").asStruct(FIELDS));
        catalog.add("nat", new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "packets"));
        return catalog;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void shouldBehaveAsRecordsOfTheCommittedTransactions(final long seed)
    {
        final Random random = new Random(seed);
        final MapStateStore state = new MapStateStore(catalog());
        final SerialApplier applier = new SerialApplier();
        final TransactionLog log = new TransactionLog();
        final Map<Long, long[]> model = new HashMap<>();
        final int structs = 1 + random.nextInt(5);
        for (int batch = 0; batch < 20; batch++)
        {
            log.clear();
            for (int n = 0; n < 50; n++)
            {
                final int t = log.begin(batch * 1000L + n, n, null);
                final int ops = 1 + random.nextInt(4);
                final int[] kind = new int[ops];
                final long[] key = new long[ops];
                final int[] field = new int[ops];
                final long[] otherKey = new long[ops];
                final int[] otherField = new int[ops];
                final long[] value = new long[ops];
                final int[] index = new int[ops];
                for (int i = 0; i < ops; i++)
                {
                    kind[i] = random.nextInt(4);
                    key[i] = random.nextInt(structs) * 0x51L;
                    field[i] = random.nextInt(FIELDS.length);
                    otherKey[i] = random.nextInt(structs) * 0x51L;
                    otherField[i] = random.nextInt(FIELDS.length);
                    value[i] = random.nextInt(3) == 0 ? 0L : random.nextInt(1000) - 500;
                    index[i] = switch (kind[i])
                    {
                        case WRITE -> StateStruct.write(log, 0, key[i], field[i], value[i]);
                        case UPDATE ->
                        {
                            final int op = StateStruct.update(log, 0, key[i], field[i], FROM_OTHER, value[i]);
                            StateStruct.see(log, 0, otherKey[i], otherField[i]);
                            yield op;
                        }
                        case READ -> StateStruct.read(log, 0, key[i], field[i]);
                        default -> StateStruct.readAll(log, 0, FIELDS.length, key[i]);
                    };
                }
                final boolean abort = random.nextInt(5) == 0;
                log.readModify(1, 7L, ABORT_IF_ASKED, abort ? 1 : 0);
                log.end();
                final Map<Long, long[]> staged = new HashMap<>();
                model.forEach((k, v) -> staged.put(k, v.clone()));
                applier.apply(log, t, state);
                final TransactionView result = log.view(t);
                assertEquals(abort, result.aborted());
                if (abort)
                {
                    continue;
                }
                for (int i = 0; i < ops; i++)
                {
                    final long[] record = staged.computeIfAbsent(key[i], k -> new long[FIELDS.length]);
                    final String what = "seed " + seed + " batch " + batch + " txn " + n + " op " + i;
                    switch (kind[i])
                    {
                        case WRITE -> record[field[i]] = value[i];
                        case UPDATE ->
                        {
                            final long seen = staged.computeIfAbsent(otherKey[i], k -> new long[FIELDS.length])[otherField[i]];
                            record[field[i]] += 3 * seen + value[i];
                            assertEquals(record[field[i]], result.after(index[i]), what);
                        }
                        case READ -> assertEquals(record[field[i]], result.after(index[i]), what);
                        default ->
                        {
                            for (int f = 0; f < FIELDS.length; f++)
                            {
                                assertEquals(record[f], StateStruct.value(result, index[i], f), what + " field " + f);
                            }
                        }
                    }
                }
                model.clear();
                model.putAll(staged);
            }
            final Map<Long, Long> expected = new HashMap<>();
            model.forEach((k, record) ->
            {
                for (int f = 0; f < FIELDS.length; f++)
                {
                    if (record[f] != 0)
                    {
                        expected.put(StateStruct.fieldKey(k, f), record[f]);
                    }
                    assertEquals(record[f], StateStruct.get(state, 0, k, f));
                }
            });
            final Map<Long, Long> actual = new HashMap<>();
            state.forEach(0, actual::put);
            assertEquals(expected, actual);
        }
    }

    @Test
    void shouldGiveEveryFieldOfOneStructItsOwnEntry()
    {
        for (final long struct : new long[] {0L, 1L, -1L, Long.MIN_VALUE})
        {
            final Set<Long> keys = new HashSet<>();
            for (int f = 0; f < StateStruct.MAX_FIELDS; f++)
            {
                assertTrue(keys.add(StateStruct.fieldKey(struct, f)));
            }
        }
    }

    @Test
    void shouldDeclareFieldsByNameAndRefuseABadLayout()
    {
        final TableSpec value = new TableSpec("mappings", TableScope.CROSS_FLOW, KeyKind.FLOW, 0L, "mappings");
        final TableSpec struct = value.asStruct(FIELDS);
        assertEquals(StateType.STRUCT, struct.type());
        assertEquals(2, struct.field("last-seen"));
        assertThrows(IllegalArgumentException.class, () -> struct.field("nope"));
        assertEquals(struct.fields(), struct.expiringBy(v -> v, 1L).fields());
        assertThrows(IllegalArgumentException.class, () -> value.asStruct());
        assertThrows(IllegalArgumentException.class, () -> value.asStruct("port", "port"));
        assertThrows(IllegalArgumentException.class, () -> value.asStruct("Port"));
        final String[] tooMany = new String[StateStruct.MAX_FIELDS + 1];
        for (int f = 0; f < tooMany.length; f++)
        {
            tooMany[f] = "f" + f;
        }
        assertThrows(IllegalArgumentException.class, () -> value.asStruct(tooMany));
        assertEquals(StateStruct.MAX_FIELDS, value.asStruct(java.util.Arrays.copyOf(tooMany, StateStruct.MAX_FIELDS)).fields().size());
        assertThrows(IllegalArgumentException.class,
            () -> new TableSpec("m", TableScope.CROSS_FLOW, KeyKind.FLOW, 1L, "m").asStruct("port"));
    }

    @Test
    void shouldClearAStructBetweenBatches()
    {
        final MapStateStore state = new MapStateStore(catalog());
        StateStruct.put(state, 0, 9L, 1, 4242L);
        StateStruct.put(state, 0, 9L, 2, 7L);
        assertEquals(4242L, StateStruct.get(state, 0, 9L, 1));
        StateStruct.clear(state, 0, FIELDS.length, 9L);
        final Map<Long, Long> left = new HashMap<>();
        state.forEach(0, left::put);
        assertEquals(Map.of(), left);
    }
}
