package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

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

    private final OperationStateMachine machine = new OperationStateMachine();

    private TaskPrecedenceGraph build(final TransactionLog log)
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        graph.buildAndSeal(log, machine);
        return graph;
    }

    private static int[] keyList(final TaskPrecedenceGraph graph, final long key)
    {
        for (int i = 0; i < graph.shardKeyCount(0); i++)
        {
            final int k = graph.keyReference(0, i);
            final int first = graph.keyFirstEntry(k);
            final TransactionLog log = graph.log();
            final long firstKey = first < log.operationCount() ? log.key(first) : log.extraKey(first - log.operationCount());
            if (firstKey == key)
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

    /** @return the operations of other transactions that read a version {@code o} may write: its chains up to the next write. */
    private static int[] dependents(final TaskPrecedenceGraph graph, final TransactionLog log, final int o)
    {
        final List<Integer> ops = new ArrayList<>();
        final List<Integer> writes = new ArrayList<>();
        if (graph.targetEntry(o) != NONE)
        {
            writes.add(graph.targetEntry(o));
        }
        for (int x = log.extraStart(o); x < log.extraStart(o) + log.extraCount(o); x++)
        {
            writes.add(graph.extraEntry(x));
        }
        for (final int w : writes)
        {
            if (!graph.isWrite(w))
            {
                continue;
            }
            for (int f = graph.nextEntry(w); f != NONE; f = graph.nextEntry(f))
            {
                if (graph.isCrossTransaction(f))
                {
                    ops.add(graph.entryOperation(f));
                }
                if (graph.isWrite(f))
                {
                    break;
                }
            }
        }
        return ops.stream().mapToInt(Integer::intValue).sorted().toArray();
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
        final TransactionLog log = handMadeBatch();
        final TaskPrecedenceGraph graph = build(log);
        assertEquals(2, graph.temporalEdgeCount(), "TD: t2 -> op0, t0 -> op2");
        assertEquals(1, graph.parametricEdgeCount(), "PD: t0 -> op1 (param reads op0's write)");
        assertEquals(1, graph.logicalEdgeCount(), "LD: op1 -> op2");
        assertArrayEquals(new int[] {1, 2}, dependents(graph, log, 0), "op0 (t0) is read by op1's proxy and op2");
        assertArrayEquals(new int[0], dependents(graph, log, 1));
        assertArrayEquals(new int[0], dependents(graph, log, 2));
        assertArrayEquals(new int[] {0}, dependents(graph, log, 3), "op3 (t2) is overwritten by op0");
        assertEquals(3, graph.crossTransactionEdgeCount());
        assertEquals(1, machine.pending(0));
        assertEquals(1, machine.pending(1));
        assertEquals(2, machine.pending(2));
        assertEquals(0, machine.pending(3));
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
        assertEquals(graph.targetEntry(0), graph.accessEntry(graph.extraEntry(log.extraStart(0))),
            "a parameter on the operation's own target reads where the target reads: before the operation");
        assertEquals(TaskPrecedenceGraph.ROLE_PARAM, graph.entryRoles(graph.extraEntry(log.extraStart(0))));
        assertEquals(graph.extraEntry(log.extraStart(1)), graph.accessEntry(graph.extraEntry(log.extraStart(1) + 1)));
        assertFalse(graph.isWrite(graph.extraEntry(log.extraStart(1) + 1)), "a repeated candidate writes through the first");
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
        assertArrayEquals(new int[] {1}, dependents(graph, log, 0), "a read of an unchosen candidate still waits for the CHOOSE");
        assertEquals(1, graph.temporalEdgeCount());
    }

    @Test
    void shouldRecycleItsArraysAcrossBatches()
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        for (int round = 0; round < 3; round++)
        {
            final TransactionLog log = handMadeBatch();
            graph.buildAndSeal(log, machine);
            assertArrayEquals(new int[] {3, 0, 1, 2}, keyList(graph, 1));
            assertEquals(2, graph.keyCount());
            assertEquals(4 * 4 + 1, graph.sumSquaredKeyEntries(), "key 1 has four entries, key 2 one");
            assertEquals(1, graph.singleEntryKeyCount());
        }
    }

    @Test
    void shouldMarkKeysOfOneTransactionInPlaceAndItsTransactionIndependent()
    {
        final TransactionLog log = new TransactionLog();
        log.begin(1, 0, null);
        log.readModify(T, 10, (current, ctx) -> current + 1, 0);
        log.write(T, 11, 5);
        log.end();
        log.begin(2, 1, null);
        log.readModify(T, 12, (current, ctx) -> current + 1, 0);
        log.read(T, 20);
        log.end();
        log.begin(3, 2, null);
        log.write(T, 20, 1);
        log.end();
        final TaskPrecedenceGraph graph = build(log);
        assertTrue(graph.isIndependent(0), "t0 alone touches keys 10 and 11");
        assertTrue(graph.isInPlace(graph.targetEntry(0)));
        assertTrue(graph.isInPlace(graph.targetEntry(1)));
        assertFalse(graph.isIndependent(1), "t1 shares key 20 with t2");
        assertTrue(graph.isInPlace(graph.targetEntry(2)), "key 12 is t1's alone: in place though t1 is scheduled");
        assertFalse(graph.isInPlace(graph.targetEntry(3)));
        assertEquals(1, graph.independentTransactionCount());
        assertEquals(3, graph.scheduledOperationCount());
        assertEquals(1, graph.independentCount(0));
        assertEquals(0, graph.independentTransaction(0, 0));
        assertEquals(2, graph.readyCount(0), "t1's first operation and t2's (a write after a read: no edge)");
    }

    @Test
    void shouldSortTransactionsThatArriveOutOfOrderIntoSerialOrder()
    {
        final TaskPrecedenceGraph graph = build(handMadeBatch());
        assertEquals(1, graph.serialRank(0));
        assertEquals(2, graph.serialRank(1));
        assertEquals(0, graph.serialRank(2));
        assertEquals(2, graph.serialTransaction(0));
    }
}
