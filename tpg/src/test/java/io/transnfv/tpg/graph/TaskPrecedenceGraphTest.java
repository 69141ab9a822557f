package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.Test;

import static io.transnfv.tpg.graph.TaskPrecedenceGraph.NONE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskPrecedenceGraphTest
{
    private static final int T = 0;

    /**
     * Log order t0, t1, t2; serial order t2 (ts 5), t0 (ts 10), t1 (ts 20).
     * <pre>
     *  t0: op0 WRITE (T, 1)
     *  t1: op1 READ_MODIFY (T, 2) param (T, 1); op2 READ (T, 1)
     *  t2: op3 WRITE (T, 1)          (arrives last, belongs first)
     * </pre>
     */
    private static TransactionLog handMadeBatch()
    {
        final TransactionLog log = new TransactionLog();
        log.begin(10, 0, null);
        log.write(T, 1, 7);
        log.end();
        log.begin(20, 1, null);
        log.readModify(T, 2, (current, ctx) -> current + ctx.param(0), 0);
        log.param(T, 1);
        log.read(T, 1);
        log.end();
        log.begin(5, 2, null);
        log.write(T, 1, 9);
        log.end();
        return log;
    }

    private static TaskPrecedenceGraph build(final TransactionLog log)
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        graph.beginBatch(log);
        for (int t = 0; t < log.transactionCount(); t++)
        {
            graph.addTransaction(t);
        }
        graph.seal();
        return graph;
    }

    private static int[] keyList(final TaskPrecedenceGraph graph, final long key)
    {
        for (int k = 0; k < graph.keyCount(); k++)
        {
            if (graph.keyKey(k) == key)
            {
                int n = 0;
                for (int e = graph.keyFirstEntry(k); e != NONE; e = graph.nextEntry(e))
                {
                    n++;
                }
                final int[] ops = new int[n];
                n = 0;
                for (int e = graph.keyFirstEntry(k); e != NONE; e = graph.nextEntry(e))
                {
                    ops[n++] = graph.entryOperation(e);
                }
                return ops;
            }
        }
        throw new AssertionError("key " + key + " not touched");
    }

    private static int[] dependents(final TaskPrecedenceGraph graph, final int o)
    {
        final int[] ops = new int[graph.dependentsEnd(o) - graph.dependentsStart(o)];
        for (int i = 0; i < ops.length; i++)
        {
            ops[i] = graph.dependent(graph.dependentsStart(o) + i);
        }
        java.util.Arrays.sort(ops);
        return ops;
    }

    @Test
    void shouldOrderKeyListsByTimestampWhenTransactionsArriveOutOfOrder()
    {
        final TaskPrecedenceGraph graph = build(handMadeBatch());
        assertArrayEquals(new int[] {3, 0, 1, 2}, keyList(graph, 1));
        assertArrayEquals(new int[] {1}, keyList(graph, 2));
    }

    @Test
    void shouldDeriveTemporalParametricAndLogicalEdges()
    {
        final TaskPrecedenceGraph graph = build(handMadeBatch());
        assertEquals(2, graph.temporalEdgeCount(), "TD: t2 -> op0, t0 -> op2");
        assertEquals(1, graph.parametricEdgeCount(), "PD: t0 -> op1 (param reads op0's write)");
        assertEquals(1, graph.logicalEdgeCount(), "LD: op1 -> op2");
        assertArrayEquals(new int[] {1, 2}, dependents(graph, 0), "op0 (t0) is read by op1's proxy and op2");
        assertArrayEquals(new int[0], dependents(graph, 1));
        assertArrayEquals(new int[0], dependents(graph, 2));
        assertArrayEquals(new int[] {0}, dependents(graph, 3), "op3 (t2) is overwritten by op0");
        assertEquals(3, graph.crossTransactionEdgeCount());
        assertEquals(1, graph.pendingDependencies(0));
        assertEquals(1, graph.pendingDependencies(1));
        assertEquals(2, graph.pendingDependencies(2));
        assertEquals(0, graph.pendingDependencies(3));
    }

    @Test
    void shouldLinkEveryEntryToTheLastEarlierWriteOfItsKey()
    {
        final TransactionLog log = handMadeBatch();
        final TaskPrecedenceGraph graph = build(log);
        final int writeT2 = graph.targetEntry(3);
        final int writeT0 = graph.targetEntry(0);
        assertEquals(NONE, graph.previousWrite(writeT2));
        assertEquals(writeT2, graph.previousWrite(writeT0));
        assertEquals(writeT0, graph.previousWrite(graph.extraEntry(log.extraStart(1))), "proxy of op1's parameter");
        assertEquals(writeT0, graph.previousWrite(graph.targetEntry(2)));
        assertEquals(TaskPrecedenceGraph.ROLE_PARAM, graph.entryRoles(graph.extraEntry(log.extraStart(1))));
        assertFalse(graph.isWrite(graph.targetEntry(2)));
        assertTrue(graph.isWrite(graph.targetEntry(1)));
    }

    @Test
    void shouldMergeAnOperationsAccessesToOneKeyIntoOneEntry()
    {
        final TransactionLog log = new TransactionLog();
        log.begin(1, 0, null);
        log.readModify(T, 5, (current, ctx) -> current + ctx.param(0), 0);
        log.param(T, 5);
        log.choose(T, ctx -> 0, (current, ctx) -> current + 1, 0);
        log.candidate(6);
        log.candidate(6);
        log.end();
        final TaskPrecedenceGraph graph = build(log);
        assertEquals(graph.targetEntry(0), graph.extraEntry(log.extraStart(0)));
        assertEquals(TaskPrecedenceGraph.ROLE_WRITE | TaskPrecedenceGraph.ROLE_PARAM, graph.entryRoles(graph.targetEntry(0)));
        assertEquals(graph.extraEntry(log.extraStart(1)), graph.extraEntry(log.extraStart(1) + 1));
        assertEquals(2, graph.entryCount());
        assertEquals(0, graph.temporalEdgeCount() + graph.parametricEdgeCount());
    }

    @Test
    void shouldTreatEveryChooseCandidateAsAWriteForOrdering()
    {
        final TransactionLog log = new TransactionLog();
        log.begin(1, 0, null);
        log.choose(T, ctx -> 0, (current, ctx) -> current + 1, 0);
        log.candidate(1);
        log.candidate(2);
        log.end();
        log.begin(2, 1, null);
        log.read(T, 2);
        log.end();
        final TaskPrecedenceGraph graph = build(log);
        assertArrayEquals(new int[] {1}, dependents(graph, 0), "a read of an unchosen candidate still waits for the CHOOSE");
        assertEquals(1, graph.temporalEdgeCount());
    }

    @Test
    void shouldRecycleItsArraysAcrossBatches()
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        for (int round = 0; round < 3; round++)
        {
            final TransactionLog log = handMadeBatch();
            graph.beginBatch(log);
            for (int t = log.transactionCount() - 1; t >= 0; t--)
            {
                graph.addTransaction(t);
            }
            graph.seal();
            assertArrayEquals(new int[] {3, 0, 1, 2}, keyList(graph, 1));
            assertEquals(2, graph.keyCount());
            assertEquals(4 * 4 + 1, graph.sumSquaredKeyEntries(), "key 1 has four entries, key 2 one");
            assertEquals(1, graph.singleEntryKeyCount());
        }
        assertEquals(4, graph.touchedKeys().slotsCleared(), "two keys cleared after each of the first two batches");
    }
}
