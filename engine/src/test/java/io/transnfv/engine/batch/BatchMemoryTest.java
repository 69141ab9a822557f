package io.transnfv.engine.batch;

import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchMemoryTest
{
    private static final long MIB = 1L << 20;

    @Test
    void shouldRejectBatchesOf65536WithSixteenKibBuffersOnAOneGibHeapShowingTheArithmetic()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> BatchMemory.check(65_536, 64, 16_384, 1024 * MIB));
        final String message = e.getMessage();
        // (3 x (65,536 + 64) + 64 + 1) = 196,865 buffers x 16,384 bytes = 3,076.02 MiB
        assertTrue(message.startsWith("batches of 65,536 transactions need 3,077 MiB of packet buffers: 3 frames x "
            + "(65,536 packets + 64 held fragments) + 64 fragment spares + 1 carry = 196,865 buffers of 16,384 bytes; "
            + "the heap's limit is 1,024 MiB"), message);
        // 512 MiB / 16 KiB = 32,768 buffers: (32,768 - 65) / 3 - 64 = 10,837
        assertTrue(message.contains("fix: lower the batch size (--batch, settings.punctuation.transactions) to at most "
            + "10,837, or raise the heap to at least 6,153 MiB"), message);
    }

    @Test
    void shouldAcceptTheDefaultBatchOnASmallHeap()
    {
        assertDoesNotThrow(() -> BatchMemory.check(256, 64, 16_384, 64 * MIB));
    }

    @Test
    void shouldNameTheLargestBatchThatFitsExactly()
    {
        final SplittableRandom random = new SplittableRandom(14);
        for (int i = 0; i < 200; i++)
        {
            final int held = random.nextInt(1024);
            final int buffer = BatchMemory.bufferBytes(1 + random.nextInt(65_536));
            final long heap = (16 + random.nextLong(16_384)) * MIB;
            final int largest = BatchMemory.largestBatch(held, buffer, heap);
            if (largest > 0)
            {
                assertDoesNotThrow(() -> BatchMemory.check(largest, held, buffer, heap));
            }
            if (largest < Integer.MAX_VALUE)
            {
                assertThrows(IllegalArgumentException.class, () -> BatchMemory.check(largest + 1, held, buffer, heap),
                    "held " + held + ", buffer " + buffer + ", heap " + heap);
            }
        }
    }

    @Test
    void shouldSizeBuffersAsAPowerOfTwoHoldingTheLongestFrame()
    {
        assertEquals(PacketBuffer.MIN_CAPACITY, BatchMemory.bufferBytes(1500));
        assertEquals(2048, BatchMemory.bufferBytes(2048));
        assertEquals(4096, BatchMemory.bufferBytes(2049));
        assertEquals(16_384, BatchMemory.bufferBytes(9216));
    }
}
