package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feedback model against a simulated machine: each policy has a true cost per operation,
 * every batch's measured cost is that times uniform noise of ±15 %, and one batch in a
 * hundred is a 5× outlier (a GC pause).
 */
class FeedbackDecisionModelTest
{
    private static final int OPS = 4096;
    private static final BatchStatistics NO_ABORTS = MeasuredBatches.statistics(OPS, OPS, 2, 0);
    private static final BatchStatistics ABORTS = MeasuredBatches.statistics(OPS, OPS, 2, 0.3);

    private final FeedbackDecisionModel model = new FeedbackDecisionModel(new HeuristicDecisionModel());
    private final SplittableRandom noise = new SplittableRandom(42);

    /** True costs: {@code best} at 100 ns/op, the others 110 to 220. */
    private static IntToDoubleFunction costs(final int best)
    {
        return p -> p == best ? 100 : 110 + 10 * ((p * 7 + best) % 12);
    }

    /** Runs {@code batches} batches; returns the mean true cost over the last {@code tail} and counts the best's choices there. */
    private double[] run(final BatchStatistics stats, final IntToDoubleFunction truth, final int batches, final int tail, final int best)
    {
        return run(stats, truth, b -> 1.0, batches, tail, best);
    }

    /** As above, with the machine's speed at batch {@code b} scaling every cost by {@code speed(b)}. */
    private double[] run(
        final BatchStatistics stats, final IntToDoubleFunction truth, final IntToDoubleFunction speed,
        final int batches, final int tail, final int best)
    {
        double tailCost = 0;
        int tailBest = 0;
        for (int b = 0; b < batches; b++)
        {
            final SchedulingPolicy p = model.choose(stats);
            final double cost = truth.applyAsDouble(p.index());
            final double measured = cost * speed.applyAsDouble(b) * (0.85 + 0.3 * noise.nextDouble()) * (noise.nextInt(100) == 0 ? 5 : 1);
            model.observe(stats, p, (long)(measured * OPS));
            if (b >= batches - tail)
            {
                tailCost += cost;
                tailBest += p.index() == best ? 1 : 0;
            }
        }
        return new double[] {tailCost / tail, (double)tailBest / tail};
    }

    @Test
    void shouldTryTheHeuristicsChoiceFirst()
    {
        final SchedulingPolicy first = model.choose(NO_ABORTS);
        assertEquals(new HeuristicDecisionModel().choose(NO_ABORTS), first);
        assertEquals("prior", model.lastReason());
    }

    @Test
    void shouldConvergeOnTheCheapestPolicyDespiteNoiseAndOutliers()
    {
        final int best = SchedulingPolicy.parse("random/group/eager").index();
        final double[] tail = run(NO_ABORTS, costs(best), 3000, 1000, best);
        assertTrue(tail[1] >= 0.8, "best chosen in " + tail[1] + " of the last 1000 batches, mean cost " + tail[0]);
        assertTrue(tail[0] <= 103, "mean true cost " + tail[0] + " ns/op against 100 for the best");
    }

    @Test
    void shouldNotMistakeTheMachineSlowingDownForAPolicyBeingSlow()
    {
        final int best = SchedulingPolicy.parse("dfs/group/eager").index();
        // other processes come and go: the machine's speed swings between 0.6 and 1.4 every few hundred batches
        final IntToDoubleFunction load = b -> 1 + 0.4 * Math.sin(b / 40.0);
        final double[] tail = run(NO_ABORTS, costs(best), load, 4000, 2000, best);
        assertTrue(tail[1] >= 0.8, "best chosen in " + tail[1] + " of the last 2000 batches");
        assertTrue(tail[0] <= 104, "mean true cost " + tail[0] + " ns/op against 100 for the best");
    }

    @Test
    void shouldRememberEachPhasesBestWhenTheWorkloadComesBack()
    {
        final int bestQuiet = SchedulingPolicy.parse("dfs/op/lazy").index();
        final int bestAborting = SchedulingPolicy.parse("bfs/group/eager").index();
        run(NO_ABORTS, costs(bestQuiet), 1000, 1, bestQuiet);
        run(ABORTS, costs(bestAborting), 1000, 1, bestAborting);
        assertEquals(bestQuiet, model.choose(NO_ABORTS).index(), "first batch back in the quiet phase");
        assertNotEquals("sweep", model.lastReason());
        model.observe(NO_ABORTS, SchedulingPolicy.ofIndex(bestQuiet), 100L * OPS);
        assertEquals(bestAborting, model.choose(ABORTS).index(), "first batch back in the aborting phase");
    }

    @Test
    void shouldFollowAPolicyThatBecameCheaperWithinOneContext()
    {
        final int before = SchedulingPolicy.parse("bfs/op/lazy").index();
        final int after = SchedulingPolicy.parse("dfs/group/lazy").index();
        run(NO_ABORTS, costs(before), 1500, 1, before);
        // the former best stays at 100; another policy drops from 200 to 70 ns/op
        final IntToDoubleFunction changed = p -> p == after ? 70 : p == before ? 100 : 200;
        final double[] tail = run(NO_ABORTS, changed, 1500, 500, after);
        assertTrue(tail[1] >= 0.85, "new best chosen in " + tail[1] + " of the last 500 batches");
    }

    @Test
    void shouldLeaveAPolicyThatBecameDearer()
    {
        final int before = SchedulingPolicy.parse("bfs/op/lazy").index();
        run(NO_ABORTS, costs(before), 1500, 1, before);
        // the incumbent triples; the runner-up (110) is now the best. To the incumbent's own
        // relative samples this looks like the machine slowing down: the explorations of the
        // others, cheaper against the new level, are what reveal it once they outnumber the old
        final int runnerUp = firstWithCost(costs(before), 110);
        final IntToDoubleFunction changed = p -> p == before ? 300 : costs(before).applyAsDouble(p);
        final double[] tail = run(NO_ABORTS, changed, 600, 200, runnerUp);
        assertTrue(tail[0] < 140, "mean true cost " + tail[0] + " over batches 400-600 after the change");
    }

    private static int firstWithCost(final IntToDoubleFunction truth, final double cost)
    {
        for (int p = 0; p < SchedulingPolicy.STATIC_COUNT; p++)
        {
            if (truth.applyAsDouble(p) == cost)
            {
                return p;
            }
        }
        throw new IllegalStateException("no policy costs " + cost);
    }
}
