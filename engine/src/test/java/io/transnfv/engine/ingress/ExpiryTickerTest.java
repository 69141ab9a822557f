package io.transnfv.engine.ingress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpiryTickerTest
{
    @Test
    void shouldFireOnceAtTheLastTickCrossedAndNeverOnTheFirstPacket()
    {
        final ExpiryTicker ticker = new ExpiryTicker(1_000);
        assertEquals(ExpiryTicker.NONE, ticker.due(2_500));
        assertEquals(ExpiryTicker.NONE, ticker.due(2_999));
        assertEquals(3_000, ticker.due(3_000));
        assertEquals(ExpiryTicker.NONE, ticker.due(3_999));
        assertEquals(7_000, ticker.due(7_400), "a gap fires once, at the latest tick");
        assertEquals(ExpiryTicker.NONE, ticker.due(7_999));
    }

    @Test
    void shouldSayWhichSpanOfPacketTimeEachTickCovers()
    {
        final ExpiryTicker ticker = new ExpiryTicker(1_000);
        ticker.due(2_500);
        assertEquals(3_000, ticker.due(3_100));
        assertEquals(2_000, ticker.sinceNs(), "the first tick covers from the multiple at or before the first packet");
        assertEquals(7_000, ticker.due(7_400));
        assertEquals(3_000, ticker.sinceNs(), "a gap's one tick covers every multiple crossed: (3000, 7000]");
        assertEquals(8_000, ticker.dueWithoutPacket(8_000));
        assertEquals(7_000, ticker.sinceNs());
    }

    @Test
    void shouldNeverFireWhenDisabled()
    {
        final ExpiryTicker ticker = new ExpiryTicker(0);
        assertEquals(ExpiryTicker.NONE, ticker.due(1));
        assertEquals(ExpiryTicker.NONE, ticker.due(Long.MAX_VALUE));
    }

    @Test
    void shouldPlaceCheckersBeforeTheFirstPacketAtOrAfterEachMultipleOfTheirPeriod()
    {
        final ExpiryTicker ticker = new ExpiryTicker(3_000);
        ticker.checkersEvery(2_000, 0);
        ticker.due(2_500);
        assertFalse(ticker.checkersDue(), "never before the first packet");
        assertEquals(3_000, ticker.due(3_999));
        assertFalse(ticker.checkersDue(), "housekeeping alone");
        assertEquals(ExpiryTicker.NONE, ticker.due(4_000), "no housekeeping tick at 4,000 ... ");
        assertTrue(ticker.checkersDue(), "... but a check");
        ticker.due(4_001);
        assertFalse(ticker.checkersDue());
        assertEquals(9_000, ticker.due(9_500), "a gap checks once, with the housekeeping");
        assertTrue(ticker.checkersDue());
        ticker.due(9_999);
        assertFalse(ticker.checkersDue());
    }

    @Test
    void shouldPlaceCheckersAfterEveryNPackets()
    {
        final ExpiryTicker ticker = new ExpiryTicker(0);
        ticker.checkersEvery(0, 3);
        final StringBuilder due = new StringBuilder();
        for (int packet = 0; packet < 10; packet++)
        {
            ticker.due(packet);
            due.append(ticker.checkersDue() ? 'c' : '.');
        }
        assertEquals("...c..c..c", due.toString(), "before packets 3, 6 and 9: after 3, 6 and 9 packets");
    }

    @Test
    void shouldNeverPlaceCheckersUnlessAsked()
    {
        final ExpiryTicker ticker = new ExpiryTicker(1_000, 2);
        for (long t = 0; t < 10_000; t += 100)
        {
            ticker.due(t);
            assertFalse(ticker.checkersDue());
        }
    }

    @Test
    void shouldPlaceEachGroupsCapacityChecksByItsOwnPacketsAlone()
    {
        final ExpiryTicker ticker = new ExpiryTicker(0, new long[] {3, 2});
        final int[] groups = {0, 1, 1, 0, ExpiryTicker.NO_GROUP, 0, 1, 1, 0, 0, 0};
        final StringBuilder due = new StringBuilder();
        for (int packet = 0; packet < groups.length; packet++)
        {
            final long tick = ticker.due(packet, groups[packet]);
            due.append(tick == ExpiryTicker.CHECK ? (char)('0' + ticker.checkGroup()) : '.');
            assertEquals(tick == ExpiryTicker.CHECK, ticker.checkGroup() != ExpiryTicker.NO_GROUP);
        }
        assertEquals("..1..0.1..0", due.toString(), "group 0 before its 3rd and 6th packets, group 1 before its 2nd and 4th;"
            + " a packet of no group counts for none");
    }

    @Test
    void shouldNameTheGroupsCheckThatFallsWithATick()
    {
        final ExpiryTicker ticker = new ExpiryTicker(1_000, new long[] {2, 2});
        assertEquals(ExpiryTicker.NONE, ticker.due(100, 1));
        assertEquals(1_000, ticker.due(1_000, 1), "the tick");
        assertEquals(1, ticker.checkGroup(), "and group 1's own check, before its 2nd packet");
        assertEquals(ExpiryTicker.NONE, ticker.due(1_100, 0));
        assertEquals(ExpiryTicker.NO_GROUP, ticker.checkGroup());
        assertEquals(2_000, ticker.dueWithoutPacket(2_000));
        assertEquals(ExpiryTicker.NO_GROUP, ticker.checkGroup(), "a tick without a packet carries no group's check");
    }

    @Test
    void shouldHoldPacketTimeNonDecreasing()
    {
        final PacketClock clock = new PacketClock();
        assertEquals(100, clock.onPacket(100));
        assertEquals(100, clock.onPacket(90));
        assertEquals(120, clock.onPacket(120));
    }
}
