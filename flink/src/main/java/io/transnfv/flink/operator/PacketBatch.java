package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The unit Flink moves between operators: the packets of one read batch bound for one subtask,
 * in arrival order, each packet's fields and frame back to back in one array, so that Flink
 * writes and reads a batch as a few integers and one block of bytes
 * ({@link PacketBatchSerializer}), with no object per packet:
 *
 * <pre>
 *  data[0 .. used):  packet 0                                                              packet 1 ...
 *                    sequence:long timeNs:long wireLength:int linkType:int length:int frame[length] | ...
 *                    └──────────────────────── HEADER_BYTES ─────────────────────┘
 * </pre>
 *
 * A packet is addressed by its <em>position</em>, where its fields start: the first is at 0, the
 * next at {@link #next}. Filled on the reader's thread, then only read (on the engine operator's
 * task thread and the engine's IO thread); never changed once emitted.
 */
public final class PacketBatch
{
    /** Bytes of a packet's fields before its frame. */
    static final int HEADER_BYTES = 28;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final int TIME = 8;
    private static final int WIRE_LENGTH = 16;
    private static final int LINK_TYPE = 20;
    private static final int LENGTH = 24;

    private final int subtask;
    private final long number;
    private int count;
    private byte[] data;
    private int used;

    /**
     * @param subtask       the subtask the packets are for.
     * @param number        the read batch's number.
     * @param capacityBytes bytes to make room for (it grows).
     */
    public PacketBatch(final int subtask, final long number, final int capacityBytes)
    {
        this(subtask, number, 0, new byte[Math.max(HEADER_BYTES, capacityBytes)], 0);
    }

    /** A batch as read back: {@code count} packets in {@code data[0 .. used)}, which it keeps. */
    PacketBatch(final int subtask, final long number, final int count, final byte[] data, final int used)
    {
        this.subtask = subtask;
        this.number = number;
        this.count = count;
        this.data = data;
        this.used = used;
    }

    /** @return the subtask the packets are routed to. */
    public int subtask()
    {
        return subtask;
    }

    /** @return the read batch they came from, 0, 1, 2, ... */
    public long number()
    {
        return number;
    }

    /** @return packets held. */
    public int count()
    {
        return count;
    }

    /** @return bytes used in {@link #data()}: every packet's fields and frame. */
    public int usedBytes()
    {
        return used;
    }

    /** @return the packets, as drawn above; bytes past {@link #usedBytes()} mean nothing. */
    byte[] data()
    {
        return data;
    }

    /** Appends {@code buffer}'s frame with its fields (its run-wide sequence number kept, so records name the packet as a standalone run does). */
    public void add(final PacketBuffer buffer)
    {
        final int length = buffer.length();
        final int at = used;
        if (at + HEADER_BYTES + length > data.length)
        {
            data = Arrays.copyOf(data, Math.max(data.length * 2, at + HEADER_BYTES + length));
        }
        final byte[] d = data;
        LONGS.set(d, at, buffer.sequence());
        LONGS.set(d, at + TIME, buffer.timestampNs());
        INTS.set(d, at + WIRE_LENGTH, buffer.originalLength());
        INTS.set(d, at + LINK_TYPE, buffer.linkType());
        INTS.set(d, at + LENGTH, length);
        buffer.copyTo(d, at + HEADER_BYTES, length);
        used = at + HEADER_BYTES + length;
        count++;
    }

    /** @return the position of the packet after the one at {@code position}. */
    public int next(final int position)
    {
        return position + HEADER_BYTES + length(position);
    }

    /** @return the run-wide arrival index of the packet at {@code position}. */
    public long sequence(final int position)
    {
        return (long)LONGS.get(data, position);
    }

    /** @return the capture time of the packet at {@code position}. */
    public long timestampNs(final int position)
    {
        return (long)LONGS.get(data, position + TIME);
    }

    /** @return the bytes on the wire of the packet at {@code position}. */
    public int originalLength(final int position)
    {
        return (int)INTS.get(data, position + WIRE_LENGTH);
    }

    /** @return the link type of the packet at {@code position}. */
    public int linkType(final int position)
    {
        return (int)INTS.get(data, position + LINK_TYPE);
    }

    /** @return the captured bytes of the packet at {@code position}. */
    public int length(final int position)
    {
        return (int)INTS.get(data, position + LENGTH);
    }

    /** @return where in {@link #data()} the frame of the packet at {@code position} starts. */
    int frameOffset(final int position)
    {
        return position + HEADER_BYTES;
    }

    /**
     * Copies the packet at {@code position} into {@code dst}, as a source fills a buffer.
     *
     * @return the position of the next packet.
     */
    public int copyTo(final int position, final PacketBuffer dst)
    {
        final int captured = length(position);
        final int length = Math.min(captured, dst.capacity());
        System.arraycopy(data, position + HEADER_BYTES, dst.data(), 0, length);
        dst.commit(length, originalLength(position), timestampNs(position), sequence(position));
        dst.linkType(linkType(position));
        return position + HEADER_BYTES + captured;
    }
}
