package io.transnfv.engine.ingress;

import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HeldFragmentsTest
{
    private static final long A = 0xAAAAL;
    private static final long B = 0xBBBBL;
    private static final long TIMEOUT_NS = 1_000L;

    @Test
    void shouldGiveADatagramsFragmentsBackInArrivalOrderAndKeepTheOthers()
    {
        final HeldFragments held = new HeldFragments(4, 2048);
        final PacketBuffer a1 = packet(1);
        final PacketBuffer b2 = packet(2);
        final PacketBuffer a3 = packet(3);
        final PacketBuffer spare1 = held.hold(A, a1, 10);
        held.hold(B, b2, 11);
        held.hold(A, a3, 12);
        assertNotSame(a1, spare1, "a held buffer is exchanged for a spare one");
        assertEquals(3, held.size());

        assertEquals(2, held.select(A));
        assertSame(a1, held.take(0, packet(90)));
        assertSame(a3, held.take(1, packet(91)));
        assertEquals(1, held.size(), "the other datagram's fragment stays");
        assertEquals(B, held.oldestDatagram());
        assertEquals(1, held.select(B));
        assertSame(b2, held.take(0, packet(92)));
        assertEquals(0, held.size());
    }

    @Test
    void shouldFindTheDatagramThatWaitedLongestOnlyOnceItWaitedMoreThanTheTimeout()
    {
        final HeldFragments held = new HeldFragments(4, 2048);
        assertEquals(HeldFragments.NONE_DUE, held.dueDatagram(1_000_000, TIMEOUT_NS), "nothing held");
        held.hold(B, packet(1), 100);
        held.hold(A, packet(2), 500);
        assertEquals(HeldFragments.NONE_DUE, held.dueDatagram(100 + TIMEOUT_NS, TIMEOUT_NS), "exactly the timeout is not more");
        assertEquals(B, held.dueDatagram(101 + TIMEOUT_NS, TIMEOUT_NS));
        held.select(B);
        held.take(0, packet(3));
        assertEquals(HeldFragments.NONE_DUE, held.dueDatagram(101 + TIMEOUT_NS, TIMEOUT_NS), "A was held later");
        assertEquals(A, held.dueDatagram(501 + TIMEOUT_NS, TIMEOUT_NS));
    }

    @Test
    void shouldCopyAFrameTheSourceOwnsAndGiveItsBufferBack()
    {
        final HeldFragments held = new HeldFragments(2, 2048);
        final ByteBuffer region = ByteBuffer.allocateDirect(64);
        region.put(5, (byte)0x42);
        final PacketBuffer attached = new PacketBuffer(2048);
        attached.attach(region, 5, 20, 20, 7L, 8L);
        assertSame(attached, held.hold(A, attached, 7L), "the source's memory is not kept");
        region.put(5, (byte)0);
        held.select(A);
        final PacketBuffer copy = held.take(0, packet(9));
        assertEquals(8L, copy.sequence());
        assertEquals(0x42, copy.memory().get(copy.offset()), "the copy was taken when the fragment was held");
    }

    @Test
    void shouldRefuseToHoldMoreThanItsCapacity()
    {
        final HeldFragments held = new HeldFragments(1, 2048);
        held.hold(A, packet(1), 1);
        assertThrows(IllegalStateException.class, () -> held.hold(B, packet(2), 2));
        assertThrows(IllegalStateException.class, () -> held.holdCopy(B, packet(3), 3));
    }

    private static PacketBuffer packet(final long sequence)
    {
        final PacketBuffer buffer = new PacketBuffer(2048);
        buffer.commit(60, 60, 1_000 + sequence, sequence);
        return buffer;
    }
}
