package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeuristicDecisionModelTest
{
    private final HeuristicDecisionModel model = new HeuristicDecisionModel();

    @Test
    void shouldRunShortChainsWithoutAbortsBreadthFirstOperationByOperationLazily()
    {
        final BatchStatistics stats = MeasuredBatches.statistics(4096, 4096, 2, 0);
        assertEquals(1.0, stats.contendedChainLength());
        assertEquals("bfs/op/lazy", model.choose(stats).name());
        assertEquals("short-chains/rare-aborts", model.lastReason());
    }

    @Test
    void shouldTurnEagerAboveTheAbortThreshold()
    {
        final BatchStatistics below = MeasuredBatches.statistics(4096, 4096, 2, HeuristicDecisionModel.LAZY_MAX_ABORT_RATIO / 2);
        final BatchStatistics above = MeasuredBatches.statistics(4096, 4096, 2, HeuristicDecisionModel.LAZY_MAX_ABORT_RATIO * 4);
        assertEquals("bfs/op/lazy", model.choose(below).name());
        assertEquals("bfs/op/eager", model.choose(above).name());
        assertEquals("short-chains/aborts", model.lastReason());
    }

    @Test
    void shouldRunLongChainsAsDepthFirstGroupsOnSeveralExecutorsOnly()
    {
        final BatchStatistics severalExecutors = MeasuredBatches.statistics(4096, 4, 2, 0);
        final BatchStatistics oneExecutor = MeasuredBatches.statistics(4096, 4, 1, 0);
        assertTrue(severalExecutors.contendedChainLength() >= HeuristicDecisionModel.GROUP_MIN_CHAIN);
        assertEquals("dfs/group/lazy", model.choose(severalExecutors).name());
        assertEquals("bfs/op/lazy", model.choose(oneExecutor).name());
        assertEquals("dfs/group/eager", model.choose(MeasuredBatches.statistics(4096, 4, 2, 0.5)).name());
        assertEquals("long-chains/aborts", model.lastReason());
    }

    @Test
    void shouldKeepOperationUnitsJustBelowTheChainThreshold()
    {
        final BatchStatistics stats = MeasuredBatches.statistics(4096, 16, 2, 0);
        assertTrue(stats.contendedChainLength() < HeuristicDecisionModel.GROUP_MIN_CHAIN);
        assertEquals("bfs/op/lazy", model.choose(stats).name());
    }
}
