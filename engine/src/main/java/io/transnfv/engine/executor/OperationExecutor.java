package io.transnfv.engine.executor;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.scheduler.Exploration;
import io.transnfv.scheduler.ReadyDeques;
import io.transnfv.scheduler.WorkUnits;
import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.OperationContext;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * One executor's role in the execution phase: take a ready unit (own deque, then stealing),
 * else claim initial work (a seal chunk's ready operations, a chunk of independent
 * transactions), run it against the multi-version table and release what it unblocks. It is
 * also the {@link io.transnfv.tpg.txn.FunctionContext} of the operation it runs. Owned by one
 * worker; its counters are plain fields read after the batch.
 *
 * <pre>
 *  unit at position p:  o = operationAt(p) ──► READY? ──yes──► run o, release, p + 1
 *                                              │no
 *                                              └► park(o): let go; the last resolver of o
 *                                                 pushes position p back onto its deque
 *  per operation:  READY ──run──► EXECUTED / ABORTED
 *    speculative (lazy abort):  its readers lose a dependency now
 *    decided (eager abort):     its readers lose it when its transaction finishes, after an
 *                               aborted transaction's effects are undone
 *    the transaction's next operation loses its logical dependency
 *  independent transaction:     its operations in statement order, in place, no dependency
 * </pre>
 */
final class OperationExecutor extends OperationContext
{
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();
    private static final int READ = OperationType.READ.ordinal();
    private static final int ADD = OperationType.ADD.ordinal();
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();

    private final int index;
    private final BatchRun run;
    private final int polls = EngineConfiguration.EXECUTE_POLLS;

    private TaskPrecedenceGraph graph;
    private MultiVersionStateTable state;
    private OperationStateMachine machine;
    private ReadyDeques deques;
    private WorkUnits units;
    private Exploration exploration;
    private boolean speculative;
    private boolean concurrent;
    private int operations;

    long processed;
    long executed;
    long skipped;
    long transactionsAborted;
    long independentRun;
    long unitsRun;
    long parks;

    OperationExecutor(final int index, final BatchRun run)
    {
        this.index = index;
        this.run = run;
    }

    /** Before the batch is published, by the opening worker: zeroes the counters. */
    void resetCounters()
    {
        processed = 0;
        executed = 0;
        skipped = 0;
        transactionsAborted = 0;
        independentRun = 0;
        unitsRun = 0;
        parks = 0;
    }

    /**
     * Runs ready work until none is left to claim now (after a few empty polls), or the batch
     * is over.
     *
     * @return true if it ran anything.
     */
    boolean work()
    {
        bind();
        final Exploration exploration = this.exploration;
        final ReadyDeques deques = this.deques;
        int empty = 0;
        boolean did = false;
        try
        {
            while (true)
            {
                final int position = exploration.poll(deques, index);
                if (position != ReadyDeques.EMPTY)
                {
                    runUnit(position);
                    empty = 0;
                    did = true;
                    continue;
                }
                if (claimInitialWork())
                {
                    empty = 0;
                    did = true;
                    continue;
                }
                if (++empty > polls || (run.allProcessed() && run.initialWorkClaimed()))
                {
                    return did;
                }
                Thread.onSpinWait();
            }
        }
        catch (final Throwable t)
        {
            run.fail(t);
            return true;
        }
        finally
        {
            log = null;
        }
    }

    private void bind()
    {
        log = run.log;
        graph = run.graph;
        state = run.state;
        machine = run.machine;
        deques = run.deques;
        units = run.units;
        exploration = run.exploration;
        speculative = run.speculative;
        concurrent = run.concurrent;
        operations = graph.operationCount();
    }

    private boolean claimInitialWork()
    {
        final int ready = run.claimReadyChunk();
        if (ready >= 0)
        {
            final TaskPrecedenceGraph graph = this.graph;
            final int n = graph.readyCount(ready);
            for (int i = 0; i < n; i++)
            {
                deques.push(index, graph.readyOperation(ready, i));
            }
            if (concurrent && n > 1)
            {
                run.workers.wakeOne();
            }
            return true;
        }
        final int chunk = run.claimIndependentChunk();
        if (chunk >= 0)
        {
            final TaskPrecedenceGraph graph = this.graph;
            final int n = graph.independentCount(chunk);
            for (int i = 0; i < n; i++)
            {
                runIndependent(graph.independentTransaction(chunk, i));
            }
            independentRun += n;
            return true;
        }
        return false;
    }

    private void runUnit(final int start)
    {
        final WorkUnits units = this.units;
        final OperationStateMachine machine = this.machine;
        final int end = units.unitEnd(start);
        unitsRun++;
        process(units.operationAt(start));
        for (int p = start + 1; p < end; p++)
        {
            final int o = units.operationAt(p);
            if (machine.park(o))
            {
                parks++;
                break;
            }
            process(o);
        }
        run.publishProcessed(index, processed);
    }

