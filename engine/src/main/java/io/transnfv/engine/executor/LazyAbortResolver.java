package io.transnfv.engine.executor;

import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * The end-of-batch half of {@link io.transnfv.scheduler.LazyAbort}, run by the coordinating
 * thread after every executor has left the batch. Under speculative visibility a transaction
 * that aborted may have written versions that others read before it aborted. This removes
 * every aborted transaction's versions and re-executes, in serial order, exactly the
 * transactions that read a removed version, then those that read a re-executed transaction's
 * versions, and so on (every edge points forward in the serial order, so one pass in serial
 * order through a heap of marked transactions settles everything).
 *
 * <pre>
 *  A aborts at op 1 ── op 0's version was read by B ── B re-executed ── C read B ── C too
 *                                                   └─ D read A's op 1 slot: already removed
 *                                                      before D ran: D is left alone
 * </pre>
 *
 * Allocation-free once its arrays have grown.
 */
final class LazyAbortResolver
{
    private int[] heap = new int[64];
    private int heapSize;
    private int[] markedIn = new int[64];
    private int stamp;
    private TransactionLog log;

    /**
     * @return the number of operations re-executed.
     */
    long resolve(final BatchRun run, final OperationExecutor executor)
    {
        final TransactionLog log = run.log;
        final TaskPrecedenceGraph graph = run.graph;
        final OperationStateMachine machine = run.machine;
        final int[] abortReason = run.abortReason;
        final int txns = log.transactionCount();
        this.log = log;
        if (markedIn.length < txns)
        {
            markedIn = new int[Integer.highestOneBit(txns - 1) << 1];
            stamp = 0;
        }
        if (++stamp == Integer.MAX_VALUE)
        {
            java.util.Arrays.fill(markedIn, 0);
            stamp = 1;
        }
        heapSize = 0;
        for (int t = 0; t < txns; t++)
        {
            if (abortReason[t] == 0)
            {
                continue;
            }
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            // only versions written before the abort were ever visible (the aborting and later
            // operations removed theirs before releasing a reader); but a reader of a later,
            // removed slot of the same transaction read through to such a version, so once
            // anything ran, every operation's readers are suspect
            if (machine.state(first) == OperationStateMachine.EXECUTED)
            {
                for (int o = first; o < end; o++)
                {
                    markReaders(graph, o);
                }
            }
            executor.removeVersions(t);
        }
        long reExecuted = 0;
        while (heapSize > 0)
        {
            final int t = pop();
            abortReason[t] = executor.reExecute(t);
            final int first = log.firstOperation(t);
            final int end = first + log.operationCount(t);
            reExecuted += end - first;
            for (int o = first; o < end; o++)
            {
                markReaders(graph, o);
            }
        }
        this.log = null;
        return reExecuted;
    }

    private void markReaders(final TaskPrecedenceGraph graph, final int o)
    {
        final int end = graph.dependentsEnd(o);
        for (int i = graph.dependentsStart(o); i < end; i++)
        {
            final int t = log.transactionOf(graph.dependent(i));
            if (markedIn[t] != stamp)
            {
                markedIn[t] = stamp;
                push(t);
            }
        }
    }

    // ---------------------------------------------------------------- min-heap in serial order

    private boolean before(final int a, final int b)
    {
        final long ta = log.timestampNs(a);
        final long tb = log.timestampNs(b);
        if (ta != tb)
        {
            return ta < tb;
        }
        final long sa = log.sequence(a);
        final long sb = log.sequence(b);
        return sa != sb ? sa < sb : a < b;
    }

    private void push(final int t)
    {
        if (heapSize == heap.length)
        {
            heap = java.util.Arrays.copyOf(heap, heap.length * 2);
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
