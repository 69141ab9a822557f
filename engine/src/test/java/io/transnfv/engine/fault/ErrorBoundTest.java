package io.transnfv.engine.fault;

import io.transnfv.engine.chain.FaultSettings;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ErrorBoundTest
{
    private static final long WINDOW_NS = 1_000_000_000L;

    @Test
    void shouldNotJudgeAWindowBeforeItHoldsEnoughPackets()
    {
        final ErrorBound bound = new ErrorBound(new FaultSettings(0.01, WINDOW_NS, 0));
        for (int i = 0; i < FaultSettings.MIN_WINDOW_PACKETS - 1; i++)
        {
            assertFalse(bound.onPacket(i, i < 5));
        }
        assertTrue(bound.onPacket(FaultSettings.MIN_WINDOW_PACKETS, true), "6 of 100 is over 1 %");
        assertTrue(bound.exceeded().contains("6 of 100 packets (6.00 %)"), bound.exceeded());
        assertTrue(bound.exceeded().contains("above the error bound of 1 %"), bound.exceeded());
    }

    @Test
    void shouldStartEveryWindowAfresh()
    {
        final ErrorBound bound = new ErrorBound(new FaultSettings(0.05, WINDOW_NS, 0));
        // 4 % in the first window, then 4 % in the next: never over 5 %, although 8 % of 1 s would be
        long timeNs = 0;
        for (int window = 0; window < 2; window++)
        {
            for (int i = 0; i < 100; i++)
            {
                assertFalse(bound.onPacket(timeNs, i % 25 == 0));
                timeNs += WINDOW_NS / 100;
            }
        }
        assertNull(bound.exceeded());
    }

    @Test
    void shouldNeverStopWithABoundOfOneHundredPercent()
    {
        final ErrorBound bound = new ErrorBound(new FaultSettings(1.0, WINDOW_NS, 0));
        for (int i = 0; i < 10_000; i++)
        {
            assertFalse(bound.onPacket(i, true));
        }
    }

    @Test
    void shouldCrossTheBoundOnceAndExactlyWhenTheShareFirstExceedsIt()
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final double share = 0.001 + random.nextDouble() * 0.2;
            final double faultRate = random.nextDouble() * 0.3;
            final ErrorBound bound = new ErrorBound(new FaultSettings(share, WINDOW_NS, 0));
            long packets = 0;
            long faulted = 0;
            long crossedAt = -1;
            int crossings = 0;
            for (int i = 0; i < 2_000; i++)
            {
                final boolean fault = random.nextDouble() < faultRate;
                packets++;
                faulted += fault ? 1 : 0;
                if (bound.onPacket(i, fault))
                {
                    crossings++;
                    crossedAt = i;
                }
                if (crossedAt < 0)
                {
                    final boolean over = packets >= FaultSettings.MIN_WINDOW_PACKETS && faulted > share * packets;
                    assertFalse(over && fault, "seed " + seed + ": should have crossed at packet " + i);
                }
            }
            assertTrue(crossings <= 1, "seed " + seed + " crossed " + crossings + " times");
            assertEquals(crossings == 1, bound.exceeded() != null, "seed " + seed);
        }
    }
}
