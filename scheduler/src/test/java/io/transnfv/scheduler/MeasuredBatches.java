package io.transnfv.scheduler;

import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * Statistics of real sealed graphs for the decision model tests: batches whose contended
 * chain length is known by construction, and recent abort ratios fed through
 * {@link BatchStatistics#recordOutcome}.
 */
final class MeasuredBatches
{
    private static final StateFunction INCREMENT = (current, ctx) -> current + 1;

    private MeasuredBatches()
    {
    }

    /**
     * @param transactions one READ_MODIFY each, on key {@code t % keys}: every key's chain is
     *                     {@code transactions / keys} long, and so is the contended chain.
     * @param abortRatio   the recent abort ratio the statistics report.
     */
    static BatchStatistics statistics(final int transactions, final int keys, final int threads, final double abortRatio)
    {
        final BatchStatistics stats = new BatchStatistics();
        stats.measure(graph(transactions, keys, 0), threads);
        stats.recordOutcome(Math.round(abortRatio * transactions), 50.0);
        return stats;
    }

    /** @return a sealed graph of {@code transactions} READ_MODIFYs on keys {@code t % keys} of {@code table}. */
    static TaskPrecedenceGraph graph(final int transactions, final int keys, final int table)
    {
        final TransactionLog log = new TransactionLog(transactions, transactions);
        for (int t = 0; t < transactions; t++)
        {
            log.begin(t, t, null);
            log.readModify(table, t % keys, INCREMENT, 1);
            log.end();
        }
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        graph.buildAndSeal(log, new OperationStateMachine());
        return graph;
    }
}
