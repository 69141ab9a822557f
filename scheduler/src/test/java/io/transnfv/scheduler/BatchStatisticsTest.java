package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class BatchStatisticsTest
{
    @Test
    void shouldMeasureChainsFromTheSealedGraph()
    {
        final BatchStatistics stats = new BatchStatistics();
        stats.measure(MeasuredBatches.graph(1000, 10, 0), 2);
        assertEquals(1000, stats.operations());
        assertEquals(10, stats.keys());
        assertEquals(100.0, stats.contendedChainLength());
        assertEquals(2, stats.threads());
        assertEquals(1L, stats.tableMask());
    }

    @Test
    void shouldKeepRecentAbortsPerTableSetSoOneVnfDoesNotMakeAnotherEager()
    {
        final TaskPrecedenceGraph nat = MeasuredBatches.graph(100, 100, 1);
        final TaskPrecedenceGraph detector = MeasuredBatches.graph(100, 100, 2);
        final BatchStatistics stats = new BatchStatistics();
        for (int b = 0; b < 10; b++)
        {
            stats.measure(nat, 1);
            stats.recordOutcome(50, 10);
            stats.measure(detector, 1);
            stats.recordOutcome(0, 10);
        }
        stats.measure(nat, 1);
        final int natSlot = stats.signature();
        assertEquals(0.5, stats.recentAbortRatio(), 1e-9);
        stats.measure(detector, 1);
        assertNotEquals(natSlot, stats.signature());
        assertEquals(0.0, stats.recentAbortRatio());
    }

    @Test
    void shouldForgetTheLeastRecentlySeenTableSetWhenTheSlotsRunOut()
    {
        final BatchStatistics stats = new BatchStatistics();
        stats.measure(MeasuredBatches.graph(10, 10, 0), 1);
        stats.recordOutcome(5, 10);
        for (int table = 1; table <= BatchStatistics.SIGNATURES; table++)
        {
            stats.measure(MeasuredBatches.graph(10, 10, table), 1);
        }
        stats.measure(MeasuredBatches.graph(10, 10, 0), 1);
        assertEquals(0.0, stats.recentAbortRatio(), "table 0's slot was reused and starts afresh");
    }
}
