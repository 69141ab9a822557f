package io.transnfv.engine.source;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketBufferTest
{
    @Test
    void shouldHoldACopiedFrameInItsOwnArray()
    {
        final PacketBuffer buffer = new PacketBuffer();
        buffer.data()[0] = 7;
        buffer.data()[59] = 9;

        buffer.commit(60, 64, 123L, 5L);

        assertFalse(buffer.isAttached());
        assertEquals(0, buffer.offset());
        assertEquals(7, buffer.memory().get(0));
        assertEquals(9, buffer.memory().get(59));
        assertEquals(ByteOrder.BIG_ENDIAN, buffer.memory().order());
        assertEquals(64, buffer.originalLength());
    }

    @Test
    void shouldViewAnAttachedRegionWithoutCopyingItAndLeaveItWhenCommitted()
    {
        final ByteBuffer region = ByteBuffer.allocateDirect(4096);
        for (int i = 0; i < 100; i++)
        {
            region.put(1000 + i, (byte)i);
        }
        final PacketBuffer buffer = new PacketBuffer();

        buffer.attach(region, 1000, 100, 90, 42L, 3L);

        assertTrue(buffer.isAttached());
        assertSame(region, buffer.memory());
        assertEquals(1000, buffer.offset());
        assertEquals(100, buffer.length());
        assertEquals(100, buffer.originalLength(), "raised to the captured length");
        assertEquals(42L, buffer.timestampNs());
        assertEquals(3L, buffer.sequence());
        region.put(1050, (byte)-1);
        final byte[] copy = new byte[102];
        buffer.copyTo(copy, 2, 100);
        assertEquals(49, copy[2 + 49]);
        assertEquals(-1, copy[2 + 50], "a view: later writes to the region show");

        buffer.commit(10, 10, 43L, 4L);
        assertFalse(buffer.isAttached());
        assertEquals(0, buffer.offset());
        assertSame(buffer.data(), buffer.memory().array(), "back to its own array");
    }

    @Test
    void shouldRefuseRegionsAndCopiesOutsideTheFrame()
    {
        final PacketBuffer buffer = new PacketBuffer(PacketBuffer.MIN_CAPACITY);
        final ByteBuffer region = ByteBuffer.allocateDirect(4096).limit(2000);

        assertThrows(IndexOutOfBoundsException.class, () -> buffer.attach(region, 1990, 20, 20, 0L, 0L));
        assertThrows(IllegalArgumentException.class,
            () -> buffer.attach(ByteBuffer.allocateDirect(8192), 0, PacketBuffer.MIN_CAPACITY + 1, 0, 0L, 0L));
        buffer.attach(region, 1980, 20, 20, 0L, 0L);
        assertThrows(IndexOutOfBoundsException.class, () -> buffer.copyTo(new byte[64], 0, 21));
    }
}
