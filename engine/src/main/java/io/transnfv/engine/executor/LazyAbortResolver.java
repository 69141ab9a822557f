package io.transnfv.engine.executor;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Arrays;

/**
 * The end-of-batch half of {@link io.transnfv.scheduler.LazyAbort}, run by the worker that
 * closes the execution phase. Under speculative visibility a transaction that aborted may
 * have written versions that others read before it aborted. This undoes every aborted
 * transaction and re-executes, in serial order, exactly the transactions that read one of its
 * versions, then those that read a re-executed transaction's versions, and so on (every edge
 * points forward in the serial order, so one pass in serial order through a heap of marked
 * transactions settles everything).
 *
 * <pre>
 *  A aborts at op 1 ── op 0's version was read by B ── B re-executed ── C read B ── C too
 *                                                   └─ D read A's op 1 slot: already removed
 *                                                      before D ran: D is left alone
 * </pre>
 *
 * Independent transactions are never involved: nobody else touches their keys. Allocation-free
 * once its arrays have grown.
 */
final class LazyAbortResolver
{
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();
    private static final int READ = OperationType.READ.ordinal();
    private static final int ADD = OperationType.ADD.ordinal();

    private int[] heap = new int[64];
    private int heapSize;
    private int[] markedIn = new int[64];
    private int stamp;
    private TaskPrecedenceGraph graph;

    /** @return the number of operations re-executed. */
    long resolve(final BatchRun run, final OperationExecutor executor)
    {
        final TransactionLog log = run.log;
        final TaskPrecedenceGraph graph = run.graph;
        final int txns = log.transactionCount();
        this.graph = graph;
        if (markedIn.length < txns)
        {
            markedIn = new int[Integer.highestOneBit(txns - 1) << 1];
            stamp = 0;
        }
        if (++stamp == Integer.MAX_VALUE)
        {
            Arrays.fill(markedIn, 0);
            stamp = 1;
        }
        heapSize = 0;
        for (int t = 0; t < txns; t++)
        {
            if (log.abortReason(t) == 0 || graph.isIndependent(t))
            {
                continue;
            }
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            // only versions written before the abort were ever visible (the aborting and later
            // operations removed theirs before releasing a reader); but a reader of a later,
            // removed slot of the same transaction read through to such a version, so every
            // operation's readers are suspect
            for (int o = first; o < end; o++)
            {
                markReaders(log, o);
            }
            executor.undoTransaction(t);
        }
        long reExecuted = 0;
        while (heapSize > 0)
        {
            final int t = pop();
            log.abortReason(t, executor.reExecute(t));
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            reExecuted += end - first;
            for (int o = first; o < end; o++)
            {
                markReaders(log, o);
            }
        }
        this.graph = null;
        return reExecuted;
    }

    private void markReaders(final TransactionLog log, final int o)
    {
        final int type = log.type(o);
        if (type == CHOOSE)
        {
            final int x0 = graph.extraEntry(log.extraStart(o));
            final int x1 = x0 + log.extraCount(o);
            for (int e = x0; e < x1; e++)
            {
                if (graph.isWrite(e))
                {
                    markReadersOf(log, e);
                }
            }
        }
        else if (type != READ && graph.targetEntry(o) != TaskPrecedenceGraph.NONE)
        {
            markReadersOf(log, o);
        }
    }

    private void markReadersOf(final TransactionLog log, final int e)
    {
        for (int f = graph.nextEntry(e); f != TaskPrecedenceGraph.NONE; f = graph.nextEntry(f))
        {
            if (graph.isCrossTransaction(f))
            {
                final int t = log.transactionOf(graph.entryOperation(f));
                if (markedIn[t] != stamp)
                {
                    markedIn[t] = stamp;
                    push(t);
                }
            }
            if (graph.isWrite(f))
            {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- min-heap in serial order

    private boolean before(final int a, final int b)
    {
        return graph.serialRank(a) < graph.serialRank(b);
    }

    private void push(final int t)
    {
        if (heapSize == heap.length)
        {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        int i = heapSize++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (!before(t, heap[parent]))
            {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = t;
    }

    private int pop()
    {
        final int top = heap[0];
        final int last = heap[--heapSize];
        int i = 0;
        while (true)
        {
            final int left = 2 * i + 1;
            if (left >= heapSize)
            {
                break;
            }
            final int right = left + 1;
            final int child = right < heapSize && before(heap[right], heap[left]) ? right : left;
            if (!before(heap[child], last))
            {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        if (heapSize > 0)
        {
            heap[i] = last;
        }
        return top;
    }
}
