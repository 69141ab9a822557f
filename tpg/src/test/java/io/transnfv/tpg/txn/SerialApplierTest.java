package io.transnfv.tpg.txn;

import io.transnfv.tpg.collections.Long2LongHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerialApplierTest
{
    private static final int ACCOUNTS = 0;
    private static final int LOAD = 1;
    private static final int INSUFFICIENT = 7;

    private final TransactionLog log = new TransactionLog(1, 1);
    private final SerialApplier applier = new SerialApplier();
    private Store store;

    @BeforeEach
    void setUp()
    {
        store = new Store();
    }

    @Test
    void shouldApplyOperationsInStatementOrderAndRecordBeforeAndAfter()
    {
        log.begin(10, 0, null);
        final int w = log.write(ACCOUNTS, 1, 100);
        final int m = log.readModify(ACCOUNTS, 1, (v, ctx) -> v + ctx.operand(), 5);
        final int r = log.read(ACCOUNTS, 1);
        log.end();

        assertEquals(0, applier.apply(log, 0, store));
        assertEquals(0, w);
        assertEquals(100, log.view(0).after(w));
        assertEquals(100, log.view(0).before(m));
        assertEquals(105, log.view(0).after(m));
        assertEquals(105, log.view(0).after(r));
        assertEquals(105, store.get(ACCOUNTS, 1));
    }

    @Test
    void shouldReadStaleValuesAsOfTheBatchStartInABatchAndTheCurrentValueAlone()
    {
        for (final boolean batch : new boolean[] {true, false})
        {
            final TransactionLog log = new TransactionLog(1, 1);
            final Store store = new Store();
            store.put(LOAD, 0, 3);
            store.put(LOAD, 1, 4);
            log.begin(10, 0, null);
            log.add(LOAD, 0, (zero, ctx) -> 5, 0);
            log.end();
            log.begin(20, 1, null);
            final int read = log.staleRead(LOAD, 0);
            final int pick = log.staleChoose(LOAD, SerialApplierTest::leastLoaded, (zero, ctx) -> zero + 1, 0);
            log.candidate(0);
            log.candidate(1);
            log.end();
            if (batch)
            {
                applier.beginBatch();
            }
            assertEquals(0, applier.apply(log, 0, store));
            assertEquals(0, applier.apply(log, 1, store));
            applier.endBatch();
            // in a batch the read and the choice see key 0 as the batch started (3), not after the add (8)
            assertEquals(batch ? 3 : 8, log.view(1).after(read), "batch " + batch);
            assertEquals(batch ? 0 : 1, log.view(1).chosen(pick), "batch " + batch);
            assertEquals(0, log.view(1).before(pick));
            assertEquals(1, log.view(1).after(pick), "the result is the delta");
            assertEquals(batch ? 9 : 8, store.get(LOAD, 0));
            assertEquals(batch ? 4 : 5, store.get(LOAD, 1));
        }
    }

    @Test
    void shouldReadTheBatchStartsValueLateInALongBatchWithAbortedTransactionsRolledBack()
    {
        // past the log's first entries a stale read is looked up in an index of first writes:
        // every stale read, early or late, equals the value the key had when the batch started
        for (final long seed : new long[] {1, 2, 3, 4, 5})
        {
            final java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            final Store store = new Store();
            final long[][] start = new long[2][48];
            for (int table = 0; table < 2; table++)
            {
                for (int key = 0; key < start[table].length; key++)
                {
                    start[table][key] = random.nextInt(1_000);
                    store.put(table, key, start[table][key]);
                }
            }
            final TransactionLog log = new TransactionLog(1, 1);
            final int transactions = 400;
            final int[] reads = new int[transactions];
            final int[][] read = new int[transactions][];
            for (int t = 0; t < transactions; t++)
            {
                log.begin(10 + t, t, null);
                for (int w = random.nextInt(1, 4); w > 0; w--)
                {
                    final boolean aborts = random.nextInt(10) == 0;
                    log.readModify(random.nextInt(2), random.nextInt(48), (v, ctx) ->
                    {
                        if (ctx.operand() == 1)
                        {
                            ctx.abort(INSUFFICIENT);
                        }
                        return v + 1 + ctx.operand();
                    }, aborts ? 1 : 2);
                }
                read[t] = new int[] {random.nextInt(2), random.nextInt(48)};
                reads[t] = log.staleRead(read[t][0], read[t][1]);
                log.end();
            }
            applier.beginBatch();
            int aborted = 0;
            for (int t = 0; t < transactions; t++)
            {
                aborted += applier.apply(log, t, store) != 0 ? 1 : 0;
            }
            applier.endBatch();
            assertTrue(aborted > 10, "some transactions abort and are rolled back: " + aborted);
            for (int t = 0; t < transactions; t++)
            {
                if (log.abortReason(t) == 0)
                {
                    assertEquals(start[read[t][0]][read[t][1]], log.view(t).after(reads[t]), "seed " + seed + ", transaction " + t);
                }
            }
        }
    }

    @Test
    void shouldApplyAFireAndForgetUpdateInPlaceAndDropItAloneWhenItAborts()
    {
        log.begin(10, 0, null);
        final int kept = log.defer(ACCOUNTS, 1, (v, ctx) -> v * 10 + 1, 0);
        final int dropped = log.defer(ACCOUNTS, 2, (v, ctx) ->
        {
            ctx.abort(INSUFFICIENT);
            return 99;
        }, 0);
        final int after = log.readModify(ACCOUNTS, 3, (v, ctx) -> v + 2 + ctx.after(kept), 0);
        log.end();
        store.put(ACCOUNTS, 1, 4);
        assertEquals(0, applier.apply(log, 0, store), "an update nobody waits for does not abort its transaction");
        assertEquals(41, store.get(ACCOUNTS, 1));
        assertEquals(0, store.get(ACCOUNTS, 2));
        assertEquals(0, log.view(0).after(kept), "nothing can read a fire-and-forget update's result");
        assertEquals(0, log.view(0).after(dropped));
        assertEquals(2, store.get(ACCOUNTS, 3));
        assertEquals(2, log.view(0).after(after));
    }

    @Test
    void shouldAbortWholeTransactionWhenOneOperationFails()
    {
        store.put(ACCOUNTS, 1, 50);
        store.put(ACCOUNTS, 2, 0);
        log.begin(10, 0, null);
        log.readModify(ACCOUNTS, 2, (v, ctx) -> v + 80, 0);
        log.readModify(ACCOUNTS, 1, (v, ctx) ->
        {
            if (v < 80)
            {
                ctx.abort(INSUFFICIENT);
            }
            return v - 80;
        }, 0);
        log.write(ACCOUNTS, 3, 1);
        log.end();

        assertEquals(INSUFFICIENT, applier.apply(log, 0, store));
        assertTrue(log.view(0).aborted());
        assertEquals(0, store.get(ACCOUNTS, 2), "the first operation's write is undone");
        assertEquals(50, store.get(ACCOUNTS, 1));
        assertEquals(0, store.get(ACCOUNTS, 3), "operations after the abort do not run");
    }

    @Test
    void shouldGiveParametersTheirValueAtTheOperationsPoint()
    {
        store.put(ACCOUNTS, 9, 3);
        log.begin(10, 0, null);
        log.write(ACCOUNTS, 9, 4);
        final int m = log.readModify(ACCOUNTS, 1, (v, ctx) -> ctx.param(0) * 10, 0);
        log.param(ACCOUNTS, 9);
        log.end();

        applier.apply(log, 0, store);
        assertEquals(40, log.view(0).after(m), "the param sees the same transaction's earlier write");
    }

    @Test
    void shouldChooseLeastLoadedCandidateAndUpdateOnlyIt()
    {
        store.put(LOAD, 0, 5);
        store.put(LOAD, 1, 2);
        store.put(LOAD, 2, 2);
        log.begin(10, 0, null);
        final int c = log.choose(LOAD, SerialApplierTest::leastLoaded, (v, ctx) -> v + 1, 0);
        log.candidate(0);
        log.candidate(1);
        log.candidate(2);
        final int next = log.readModify(ACCOUNTS, 1, (v, ctx) -> ctx.chosenBy(c) * 100L + ctx.after(c), 0);
        log.end();

        applier.apply(log, 0, store);
        assertEquals(1, log.view(0).chosen(c), "ties go to the first candidate");
        assertEquals(2, log.view(0).before(c));
        assertEquals(3, log.view(0).after(c));
        assertEquals(3, store.get(LOAD, 1));
        assertEquals(2, store.get(LOAD, 2));
        assertEquals(103, log.view(0).after(next));
    }

    @Test
    void shouldChangeNothingWhenChooserPicksNone()
    {
        log.begin(10, 0, null);
        final int c = log.choose(LOAD, ctx -> ChooseFunction.NONE, (v, ctx) -> v + 1, 0);
        log.candidate(4);
        log.end();

        assertEquals(0, applier.apply(log, 0, store));
        assertEquals(ChooseFunction.NONE, log.view(0).chosen(c));
        assertEquals(0, store.get(LOAD, 4));
    }

    @Test
    void shouldAbortAsAFaultWhenAFunctionLooksAtLaterOperations()
    {
        log.begin(10, 0, null);
        log.readModify(ACCOUNTS, 1, (v, ctx) -> ctx.after(1), 0);
        log.read(ACCOUNTS, 2);
        log.end();
        final List<Throwable> told = new ArrayList<>();
        applier.faultListener((l, t, thrown) -> told.add(thrown));

        assertEquals(TransactionView.FAULT, applier.apply(log, 0, store));
        assertEquals(1, told.size());
        assertTrue(told.get(0) instanceof IllegalArgumentException, told::toString);
    }

    @Test
    void shouldUndoEveryWriteAndTellTheListenerWhenAFunctionThrows()
    {
        log.begin(10, 7, null);
        log.write(ACCOUNTS, 1, 100);
        log.readModify(ACCOUNTS, 2, (v, ctx) -> v + 1, 0);
        log.readModify(ACCOUNTS, 3, (v, ctx) ->
        {
            throw new StackOverflowError("deep");
        }, 0);
        log.end();
        final List<Long> sequences = new ArrayList<>();
        applier.faultListener((l, t, thrown) -> sequences.add(l.sequence(t)));

        assertEquals(TransactionView.FAULT, applier.apply(log, 0, store));
        assertTrue(log.view(0).aborted());
        assertEquals(List.of(7L), sequences);
        assertEquals(0, store.get(ACCOUNTS, 1));
        assertEquals(0, store.get(ACCOUNTS, 2));
    }

    @Test
    void shouldForgetAHalfDeclaredTransactionWhenItIsDiscarded()
    {
        log.begin(10, 0, null);
        log.write(ACCOUNTS, 1, 5);
        log.end();
        log.begin(11, 1, null);
        log.readModify(ACCOUNTS, 2, (v, ctx) -> v, 0);
        log.param(ACCOUNTS, 9);
        log.discardOpen();

        assertEquals(1, log.transactionCount());
        assertEquals(1, log.operationCount());
        assertEquals(0, log.extraTotal());
        log.begin(12, 2, null);
        log.read(ACCOUNTS, 1);
        log.end();
        assertEquals(2, log.transactionCount());
        assertEquals(1, log.firstOperation(1));
    }

    @Test
    void shouldRejectChooseWithoutCandidates()
    {
        log.begin(10, 0, null);
        log.choose(LOAD, ctx -> 0, (v, ctx) -> v, 0);
        assertThrows(IllegalStateException.class, log::end);
    }

    @Test
    void shouldRejectParamThatDoesNotFollowReadModify()
    {
        log.begin(10, 0, null);
        log.read(ACCOUNTS, 1);
        assertThrows(IllegalStateException.class, () -> log.param(ACCOUNTS, 2));
    }

    @Test
    void shouldRefuseAnAddToAKeyAbsentWhileItsTableIsClosedAndAddToPresentKeys()
    {
        final AdmissionGate gate = new AdmissionGate(new long[] {0L, 0L});
        applier.admission(gate);
        store.put(LOAD, 1, 10);
        gate.checked();
        gate.close(LOAD, true);
        final StateFunction delta = (v, ctx) -> ctx.operand();
        log.begin(10, 0, null);
        log.write(ACCOUNTS, 5, 1);
        log.add(LOAD, 1, delta, 3);
        log.end();
        log.begin(11, 1, null);
        log.write(ACCOUNTS, 6, 1);
        log.add(LOAD, 2, delta, 3);
        log.end();
        log.begin(12, 2, null);
        log.add(LOAD, 3, delta, 0);
        log.end();

        assertEquals(0, applier.apply(log, 0, store));
        assertEquals(13, store.get(LOAD, 1), "a present key takes its delta");
        assertEquals(TransactionView.STATE_FULL, applier.apply(log, 1, store), "an absent key would be a new entry");
        assertEquals(0, store.get(LOAD, 2));
        assertEquals(0, store.get(ACCOUNTS, 6), "the refused transaction's earlier writes are undone");
        assertEquals(0, applier.apply(log, 2, store), "a zero delta creates nothing");

        gate.checked();
        gate.close(LOAD, false);
        assertEquals(0, applier.apply(log, 1, store), "an open table takes new keys");
        assertEquals(3, store.get(LOAD, 2));
    }

    @Test
    void shouldStillTakeAddsToAKeyItsOwnAddsRemovedSinceTheCheck()
    {
        final AdmissionGate gate = new AdmissionGate(new long[] {0L, 0L});
        applier.admission(gate);
        store.put(LOAD, 1, 2);
        gate.checked();
        gate.close(LOAD, true);
        final StateFunction delta = (v, ctx) -> ctx.operand();
        log.begin(10, 0, null);
        log.add(LOAD, 1, delta, -2);
        log.end();
        log.begin(11, 1, null);
        log.add(LOAD, 1, delta, 5);
        log.end();

        assertEquals(0, applier.apply(log, 0, store));
        assertEquals(0, store.get(LOAD, 1), "back at the initial value: absent");
        assertEquals(1, gate.removedSinceCheck(LOAD));
        assertEquals(0, applier.apply(log, 1, store), "present at the check, so not a new entry: the engine, which judges by "
            + "the batch start, takes it too");
        assertEquals(5, store.get(LOAD, 1));

        gate.checked();
        assertEquals(0, gate.removedSinceCheck(LOAD), "a check judges anew");
        store.put(LOAD, 1, 0);
        assertEquals(TransactionView.STATE_FULL, applier.apply(log, 1, store), "absent at the last check");
    }

    private static int leastLoaded(final FunctionContext ctx)
    {
        int best = 0;
        for (int i = 1; i < ctx.candidateCount(); i++)
        {
            if (ctx.candidateValue(i) < ctx.candidateValue(best))
            {
                best = i;
            }
        }
        return best;
    }

    private static final class Store implements StateStore
    {
        private final Long2LongHashMap[] tables = {new Long2LongHashMap(16, 0L), new Long2LongHashMap(16, 0L)};

        @Override
        public long get(final int table, final long key)
        {
            return tables[table].get(key);
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            tables[table].put(key, value);
        }
    }
}
