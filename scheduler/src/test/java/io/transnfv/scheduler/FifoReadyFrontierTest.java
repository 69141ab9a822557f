package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FifoReadyFrontierTest
{
    @Test
    void shouldHandOutUnitsInTheOrderTheyBecameReady()
    {
        final ReadyFrontier frontier = new BreadthFirstExploration().newFrontier(1);
        frontier.reset(4);
        frontier.offer(0, 3);
        frontier.offer(0, 1);
        frontier.offer(0, 2);
        assertEquals(3, frontier.poll(0));
        assertEquals(1, frontier.poll(0));
        assertEquals(2, frontier.poll(0));
        assertEquals(ReadyFrontier.EMPTY, frontier.poll(0));
        frontier.reset(2);
        assertEquals(ReadyFrontier.EMPTY, frontier.poll(0), "reset empties the frontier");
    }

    @Test
    void shouldHandOutEveryOfferedUnitExactlyOnceAcrossThreads() throws InterruptedException
    {
        final int units = 200_000;
        final ReadyFrontier frontier = new BreadthFirstExploration().newFrontier(4);
        frontier.reset(units);
        final BitSet[] seen = new BitSet[4];
        final Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++)
        {
            final int executor = i;
            seen[i] = new BitSet(units);
            threads[i] = new Thread(() ->
            {
                for (int u = executor; u < units; u += threads.length)
                {
                    frontier.offer(executor, u);
                    final int got = frontier.poll(executor);
                    if (got != ReadyFrontier.EMPTY)
                    {
                        seen[executor].set(got);
                    }
                }
                int got;
                while ((got = frontier.poll(executor)) != ReadyFrontier.EMPTY)
                {
                    seen[executor].set(got);
                }
            });
        }
        for (final Thread thread : threads)
        {
            thread.start();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        final BitSet all = new BitSet(units);
        for (final BitSet s : seen)
        {
            assertFalse(all.intersects(s), "a unit was handed out twice");
            all.or(s);
        }
        assertEquals(units, all.cardinality());
        assertTrue(all.get(units - 1));
    }
}
