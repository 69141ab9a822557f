package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;

import java.util.Arrays;

/**
 * The unit Flink moves between operators: the packets of one read batch bound for one subtask,
 * in arrival order, frames back to back in one array. A Flink POJO (public fields, no-argument
 * constructor) so that Flink serializes it field by field; filled on the reader's thread, read
 * on the engine's.
 */
public final class PacketBatch
{
    /** The subtask the packets are routed to. */
    public int subtask;
    /** The read batch they came from, 0, 1, 2, ... */
    public long number;
    /** Packets held. */
    public int count;
    /** The frames, back to back. */
    public byte[] frames;
    /** Per packet: where its frame starts in {@link #frames}. */
    public int[] offsets;
    /** Per packet: captured bytes. */
    public int[] lengths;
    /** Per packet: bytes on the wire. */
    public int[] originalLengths;
    /** Per packet: link type of the frame. */
    public int[] linkTypes;
    /** Per packet: capture time. */
    public long[] timestampsNs;
    /** Per packet: its arrival index in the whole run (kept, so records name the packet as a standalone run does). */
    public long[] sequences;

    /** For Flink's serializer. */
    public PacketBatch()
    {
        this(0, 0, 16);
    }

    /**
     * @param subtask  the subtask the packets are for.
     * @param number   the read batch's number.
     * @param capacity packets to make room for (it grows).
     */
    public PacketBatch(final int subtask, final long number, final int capacity)
    {
        this.subtask = subtask;
        this.number = number;
        final int n = Math.max(1, capacity);
        frames = new byte[n * 128];
        offsets = new int[n];
        lengths = new int[n];
        originalLengths = new int[n];
        linkTypes = new int[n];
        timestampsNs = new long[n];
        sequences = new long[n];
    }

    /** Appends {@code buffer}'s frame. */
    public void add(final PacketBuffer buffer)
    {
        if (count == offsets.length)
        {
            final int n = count * 2;
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
            originalLengths = Arrays.copyOf(originalLengths, n);
            linkTypes = Arrays.copyOf(linkTypes, n);
            timestampsNs = Arrays.copyOf(timestampsNs, n);
            sequences = Arrays.copyOf(sequences, n);
        }
        final int at = count == 0 ? 0 : offsets[count - 1] + lengths[count - 1];
        final int length = buffer.length();
        if (at + length > frames.length)
        {
            frames = Arrays.copyOf(frames, Math.max(frames.length * 2, at + length));
        }
        buffer.copyTo(frames, at, length);
        offsets[count] = at;
        lengths[count] = length;
        originalLengths[count] = buffer.originalLength();
        linkTypes[count] = buffer.linkType();
        timestampsNs[count] = buffer.timestampNs();
        sequences[count] = buffer.sequence();
        count++;
    }

    /** Copies packet {@code i} into {@code dst}, as a source fills a buffer. */
    public void copyTo(final int i, final PacketBuffer dst)
    {
        final int length = Math.min(lengths[i], dst.capacity());
        System.arraycopy(frames, offsets[i], dst.data(), 0, length);
        dst.commit(length, originalLengths[i], timestampsNs[i], sequences[i]);
        dst.linkType(linkTypes[i]);
    }
}
