package io.transnfv.experiments.scheduling;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.instance.MapStateStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchedulingWorkloadTest
{
    private static final int OPS = 2_000;
    private static final int BATCHES = 3;

    static Stream<String> workloads()
    {
        return SchedulingBenchmark.Settings.STEADY.stream();
    }

    /** A benchmark row only counts if every contestant computes what the oracle computes. */
    @ParameterizedTest
    @MethodSource("workloads")
    void everyStrategyShouldGiveTheOraclesResultsOnTheWorkload(final String workload)
    {
        final TransactionLog[] oracleLogs = SchedulingBenchmark.batches(workload, OPS);
        final MapStateStore oracle = new MapStateStore(SchedulingWorkload.catalog());
        final SerialApplier applier = new SerialApplier();
        for (int b = 0; b < BATCHES; b++)
        {
            for (int t = 0; t < oracleLogs[b].transactionCount(); t++)
            {
                applier.apply(oracleLogs[b], t, oracle);
            }
        }
        for (final String strategy : TpgBatchExecutor.strategyNames())
        {
            final TransactionLog[] logs = SchedulingBenchmark.batches(workload, OPS);
            final MultiVersionStateTable state = new MultiVersionStateTable(SchedulingWorkload.catalog());
            try (TpgBatchExecutor executor = TpgBatchExecutor.create(2, strategy))
            {
                for (int b = 0; b < BATCHES; b++)
                {
                    executor.execute(logs[b], state);
                    assertSameResults(workload + " " + strategy + " batch " + b, oracleLogs[b], logs[b]);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("workloads")
    void batchesShouldHaveTheRequestedSizeAndDifferFromEachOther(final String workload)
    {
        final TransactionLog[] logs = SchedulingBenchmark.batches(workload, OPS);
        final Set<Long> firstKeys = new HashSet<>();
        for (final TransactionLog log : logs)
        {
            assertTrue(Math.abs(log.operationCount() - OPS) <= 4, workload + ": " + log.operationCount() + " operations");
            firstKeys.add(log.key(0) * 31 + log.key(log.operationCount() - 1));
        }
        assertTrue(firstKeys.size() > 1, workload + ": the distinct batches are the same batch");
    }

    @ParameterizedTest
    @MethodSource("workloads")
    void abortsShouldOnlyComeFromTheAbortHeavyWorkload(final String workload)
    {
        final MapStateStore oracle = new MapStateStore(SchedulingWorkload.catalog());
        final SerialApplier applier = new SerialApplier();
        long aborted = 0;
        long transactions = 0;
        for (final TransactionLog log : SchedulingBenchmark.batches(workload, OPS))
        {
            for (int t = 0; t < log.transactionCount(); t++)
            {
                applier.apply(log, t, oracle);
                aborted += log.abortReason(t) != 0 ? 1 : 0;
            }
            transactions += log.transactionCount();
        }
        final double ratio = (double)aborted / transactions;
        if (workload.equals("aborts"))
        {
            // a key whose write aborted keeps its value, so the ratio climbs from ~16 % on empty state towards ~42 %
            assertTrue(ratio > 0.2 && ratio < 0.5, "abort ratio " + ratio);
        }
        else
        {
            assertEquals(0, aborted, workload);
        }
    }

    @Test
    void monitorTransactionsShouldTouchFourCountersOneOfThemTheSharedTotal()
    {
        final TransactionLog log = SchedulingBenchmark.batches("monitor", OPS)[0];
        assertEquals(OPS / 4, log.transactionCount());
        for (int t = 0; t < log.transactionCount(); t++)
        {
            assertEquals(4, log.operationCount(t));
            final int last = log.firstOperation(t) + 3;
            assertEquals(SchedulingWorkload.TOTAL_BYTES, log.table(last));
            assertEquals(0L, log.key(last));
        }
    }

    private static void assertSameResults(final String where, final TransactionLog expected, final TransactionLog actual)
    {
        assertEquals(expected.transactionCount(), actual.transactionCount(), where);
        for (int t = 0; t < expected.transactionCount(); t++)
        {
            assertEquals(expected.abortReason(t), actual.abortReason(t), where + " txn " + t + " abort reason");
            if (expected.abortReason(t) != 0)
            {
                continue;
            }
            for (int o = expected.firstOperation(t); o < expected.firstOperation(t) + expected.operationCount(t); o++)
            {
                assertEquals(expected.before(o), actual.before(o), where + " op " + o + " before");
                assertEquals(expected.after(o), actual.after(o), where + " op " + o + " after");
                assertEquals(expected.chosen(o), actual.chosen(o), where + " op " + o + " chosen");
            }
        }
    }
}
