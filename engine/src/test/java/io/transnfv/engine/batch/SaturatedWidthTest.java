package io.transnfv.engine.batch;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SaturatedWidthTest
{
    private static final int PACKETS = 256;

    /** A clock the test moves: each batch takes the time its width costs per packet. */
    private long nowNs;

    @Test
    void shouldEngageOneWorkerWhenItMeasuresFasterByMoreThanTheMarginAndMeasureAgainAfterTheHold()
    {
        final SaturatedWidth width = new SaturatedWidth(2, 4, 3, 100, 0.05);
        // one worker at 700 ns/packet, two at 900: one is faster by 22 %
        assertEquals(1, probe(width, 700, 900), "one worker chosen after both were measured");
        assertEquals(1, width.probes());
        assertEquals(1, width.choseOne());
        for (int i = 0; i < 99; i++)
        {
            assertEquals(1, width.onSaturated(advance(1, 700, 900), PACKETS), "held at one worker");
        }
        assertEquals(2, width.onSaturated(advance(1, 700, 900), PACKETS), "the hold is over: measuring again, all workers first");
        // now two workers pay: 500 against 800
        assertEquals(2, probe(width, 800, 500));
        assertEquals(2, width.probes());
        assertEquals(1, width.choseOne());
    }

    @Test
    void shouldKeepEveryWorkerWhenOneIsFasterByLessThanTheMargin()
    {
        final SaturatedWidth width = new SaturatedWidth(2, 4, 3, 100, 0.05);
        assertEquals(2, probe(width, 970, 1000), "3 % faster on one worker is within the margin");
        assertEquals(0, width.choseOne());
    }

    @Test
    void shouldTakeTheMedianOfTheRoundsSoThatOneDisturbedWindowDoesNotDecide()
    {
        final SaturatedWidth width = new SaturatedWidth(2, 4, 3, 100, 0.05);
        int engaged = 2;
        // windows alternate all, one, all, one, all, one; the second window on all workers is
        // disturbed (5,000 ns/packet), the medians still say all: 600 against 700
        final long[] allNs = {600, 5_000, 600};
        for (int w = 0; w < 6; w++)
        {
            final boolean onAll = (w & 1) == 0;
            assertEquals(onAll ? 2 : 1, engaged, "window " + w);
            for (int b = 0; b <= 4; b++)
            {
                nowNs += PACKETS * (onAll ? allNs[w / 2] : 700);
                engaged = width.onSaturated(nowNs, PACKETS);
            }
        }
        assertEquals(2, engaged);
        assertEquals(1, width.probes());
    }

    @Test
    void shouldStartMeasuringAfreshWhenTheLoadFellAndOneWorkerNeedsNoChoice()
    {
        final SaturatedWidth width = new SaturatedWidth(2, 4, 1, 100, 0.05);
        assertEquals(1, probe(width, 500, 900));
        width.onUnsaturated();
        assertEquals(2, width.onSaturated(advance(1, 500, 900), PACKETS), "saturated again: all workers while measuring");

        final SaturatedWidth single = new SaturatedWidth(1, 4, 1, 100, 0.05);
        for (int i = 0; i < 50; i++)
        {
            assertEquals(1, single.onSaturated(i * 1000L, PACKETS));
        }
        assertEquals(0, single.probes());
        assertThrows(IllegalArgumentException.class, () -> new SaturatedWidth(2, 0, 1, 1, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new SaturatedWidth(2, 1, 1, 1, 1.0));
    }

    @Test
    void shouldNarrowTheEngagementWhileSaturatedAndReportIt()
    {
        final Engagement engagement = new Engagement(2, true, 64, 2, new SaturatedWidth(2, 2, 1, 1_000, 0.05));
        int engaged = 2;
        for (int b = 0; b < 6; b++)
        {
            // each batch takes 300 µs on one worker, 500 on two
            nowNs += engaged == 1 ? 300_000 : 500_000;
            engaged = engagement.onClosed(Punctuation.SIZE, PACKETS, PACKETS, nowNs);
        }
        assertEquals(1, engaged, "one worker measured faster while batches closed full");
        assertEquals(1, engagement.report().saturatedChoseOne());
        assertEquals(1, engagement.report().saturatedProbes());
        assertEquals(1, engagement.report().narrowed(), "down to one worker for its measuring window, and kept there by the choice");
    }

    /** Runs one probe of the width's windows at the given costs and returns the width it chose. */
    private int probe(final SaturatedWidth width, final long oneNsPerPacket, final long allNsPerPacket)
    {
        int engaged = 2;
        final long probesBefore = width.probes();
        while (width.probes() == probesBefore)
        {
            engaged = width.onSaturated(advance(engaged, oneNsPerPacket, allNsPerPacket), PACKETS);
        }
        return engaged;
    }

    private long advance(final int engaged, final long oneNsPerPacket, final long allNsPerPacket)
    {
        nowNs += PACKETS * (engaged == 1 ? oneNsPerPacket : allNsPerPacket);
        return nowNs;
    }
}
