package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.ReadyFrontier;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.concurrent.locks.LockSupport;

/**
 * One executor's role: take a ready operation from the frontier, run it against the
 * multi-version table, and release what it unblocks ({@link #doWork()}). It is also the
 * {@link FunctionContext} of the operation it runs. Owned by one thread; its counters are
 * plain fields read by the coordinator after the batch.
 *
 * <p>Per operation: READY ──run──► EXECUTED / ABORTED, then either the next operation of its
 * transaction loses its logical dependency, or (last operation) the transaction finishes:
 * if it aborted its versions are removed, then every operation waiting for it loses one
 * dependency. Readers therefore only see versions of finished transactions.
 */
final class OperationExecutor implements FunctionContext
{
    private static final int SPIN_LIMIT = 64;
    private static final int YIELD_LIMIT = 128;
    private static final long IDLE_PARK_NS = 50_000L;

    private final int index;
    private final BatchRun run;

    private TransactionLog log;
    private TaskPrecedenceGraph graph;
    private MultiVersionStateTable state;
    private OperationStateMachine machine;
    private ReadyFrontier frontier;

    private int op;
    private int transaction;
    private int firstOp;
    private int chosen;
    private int abortReason;

    long executed;
    long skipped;
    long transactionsAborted;

    OperationExecutor(final int index, final BatchRun run)
    {
        this.index = index;
        this.run = run;
    }

    /** Runs operations until the batch has no unfinished transaction (or has failed). */
    void runBatch()
    {
        log = run.log;
        graph = run.graph;
        state = run.state;
        machine = run.machine;
        frontier = run.frontier;
        executed = 0;
        skipped = 0;
        transactionsAborted = 0;
        int idle = 0;
        try
        {
            while (run.active())
            {
                if (doWork() > 0)
                {
                    idle = 0;
                }
                else
                {
                    idle = idle(idle);
                }
            }
        }
        catch (final Throwable t)
        {
            run.fail(t);
        }
        finally
        {
            log = null;
            state = null;
        }
    }

    /** @return 1 if an operation was taken and processed, 0 if none was ready. */
    int doWork()
    {
        final int o = frontier.poll(index);
        if (o == ReadyFrontier.EMPTY)
        {
            return 0;
        }
        process(o);
        return 1;
    }

    private static int idle(final int idle)
    {
        if (idle < SPIN_LIMIT)
        {
            Thread.onSpinWait();
        }
        else if (idle < YIELD_LIMIT)
        {
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(IDLE_PARK_NS);
        }
        return idle + 1;
    }

    private void process(final int o)
    {
        final TransactionLog log = this.log;
        final int t = log.transactionOf(o);
        final int[] abortReasons = run.abortReason;
        if (abortReasons[t] != 0)
        {
            complete(o, OperationStateMachine.ABORTED);
            skipped++;
        }
        else
        {
            op = o;
            transaction = t;
            firstOp = log.firstOperation(t);
            chosen = ChooseFunction.NONE;
            abortReason = 0;
            try
            {
                runOperation(o);
            }
            catch (final RuntimeException | Error e)
            {
                run.fail(e);
                abortReason = BatchRun.FAILED;
            }
            executed++;
            if (abortReason != 0)
            {
                abortReasons[t] = abortReason;
                complete(o, OperationStateMachine.ABORTED);
            }
            else
            {
                complete(o, OperationStateMachine.EXECUTED);
            }
        }
        if (o < log.firstOperation(t) + log.operationCount(t) - 1)
        {
            release(o + 1);
        }
        else
        {
            finishTransaction(t);
        }
    }

    private void complete(final int o, final int outcome)
    {
        if (!machine.complete(o, outcome))
        {
            throw new IllegalStateException("operation " + o + " was not READY: state " + machine.state(o));
        }
    }

    private void release(final int o)
    {
        if (machine.resolveDependency(o))
        {
            frontier.offer(index, o);
        }
    }

    private void finishTransaction(final int t)
    {
        final int reason = run.abortReason[t];
        if (reason != 0)
        {
            removeVersions(t);
            log.abortReason(t, reason);
            transactionsAborted++;
        }
        final TaskPrecedenceGraph graph = this.graph;
        final int end = graph.dependentsEnd(t);
        for (int i = graph.dependentsStart(t); i < end; i++)
        {
            release(graph.dependent(i));
        }
        run.transactionFinished();
    }

    private void removeVersions(final int t)
    {
        final TransactionLog log = this.log;
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
        for (int o = first; o < end; o++)
        {
            final int type = log.type(o);
            if (type == OperationType.CHOOSE.ordinal())
            {
                final int x0 = log.extraStart(o);
                final int x1 = x0 + log.extraCount(o);
                for (int x = x0; x < x1; x++)
                {
                    state.remove(graph.extraEntry(x));
                }
            }
            else if (type != OperationType.READ.ordinal())
            {
                state.remove(graph.targetEntry(o));
            }
        }
    }

