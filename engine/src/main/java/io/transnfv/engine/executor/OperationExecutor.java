package io.transnfv.engine.executor;

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
 * One executor's role: take a ready unit from the deques ({@link Exploration#poll}), run its
 * operations in serial order against the multi-version table, and release what they unblock.
 * It is also the {@link FunctionContext} of the operation it runs. Owned by one thread; its
 * counters are plain fields read by the coordinator after the batch.
 *
 * <pre>
 *  unit at position p:  o = operationAt(p)  ──► READY?  ──yes──► run o, release, p + 1
 *                                              │no
 *                                              └► park(o): let go; the last resolver of o
 *                                                 pushes position p back onto a deque
 *  per operation:  READY ──run──► EXECUTED / ABORTED
 *    speculative (lazy):  its readers lose a dependency now
 *    decided (eager):     its readers lose it when its transaction finishes, after an
 *                         aborted transaction's versions are removed
 *    the transaction's next operation loses its logical dependency
 * </pre>
 *
 * <p>Time is measured at idle transitions only (never per operation): an idle streak that
 * ended by finding work while searching counts as explore, one that parked or ended the batch
 * counts as sync; the rest of the executor's time in the batch is useful.
 */
final class OperationExecutor extends OperationContext
{
    private static final int SPIN_LIMIT = 32;
    private static final int YIELD_LIMIT = 40;
    private static final long IDLE_PARK_NS = 50_000L;

    private final int index;
    private final BatchRun run;

    private TaskPrecedenceGraph graph;
    private MultiVersionStateTable state;
    private OperationStateMachine machine;
    private ReadyDeques deques;
    private WorkUnits units;
    private Exploration exploration;
    private boolean speculative;
    private boolean concurrent;


    long processed;
    long executed;
    long skipped;
    long transactionsAborted;
    long activeNs;
    long exploreNs;
    long syncNs;
    long unitsRun;
    long parks;

    OperationExecutor(final int index, final BatchRun run)
    {
        this.index = index;
        this.run = run;
    }

    /** Runs units until every operation of the batch is processed (or the batch has failed). */
    void runBatch()
    {
        final long startNs = System.nanoTime();
        bind();
        processed = 0;
        executed = 0;
        skipped = 0;
        transactionsAborted = 0;
        exploreNs = 0;
        syncNs = 0;
        unitsRun = 0;
        parks = 0;
        run.attach(index, Thread.currentThread());
        final Exploration exploration = this.exploration;
        final ReadyDeques deques = this.deques;
        try
        {
            while (true)
            {
                int position = exploration.poll(deques, index);
                if (position == ReadyDeques.EMPTY)
                {
                    position = idle(exploration, deques);
                    if (position == ReadyDeques.EMPTY)
                    {
                        break;
                    }
                }
                runUnit(position);
            }
        }
        catch (final Throwable t)
        {
            run.fail(t);
            run.wakeAll();
        }
        finally
        {
            activeNs = System.nanoTime() - startNs;
            log = null;
            state = null;
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
        concurrent = run.activeExecutors > 1;
    }

    /** @return a position found after waiting, or EMPTY when the batch is over. */
    private int idle(final Exploration exploration, final ReadyDeques deques)
    {
        final long idleStartNs = System.nanoTime();
        boolean waited = false;
        int position = ReadyDeques.EMPTY;
        for (int idle = 0; ; idle++)
        {
            if (run.done())
            {
                run.wakeAll();
                waited = true;
                break;
            }
            position = exploration.poll(deques, index);
            if (position != ReadyDeques.EMPTY)
            {
                break;
            }
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
                waited = true;
                parks++;
                run.parkIdle(index, IDLE_PARK_NS);
            }
        }
        final long idleNs = System.nanoTime() - idleStartNs;
        if (waited)
        {
            syncNs += idleNs;
        }
        else
        {
            exploreNs += idleNs;
        }
        return position;
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
            if (machine.state(o) != OperationStateMachine.READY && machine.park(o))
            {
                break;
            }
            process(o);
        }
        run.publishProcessed(index, processed);
    }

    private void process(final int o)
    {
        final TransactionLog log = this.log;
        final int t = log.transactionOf(o);
        final int[] abortReasons = run.abortReason;
        final int first = log.firstOperation(t);
        if (abortReasons[t] != 0)
        {
            removeSlots(o);
            machine.complete(o, OperationStateMachine.ABORTED);
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
                abortReasons[t] = abortReason;
                removeSlots(o);
                machine.complete(o, OperationStateMachine.ABORTED);
            }
            else
            {
                machine.complete(o, OperationStateMachine.EXECUTED);
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
                run.wakeOneIfIdle();
            }
        }
    }

    private void releaseDependents(final int o)
    {
        final TaskPrecedenceGraph graph = this.graph;
        final int end = graph.dependentsEnd(o);
        for (int i = graph.dependentsStart(o); i < end; i++)
        {
            release(graph.dependent(i));
        }
    }

    private void finishTransaction(final int t, final int first, final int end)
    {
        final boolean aborted = run.abortReason[t] != 0;
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
            removeVersions(t);
        }
        for (int o = first; o < end; o++)
        {
            releaseDependents(o);
        }
    }

    /**
     * Coordinator only, after the parallel phase: runs transaction {@code t} again against the
     * current versions (every earlier transaction is final), writing its versions, or removing
     * them all if it aborts.
     *
     * @return 0 if it committed, else its abort reason.
     */
    int reExecute(final int t)
    {
        bind();
        final TransactionLog log = this.log;
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
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
                removeVersions(t);
                break;
            }
        }
        final int reason = abortReason;
        this.log = null;
        this.state = null;
        return reason;
    }

    /** Removes every version slot of transaction {@code t} (written or not). */
    void removeVersions(final int t)
    {
        final TransactionLog log = run.log;
        final int first = log.firstOperation(t);
        final int end = first + log.operationCount(t);
        for (int o = first; o < end; o++)
        {
            removeSlotsOf(log, run.graph, run.state, o);
        }
    }

    private void removeSlots(final int o)
    {
        removeSlotsOf(log, graph, state, o);
    }

    private static void removeSlotsOf(
        final TransactionLog log, final TaskPrecedenceGraph graph, final MultiVersionStateTable state, final int o)
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

    @Override
    protected long extraValue(final int extra)
    {
        return readAt(graph.extraEntry(extra));
    }
}
