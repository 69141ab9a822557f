package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import static io.transnfv.scheduler.HeuristicDecisionModel.GROUP_MIN_CHAIN;
import static io.transnfv.scheduler.HeuristicDecisionModel.LAZY_MAX_ABORT_RATIO;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The heuristic's rules at, just below and just above each of its thresholds. Every batch is
 * sized from the model's own constants, and its measured statistics are checked to land where
 * the test means them to, so a changed threshold moves the batches with it instead of leaving
 * the test asserting decisions about numbers the model no longer uses.
 */
class HeuristicDecisionModelTest
{
    /** Transactions per batch in the abort tests: each aborted one moves the ratio by 1 / this. */
    private static final int ABORT_BATCH = 10_000;
    /** Keys in the chain tests: every key's chain is as long as the contended chain. */
    private static final int CHAIN_KEYS = 2;

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
    void shouldStayLazyUpToTheAbortThresholdAndTurnEagerJustAboveIt()
    {
        final long atThreshold = abortsAtThreshold();
        assertEquals("bfs/op/lazy", chooseWithAborts(atThreshold - 1), "just below the abort threshold");
        assertEquals("short-chains/rare-aborts", model.lastReason());
        assertEquals("bfs/op/lazy", chooseWithAborts(atThreshold), "at the abort threshold");
        assertEquals("bfs/op/eager", chooseWithAborts(atThreshold + 1), "just above the abort threshold");
        assertEquals("short-chains/aborts", model.lastReason());
    }

    @Test
    void shouldGroupChainsFromTheChainThresholdOnOnSeveralExecutorsOnly()
    {
        final int atThreshold = chainAtThreshold();
        assertEquals("bfs/op/lazy", chooseWithChain(atThreshold - 1, 2, 0), "just below the chain threshold");
        assertEquals("short-chains/rare-aborts", model.lastReason());
        assertEquals("dfs/group/lazy", chooseWithChain(atThreshold, 2, 0), "at the chain threshold");
        assertEquals("long-chains/rare-aborts", model.lastReason());
        assertEquals("dfs/group/lazy", chooseWithChain(atThreshold + 1, 2, 0), "just above the chain threshold");
        assertEquals("bfs/op/lazy", chooseWithChain(atThreshold + 1, 1, 0), "one executor: nobody to hand a chain over to");
    }

    @Test
    void shouldTurnGroupsEagerJustAboveTheAbortThreshold()
    {
        final int chain = chainAtThreshold();
        final long aborts = Math.round(Math.floor(LAZY_MAX_ABORT_RATIO * chain * CHAIN_KEYS));
        assertEquals("dfs/group/lazy", chooseWithChain(chain, 2, aborts), "at or just below the abort threshold");
        assertEquals("dfs/group/eager", chooseWithChain(chain, 2, aborts + 1), "just above the abort threshold");
        assertEquals("long-chains/aborts", model.lastReason());
    }

    /** @return the aborts of {@link #ABORT_BATCH} transactions whose ratio is exactly the threshold. */
    private static long abortsAtThreshold()
    {
        final double exact = LAZY_MAX_ABORT_RATIO * ABORT_BATCH;
        final long aborts = Math.round(exact);
        assertEquals(exact, aborts, 1e-9, "the abort threshold is a whole number of aborts in " + ABORT_BATCH);
        return aborts;
    }

    /** @return the shortest whole contended chain the threshold counts as long. */
    private static int chainAtThreshold()
    {
        return (int)Math.ceil(GROUP_MIN_CHAIN);
    }

    private String chooseWithAborts(final long aborts)
    {
        final BatchStatistics stats = MeasuredBatches.statistics(ABORT_BATCH, ABORT_BATCH, 2, (double)aborts / ABORT_BATCH);
        assertEquals((double)aborts / ABORT_BATCH, stats.recentAbortRatio(), "the batch measures the ratio meant");
        return model.choose(stats).name();
    }

    private String chooseWithChain(final int chain, final int threads, final long aborts)
    {
        final int transactions = chain * CHAIN_KEYS;
        final BatchStatistics stats = MeasuredBatches.statistics(transactions, CHAIN_KEYS, threads, (double)aborts / transactions);
        assertEquals(chain, stats.contendedChainLength(), "the batch measures the chain meant");
        assertEquals((double)aborts / transactions, stats.recentAbortRatio(), "the batch measures the ratio meant");
        return model.choose(stats).name();
    }
}