    // ---------------------------------------------------------------- running one operation

    private long readAt(final int entry)
    {
        return state.read(graph.entryKey(entry), graph.previousWrite(entry));
    }

    private void runOperation(final int o)
    {
        final TransactionLog log = this.log;
        switch (log.type(o))
        {
            case 0: // READ
            {
                final long v = readAt(graph.targetEntry(o));
                log.result(o, v, v, ChooseFunction.NONE);
                break;
            }
            case 1: // WRITE
            {
                final int e = graph.targetEntry(o);
                final long old = readAt(e);
                final long v = log.operand(o);
                state.write(e, v);
                log.result(o, old, v, ChooseFunction.NONE);
                break;
            }
            case 2: // READ_MODIFY
            {
                final int e = graph.targetEntry(o);
                final long old = readAt(e);
                final long v = log.function(o).apply(old, this);
                if (abortReason == 0)
                {
                    state.write(e, v);
                    log.result(o, old, v, ChooseFunction.NONE);
                }
                break;
            }
            default: // CHOOSE
                runChoose(o);
                break;
        }
    }

    private void runChoose(final int o)
    {
        final TransactionLog log = this.log;
        final int pick = log.chooser(o).choose(this);
        if (abortReason != 0)
        {
            return;
        }
        final int x0 = log.extraStart(o);
        final int count = log.extraCount(o);
        if (pick == ChooseFunction.NONE)
        {
            keepCandidates(x0, count, TaskPrecedenceGraph.NONE);
            log.result(o, 0L, 0L, ChooseFunction.NONE);
            return;
        }
        if (pick < 0 || pick >= count)
        {
            throw new IllegalStateException("chooser picked " + pick + " of " + count + " candidates");
        }
        chosen = pick;
        final int e = graph.extraEntry(x0 + pick);
        final long old = readAt(e);
        final long v = log.function(o).apply(old, this);
        if (abortReason == 0)
        {
            state.write(e, v);
            keepCandidates(x0, count, e);
            log.result(o, old, v, pick);
        }
    }

    private void keepCandidates(final int x0, final int count, final int chosenEntry)
    {
        // an unchosen candidate still holds a version slot: it carries the previous value on
        for (int x = x0; x < x0 + count; x++)
        {
            final int e = graph.extraEntry(x);
            if (e != chosenEntry)
            {
                state.write(e, readAt(e));
            }
        }
    }

    // ---------------------------------------------------------------- FunctionContext

    @Override
    public long timestampNs()
    {
        return log.timestampNs(transaction);
    }

    @Override
    public long operand()
    {
        return log.operand(op);
    }

    @Override
    public Object attachment()
    {
        return log.attachment(transaction);
    }

    @Override
    public int paramCount()
    {
        return log.type(op) == OperationType.READ_MODIFY.ordinal() ? log.extraCount(op) : 0;
    }

    @Override
    public long param(final int index)
    {
        return readAt(graph.extraEntry(extra(index, OperationType.READ_MODIFY)));
    }

    @Override
    public int candidateCount()
    {
        return log.type(op) == OperationType.CHOOSE.ordinal() ? log.extraCount(op) : 0;
    }

    @Override
    public long candidateKey(final int index)
    {
        return log.extraKey(extra(index, OperationType.CHOOSE));
    }

    @Override
    public long candidateValue(final int index)
    {
        return readAt(graph.extraEntry(extra(index, OperationType.CHOOSE)));
    }

    @Override
    public int chosen()
    {
        return chosen;
    }

    @Override
    public long before(final int operation)
    {
        return log.before(earlier(operation));
    }

    @Override
    public long after(final int operation)
    {
        return log.after(earlier(operation));
    }

    @Override
    public int chosenBy(final int operation)
    {
        return log.chosen(earlier(operation));
    }

    @Override
    public void abort(final int reason)
    {
        if (reason <= 0)
        {
            throw new IllegalArgumentException("abort reason must be positive: " + reason);
        }
        abortReason = reason;
    }

    private int extra(final int index, final OperationType expected)
    {
        if (log.type(op) != expected.ordinal() || index < 0 || index >= log.extraCount(op))
        {
            throw new IndexOutOfBoundsException(expected + " extra " + index + " of operation " + (op - firstOp));
        }
        return log.extraStart(op) + index;
    }

    private int earlier(final int operation)
    {
        if (operation < 0 || firstOp + operation >= op)
        {
            throw new IllegalArgumentException(
                "operation " + (op - firstOp) + " may only look at earlier operations, not " + operation);
        }
        return firstOp + operation;
    }
}
