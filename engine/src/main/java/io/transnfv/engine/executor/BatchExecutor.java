package io.transnfv.engine.executor;

import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.TransactionLog;

import java.util.Optional;

/**
 * Executes whole batches of transactions against a multi-version state table, with the
 * result of a serial execution.
 */
public interface BatchExecutor extends AutoCloseable
{
    /**
     * Executes every transaction of {@code log} against {@code state}. The serial order is
     * ascending (timestampNs, sequence), ties broken by log index: NOT log order
     * (transactions may arrive out of order within a batch). On return, for every
     * transaction, its abortReason and every operation's before/after/chosen equal what
     * {@link io.transnfv.tpg.txn.SerialApplier} would record applying the transactions one by
     * one in serial order to the same initial state, and {@code state}'s committed values
     * equal the serial result. Called by one thread at a time.
     *
     * @throws IllegalStateException if the executor failed; {@code state} is then as before the batch.
     *                               (A function that throws only aborts its transaction with
     *                               {@link io.transnfv.tpg.txn.TransactionView#FAULT}.)
     */
    void execute(TransactionLog log, MultiVersionStateTable state);

    /**
     * @return what the executor wants reported at the end of a run (strategy, decisions, counts);
     *         empty by default. Called by the thread that calls execute.
     */
    default Optional<SchedulerReport> summary()
    {
        return Optional.empty();
    }

    /** Stops the executor threads; the executor cannot be used afterwards. */
    @Override
    void close();
}
