package io.transnfv.experiments.runner;

import io.transnfv.engine.executor.BatchExecutor;
import io.transnfv.engine.executor.TimeBreakdown;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * Wraps the engine's batch executor and adds up the time spent inside
 * {@link BatchExecutor#execute}: the state access phase (TPG construction, exploration and
 * execution together). The rest of a run's wall time is packet processing (parsing, pre- and
 * post-processing, batching) and finishing packets. Two clock reads per batch and VNF, none per
 * operation. Called by the engine's coordinating thread only.
 */
public final class StateAccessTimer implements BatchExecutor
{
    private final BatchExecutor inner;
    private long executeNs;

    /** @param inner the executor to time. */
    public StateAccessTimer(final BatchExecutor inner)
    {
        this.inner = inner;
    }

    @Override
    public void execute(final TransactionLog log, final MultiVersionStateTable state)
    {
        final long startNs = System.nanoTime();
        inner.execute(log, state);
        executeNs += System.nanoTime() - startNs;
    }

    /** @return the engine's own breakdown of the state access phase, or null if the executor has none. */
    public TimeBreakdown breakdown()
    {
        return inner instanceof TpgBatchExecutor tpg ? tpg.timeBreakdown() : null;
    }

    /** @return nanoseconds spent in the state access phase so far. */
    public long executeNs()
    {
        return executeNs;
    }

    @Override
    public void close()
    {
        inner.close();
    }
}
