package io.transnfv.engine.ingress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

class QuietClockTest
{
    private long wallNs = 5_000_000_000L;

    @Test
    void shouldAdvanceFromTheLastPacketWithTheWallTimeOnceQuietForAnInterval()
    {
        final QuietClock quiet = new QuietClock(true, 1_000, () -> wallNs);
        quiet.onPacket();
        assertEquals(QuietClock.NONE, quiet.onNothingYet(70_000), "the first empty poll starts the quiet");
        wallNs += 999;
        assertEquals(QuietClock.NONE, quiet.onNothingYet(70_000), "quiet for less than an interval");
        wallNs += 1;
        assertEquals(71_000, quiet.onNothingYet(70_000));
        wallNs += 2_500;
        assertEquals(73_500, quiet.onNothingYet(71_000), "measured from the last packet, not from the last advance");
    }

    @Test
    void shouldStartOverWhenAPacketArrives()
    {
        final QuietClock quiet = new QuietClock(true, 1_000, () -> wallNs);
        quiet.onNothingYet(10_000);
        wallNs += 5_000;
        assertEquals(15_000, quiet.onNothingYet(10_000));
        quiet.onPacket();
        assertEquals(QuietClock.NONE, quiet.onNothingYet(16_000));
        wallNs += 1_000;
        assertEquals(17_000, quiet.onNothingYet(16_000));
    }

    @Test
    void shouldNotAdvanceBeforeTheFirstPacket()
    {
        final QuietClock quiet = new QuietClock(true, 1_000, () -> wallNs);
        quiet.onNothingYet(Long.MIN_VALUE);
        wallNs += 10_000;
        assertEquals(QuietClock.NONE, quiet.onNothingYet(Long.MIN_VALUE));
    }

    @Test
    void shouldNeverReadTheWallClockForAReplayableSourceOrWithoutTicks()
    {
        final QuietClock replayable = new QuietClock(false, 1_000, () -> fail("a replayable source's time is its packets'"));
        final QuietClock noTicks = new QuietClock(true, 0, () -> fail("no interval, nothing to advance for"));
        assertFalse(replayable.live());
        assertFalse(noTicks.live());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(QuietClock.NONE, replayable.onNothingYet(1_000));
            assertEquals(QuietClock.NONE, noTicks.onNothingYet(1_000));
        }
    }
}
