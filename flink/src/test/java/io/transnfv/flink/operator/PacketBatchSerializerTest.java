package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.LinkType;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

class PacketBatchSerializerTest
{
    private static final int PACKETS = 300;

    @Test
    void shouldGiveBackEveryPacketsFieldsAndFrameAfterTheNetwork() throws IOException
    {
        final PacketBatch batch = batch(new SplittableRandom(42));
        final DataOutputSerializer out = new DataOutputSerializer(64);
        PacketBatchSerializer.INSTANCE.serialize(batch, out);
        assertEquals(20 + batch.usedBytes(), out.length(), "four fields and one block, whatever the packets");

        final PacketBatch back = PacketBatchSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));

        assertSameBatch(batch, back);
        assertSameBatch(batch, PacketBatchSerializer.INSTANCE.copy(batch));
    }

    @Test
    void shouldCopyASerializedBatchByteForByte() throws IOException
    {
        final PacketBatch batch = batch(new SplittableRandom(7));
        final DataOutputSerializer once = new DataOutputSerializer(64);
        PacketBatchSerializer.INSTANCE.serialize(batch, once);
        final DataOutputSerializer copied = new DataOutputSerializer(64);
        PacketBatchSerializer.INSTANCE.copy(new DataInputDeserializer(once.getSharedBuffer(), 0, once.length()), copied);

        assertArrayEquals(once.getCopyOfBuffer(), copied.getCopyOfBuffer());
    }

    @Test
    void shouldNeverOverwriteABatchTheEngineMayStillHold() throws IOException
    {
        final PacketBatch held = batch(new SplittableRandom(3));
        final PacketBatch next = batch(new SplittableRandom(4));
        final DataOutputSerializer out = new DataOutputSerializer(64);
        PacketBatchSerializer.INSTANCE.serialize(next, out);
        final byte[] before = Arrays.copyOf(held.data(), held.usedBytes());

        final PacketBatch read = PacketBatchSerializer.INSTANCE.deserialize(held, new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));

        assertNotSame(held, read);
        assertArrayEquals(before, Arrays.copyOf(held.data(), held.usedBytes()));
        assertSameBatch(next, read);
    }

    /** A batch of packets of random lengths (empty frames and frames past the first guess of room included). */
    private static PacketBatch batch(final SplittableRandom random)
    {
        final PacketBatch batch = new PacketBatch(1, 77, 256);
        final PacketBuffer buffer = new PacketBuffer(PacketBuffer.MIN_CAPACITY);
        for (int i = 0; i < PACKETS; i++)
        {
            final int length = i == 5 ? 0 : random.nextInt(1, 1_600);
            for (int b = 0; b < length; b++)
            {
                buffer.data()[b] = (byte)random.nextInt(256);
            }
            buffer.commit(length, length + random.nextInt(0, 60), random.nextLong(1L << 50), 1_000 + 3L * i);
            buffer.linkType(i % 3 == 0 ? LinkType.ETHERNET : LinkType.LINUX_SLL);
            batch.add(buffer);
        }
        return batch;
    }

    private static void assertSameBatch(final PacketBatch expected, final PacketBatch actual)
    {
        assertEquals(expected.subtask(), actual.subtask());
        assertEquals(expected.number(), actual.number());
        assertEquals(expected.count(), actual.count());
        assertEquals(expected.usedBytes(), actual.usedBytes());
        final PacketBuffer a = new PacketBuffer(PacketBuffer.MIN_CAPACITY);
        final PacketBuffer b = new PacketBuffer(PacketBuffer.MIN_CAPACITY);
        int at = 0;
        int bt = 0;
        for (int i = 0; i < expected.count(); i++)
        {
            at = expected.copyTo(at, a);
            bt = actual.copyTo(bt, b);
            assertEquals(a.sequence(), b.sequence(), "packet " + i);
            assertEquals(a.timestampNs(), b.timestampNs(), "packet " + i);
            assertEquals(a.originalLength(), b.originalLength(), "packet " + i);
            assertEquals(a.linkType(), b.linkType(), "packet " + i);
            assertArrayEquals(Arrays.copyOf(a.data(), a.length()), Arrays.copyOf(b.data(), b.length()), "packet " + i);
        }
        assertEquals(expected.usedBytes(), at);
        assertEquals(at, bt);
    }
}