    /** Runs independent transaction {@code t} at once: every access is in place, nobody waits for it. */
    private void runIndependent(final int t)
    {
        final TransactionLog log = this.log;
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
        transaction = t;
        firstOp = first;
        abortReason = 0;
        int o = first;
        try
        {
            for (; o < end && abortReason == 0; o++)
            {
                op = o;
                chosen = ChooseFunction.NONE;
                runOperation(o);
            }
        }
        catch (final RuntimeException | Error e)
        {
            run.fail(e);
            abortReason = BatchRun.FAILED;
        }
        executed += o - first;
        if (abortReason != 0)
        {
            log.abortReason(t, abortReason);
            undoTransaction(t);
            transactionsAborted++;
        }
    }

    private void process(final int o)
    {
        final TransactionLog log = this.log;
        final int t = log.transactionOf(o);
        final int first = log.firstOperation(t);
        if (log.abortReason(t) != 0)
        {
            undoEntries(o);
            skipped++;
        }
        else
        {
            op = o;
            transaction = t;
            firstOp = first;
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
                log.abortReason(t, abortReason);
                undoEntries(o);
            }
        }
        processed++;
        if (speculative)
        {
            releaseDependents(o);
        }
        if (o < first + log.operationCount(t) - 1)
        {
            release(o + 1);
        }
        else
        {
            finishTransaction(t, first, o + 1);
        }
    }

    private void release(final int o)
    {
        if (machine.resolveDependency(o))
        {
            deques.push(index, units.positionOf(o));
            if (concurrent)
            {
                run.workers.wakeOne();
            }
        }
    }

    /** Releases every operation that reads a version operation {@code o} wrote (TD and PD edges). */
    private void releaseDependents(final int o)
    {
        final TransactionLog log = this.log;
        final int type = log.type(o);
        if (type != CHOOSE)
        {
            if (graph.targetEntry(o) != TaskPrecedenceGraph.NONE && type != READ)
            {
                releaseReaders(o);
            }
            return;
        }
        final int x0 = operations + log.extraStart(o);
        final int x1 = x0 + log.extraCount(o);
        for (int e = x0; e < x1; e++)
        {
            if (graph.isWrite(e))
            {
                releaseReaders(e);
            }
        }
    }

    /** Walks write entry {@code e}'s chain up to the next write: every other transaction's entry there read it. */
    private void releaseReaders(final int e)
    {
        final TaskPrecedenceGraph graph = this.graph;
        if (graph.isInPlace(e))
        {
            return;
        }
        for (int f = graph.nextEntry(e); f != TaskPrecedenceGraph.NONE; f = graph.nextEntry(f))
        {
            if (graph.isCrossTransaction(f))
            {
                release(graph.entryOperation(f));
            }
            if (graph.isWrite(f))
            {
                return;
            }
        }
    }

    private void finishTransaction(final int t, final int first, final int end)
    {
        final boolean aborted = log.abortReason(t) != 0;
        if (aborted)
        {
            transactionsAborted++;
        }
        if (speculative)
        {
            return;
        }
        if (aborted)
        {
            undoTransaction(t);
        }
        for (int o = first; o < end; o++)
        {
            releaseDependents(o);
        }
    }

    /**
     * The coordinating worker only, after the execution phase: runs transaction {@code t} again
     * against the current versions (every earlier transaction is final), first undoing what it
     * did, and undoing everything again if it aborts.
     *
     * @return 0 if it committed, else its abort reason.
     */
    int reExecute(final int t)
    {
        bind();
        final TransactionLog log = this.log;
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
        undoTransaction(t);
        transaction = t;
        firstOp = first;
        abortReason = 0;
        for (int o = first; o < end; o++)
        {
            op = o;
            chosen = ChooseFunction.NONE;
            runOperation(o);
            if (abortReason != 0)
            {
                undoTransaction(t);
                break;
            }
        }
        this.log = null;
        return abortReason;
    }

    /** Undoes every effect of transaction {@code t}, in reverse statement order. */
    void undoTransaction(final int t)
    {
        final TransactionLog log = run.log;
        final int first = log.firstOperation(t);
        for (int o = first + log.operationCount(t) - 1; o >= first; o--)
        {
            undoEntriesOf(log, o);
        }
    }

    private void undoEntries(final int o)
    {
        undoEntriesOf(log, o);
    }

    private void undoEntriesOf(final TransactionLog log, final int o)
    {
        final int type = log.type(o);
        final MultiVersionStateTable state = run.state;
        if (type == CHOOSE)
        {
            final TaskPrecedenceGraph graph = run.graph;
            final int x0 = graph.extraEntry(log.extraStart(o));
            final int x1 = x0 + log.extraCount(o);
            for (int e = x1 - 1; e >= x0; e--)
            {
                if (graph.isWrite(e))
                {
                    state.undo(e);
                }
            }
        }
        else if (type != READ && run.graph.targetEntry(o) != TaskPrecedenceGraph.NONE)
        {
            // an ADD, a DEFER or a STALE_CHOOSE wrote nothing: it reaches the state when the batch commits
            state.undo(o);
        }
    }

    // ---------------------------------------------------------------- running one operation

    private long readAt(final int entry)
    {
        return state.read(graph.accessEntry(entry));
    }

    private void runOperation(final int o)
    {
        final TransactionLog log = this.log;
        switch (log.type(o))
        {
            case 0: // READ
            {
                final long v = readAt(o);
                log.result(o, v, v, ChooseFunction.NONE);
                break;
            }
            case 1: // WRITE
            {
                final long old = readAt(o);
                final long v = log.operand(o);
                if (admitted(log.table(o), old, v))
                {
                    state.write(o, v);
                    log.result(o, old, v, ChooseFunction.NONE);
                }
                break;
            }
            case 2: // READ_MODIFY
            {
                final long old = readAt(o);
                final long v = applyFunction(log.function(o), old);
                if (abortReason == 0 && admitted(log.table(o), old, v))
                {
                    state.write(o, v);
                    log.result(o, old, v, ChooseFunction.NONE);
                }
                break;
            }
            case 4: // ADD: the delta only; TpgBatchExecutor adds the committed ones when the batch ends
            {
                final long delta = applyFunction(log.function(o), 0L);
                // the committed value is the batch start's: an add-only table's slots do not change
                // until the batch commits; looked up only for a table closed to new entries
                if (abortReason == 0 && (delta == 0 || !refusesNewEntries(log.table(o))
                    || admittedAdd(log.table(o), log.key(o), state.get(log.table(o), log.key(o)), delta)))
                {
                    log.result(o, 0L, delta, ChooseFunction.NONE);
                }
                break;
            }
            case 5: // DEFER: nobody waits for it; TpgBatchExecutor applies the committed ones in serial order when the batch ends
                log.result(o, 0L, 0L, ChooseFunction.NONE);
                break;
            case 6: // STALE_READ: the committed value, which no operation of the batch changes before it commits
            {
                final long v = state.get(log.table(o), log.key(o));
                log.result(o, v, v, ChooseFunction.NONE);
                break;
            }
            case 7: // STALE_CHOOSE: picks by committed values, records the delta; TpgBatchExecutor adds it when the batch ends
                runStaleChoose(o);
                break;
            default: // CHOOSE
                runChoose(o);
                break;
        }
    }

    private void runChoose(final int o)
    {
        final TransactionLog log = this.log;
        final int x0 = log.extraStart(o);
        final int count = log.extraCount(o);
        final int pick = applyChooser(log.chooser(o), count);
        if (abortReason != 0)
        {
            return;
        }
        if (pick == ChooseFunction.NONE)
        {
            skipCandidates(x0, count, TaskPrecedenceGraph.NONE);
            log.result(o, 0L, 0L, ChooseFunction.NONE);
            return;
        }
        chosen = pick;
        final int e = graph.accessEntry(graph.extraEntry(x0 + pick));
        final long old = state.read(e);
        final long v = applyFunction(log.function(o), old);
        if (abortReason == 0 && admitted(log.table(o), old, v))
        {
            state.write(e, v);
            skipCandidates(x0, count, e);
            log.result(o, old, v, pick);
        }
    }

    private void runStaleChoose(final int o)
    {
        final TransactionLog log = this.log;
        final int pick = applyChooser(log.chooser(o), log.extraCount(o));
        if (abortReason != 0)
        {
            return;
        }
        if (pick == ChooseFunction.NONE)
        {
            log.result(o, 0L, 0L, ChooseFunction.NONE);
            return;
        }
        chosen = pick;
        final int table = log.table(o);
        final long key = log.extraKey(log.extraStart(o) + pick);
        final long delta = applyFunction(log.function(o), 0L);
        if (abortReason == 0 && (delta == 0 || admittedAdd(table, key, state.get(table, key), delta)))
        {
            log.result(o, 0L, delta, pick);
        }
    }

    /** Unchosen candidates create no version: readers after the CHOOSE look through them. */
    private void skipCandidates(final int x0, final int count, final int chosenEntry)
    {
        final TaskPrecedenceGraph graph = this.graph;
        for (int x = x0; x < x0 + count; x++)
        {
            final int e = graph.extraEntry(x);
            if (e != chosenEntry && graph.isWrite(e))
            {
                state.skip(e);
            }
        }
    }

    @Override
    protected long extraValue(final int extra)
    {
        final TransactionLog log = this.log;
        return log.type(op) == STALE_CHOOSE ? state.get(log.extraTable(extra), log.extraKey(extra)) : readAt(graph.extraEntry(extra));
    }
}
