package io.transnfv.engine.executor;

import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.thread.Phase;
import io.transnfv.engine.thread.TaskPhase;
import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.engine.thread.WorkerGroup;
import io.transnfv.tpg.txn.AdmissionGate;
import io.transnfv.tpg.txn.FaultListener;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Optional;

/**
 * The state access phase of one VNF stage of a batch, as phases the chain engine's workers
 * run between its own pre- and post-processing. {@link TpgBatchExecutor} is the engine's;
 * {@link #of(BatchExecutor)} runs any other {@link BatchExecutor} as one task (a baseline, or a
 * deliberately wrong executor in a negative-control test).
 */
public interface StageExecutor extends AutoCloseable
{
    /**
     * Starts the stage's batch over {@code log}; the worker that closes its last phase calls
     * {@code then} and publishes what it returns.
     *
     * @return the first phase, opened.
     */
    Phase begin(TransactionLog log, MultiVersionStateTable state, WorkerGroup workers, Phase.Transition then);

    /**
     * @return the failure of the last batch (the executor itself failed; state is as before
     *         it), or null. A function that throws is not a failure: its transaction aborts with
     *         {@link io.transnfv.tpg.txn.TransactionView#FAULT} and the batch goes on.
     */
    Throwable lastFailure();

    /**
     * Sets who is told about functions that throw (their transactions abort with
     * {@link io.transnfv.tpg.txn.TransactionView#FAULT}). Called between batches, by the thread
     * that starts them. Executors that do not isolate faults ignore it: a throwing function then
     * fails the batch.
     */
    default void faultListener(final FaultListener listener)
    {
    }

    /**
     * Sets the tables closed to new entries (their writes that would create one abort with
     * {@link io.transnfv.tpg.txn.TransactionView#STATE_FULL}). Called once, before the first
     * batch; the gate's contents change only between batches. Executors that ignore it never
     * refuse a write, and then differ from the serial oracle once a table is full.
     */
    default void admission(final AdmissionGate gate)
    {
    }

    /**
     * @return the arrival index of a transaction whose function is running now, or -1: for the
     *         message of a batch past its deadline, read from another thread (a hint).
     */
    default long runningSequence()
    {
        return -1;
    }

    /**
     * @return a copy of the scheduling decisions so far, per policy index ({@code SchedulingPolicy.ofIndex}),
     *         read from any thread without synchronisation (figures that may be a batch old); empty for an
     *         executor that makes none.
     */
    default long[] decisionCounts()
    {
        return new long[0];
    }

    /** @return what the executor reports at the end of a run; empty by default. */
    default Optional<SchedulerReport> summary()
    {
        return Optional.empty();
    }

    /** Stops the executor's own threads, if any. */
    @Override
    void close();

    /** @return {@code executor} as a stage executor: each batch is one task on one worker. */
    static StageExecutor of(final BatchExecutor executor)
    {
        return new StageExecutor()
        {
            private final TaskPhase phase = new TaskPhase(TimeCategory.EXECUTE, this::run);
            private TransactionLog log;
            private MultiVersionStateTable state;
            private Throwable failure;

            private void run(final int task, final int worker)
            {
                try
                {
                    executor.execute(log, state);
                }
                catch (final RuntimeException | Error e)
                {
                    failure = e;
                }
            }

            @Override
            public Phase begin(
                final TransactionLog log, final MultiVersionStateTable state, final WorkerGroup workers, final Phase.Transition then)
            {
                this.log = log;
                this.state = state;
                this.failure = null;
                return phase.tasks(1).open(1, then);
            }

            @Override
            public Throwable lastFailure()
            {
                return failure;
            }

            @Override
            public Optional<SchedulerReport> summary()
            {
                return executor.summary();
            }

            @Override
            public void close()
            {
                executor.close();
            }
        };
    }
}
