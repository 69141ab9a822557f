package io.transnfv.engine.ingress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void shouldNeverFireWhenDisabled()
    {
        final ExpiryTicker ticker = new ExpiryTicker(0);
        assertEquals(ExpiryTicker.NONE, ticker.due(1));
        assertEquals(ExpiryTicker.NONE, ticker.due(Long.MAX_VALUE));
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
