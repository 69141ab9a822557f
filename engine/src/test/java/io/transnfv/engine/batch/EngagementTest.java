package io.transnfv.engine.batch;

import io.transnfv.engine.report.SchedulerReport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EngagementTest
{
    private static final int DRY = Punctuation.IDLE_INPUT;

    @Test
    void shouldNarrowAfterARunOfOneOrTwoPacketBatchesAndWidenAtAQuarterOfTheLimit()
    {
        final Engagement engagement = new Engagement(4, true, 3, 2);
        assertEquals(4, engagement.engaged(), "every worker engaged at the start");
        assertEquals(4, engagement.onClosed(DRY, 1, 256));
        assertEquals(4, engagement.onClosed(DRY, 2, 256));
        assertEquals(1, engagement.onClosed(DRY, 1, 256), "the third small batch in a row");
        assertEquals(1, engagement.onClosed(DRY, 63, 256), "below a quarter of the limit: one worker still");
        assertEquals(4, engagement.onClosed(DRY, 64, 256), "a quarter of the limit: packets are waiting, every worker at once");
        assertEquals(4, engagement.onClosed(DRY, 1, 256));
        assertEquals(4, engagement.onClosed(DRY, 1, 256));
        assertEquals(4, engagement.onClosed(DRY, 3, 256), "three packets: not small, the count starts again");
        assertEquals(4, engagement.onClosed(DRY, 1, 256));
        assertEquals(4, engagement.onClosed(DRY, 1, 256));
        assertEquals(1, engagement.onClosed(DRY, 1, 256));

        final SchedulerReport.EngagementReport report = engagement.report();
        assertEquals(4, report.workers());
        assertEquals(1, report.widened());
        assertEquals(2, report.narrowed());
        assertEquals(2.0 / 11, report.shareOnOne(), 1e-9, "batches closed while one worker was engaged");
    }

    @Test
    void shouldWidenWhenABatchClosedFullOrEarlyForIdleWorkersWhileTheInputHadMore()
    {
        final Engagement engagement = new Engagement(2, true, 1, 2);
        assertEquals(1, engagement.onClosed(DRY, 1, 256));
        assertEquals(1, engagement.onClosed(Punctuation.AGE, 2, 256), "closed by age: packets trickle in");
        assertEquals(2, engagement.onClosed(Punctuation.ENGINE_IDLE, 16, 256), "the input was not dry");
        assertEquals(1, engagement.onClosed(Punctuation.INTERVAL, 1, 256), "a packet-time close says nothing of waiting packets");
        assertEquals(2, engagement.onClosed(Punctuation.SIZE, 8, 8), "full at an adaptive limit of 8");
    }

    @Test
    void shouldKeepEveryWorkerWhenNotAdaptiveOrWithOneWorker()
    {
        final Engagement fixed = new Engagement(2, false, 1, 2);
        for (int i = 0; i < 10; i++)
        {
            assertEquals(2, fixed.onClosed(DRY, 1, 256));
        }
        assertFalse(fixed.report().adaptive());
        assertEquals(0, fixed.report().narrowed());

        final Engagement single = new Engagement(1, true, 1, 2);
        assertEquals(1, single.onClosed(DRY, 1, 256));
        assertFalse(single.report().adaptive(), "nothing to adapt with one worker");
    }

    @Test
    void shouldRejectNonsense()
    {
        assertThrows(IllegalArgumentException.class, () -> new Engagement(0, true, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new Engagement(2, true, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> new Engagement(2, true, 1, 0));
    }
}
