package io.transnfv.engine.egress;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.checkpoint.CommittedOutput;
import io.transnfv.engine.checkpoint.CommittedTextFile;
import io.transnfv.engine.source.PacketBuffer;

/**
 * Writes frames to a classic pcap file: little-endian, nanosecond timestamps (magic
 * {@code 0xa1b23c4d}), link type Ethernet, snap length {@value #SNAP_LENGTH}.
 *
 * <p>Output is buffered and reaches the file when the buffer fills, on {@link #flush()}
 * and on {@link #close()}. Owned by one thread; allocates nothing per packet.
 * Timestamps are written as unsigned 32-bit seconds since the epoch plus nanoseconds, so
 * any time from 1970 to 2106 survives a round trip through {@code PcapSource} exactly.
 */
public final class PcapWriter implements Closeable, CommittedOutput
{
    /** Snap length written in the file header. */
    public static final int SNAP_LENGTH = 262_144;

    private static final int MAGIC_NANOS = 0xA1B23C4D;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int BUFFER_BYTES = 1024 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer out = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private long packets;

    private PcapWriter(final Path path, final FileChannel channel)
    {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Create (or truncate) a pcap file and write its header.
     *
     * @param path the file.
     * @return the writer.
     * @throws IOException naming the file if it cannot be created.
     */
    public static PcapWriter create(final Path path) throws IOException
    {
        final FileChannel channel = FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        final PcapWriter writer = new PcapWriter(path, channel);
        writer.out.putInt(MAGIC_NANOS).putShort((short)2).putShort((short)4).putInt(0).putInt(0)
            .putInt(SNAP_LENGTH).putInt(LINKTYPE_ETHERNET);
        return writer;
    }

    /**
     * Reopen a pcap file a checkpointed run was writing, cut back to what its checkpoint committed.
     *
     * @param path the file.
     * @param from the committed position ({@link #commit()} of the interrupted run).
     * @return the writer, appending after the committed frames.
     * @throws IOException naming the file if it cannot be opened or is shorter than committed.
     */
    public static PcapWriter resume(final Path path, final Checkpoint.Output from) throws IOException
    {
        final PcapWriter writer = new PcapWriter(path, CommittedTextFile.openCommitted(path, from));
        writer.packets = from.items();
        return writer;
    }

    /** Flushes and syncs the file: the frames written so far are committed (see {@link CommittedOutput}). */
    @Override
    public Checkpoint.Output commit() throws IOException
    {
        flush();
        channel.force(false);
        return new Checkpoint.Output("pcap", channel.position(), packets);
    }

    /**
     * Append one frame.
     *
     * @param buffer         bytes of the frame.
     * @param offset         index of its first byte.
     * @param length         captured bytes to write, at most {@value #SNAP_LENGTH}.
     * @param timestampNs    capture time in nanoseconds since the epoch.
     * @param originalLength length on the wire; raised to {@code length} if smaller.
     * @throws IOException if writing fails.
     */
    public void write(final byte[] buffer, final int offset, final int length, final long timestampNs, final int originalLength)
        throws IOException
    {
        recordHeader(length, timestampNs, originalLength);
        out.put(buffer, offset, length);
        packets++;
    }

    /**
     * Append one frame held in a buffer (heap or direct), read with absolute accesses.
     *
     * @param buffer         memory holding the frame; its position and limit are not used.
     * @param offset         index of its first byte.
     * @param length         captured bytes to write, at most {@value #SNAP_LENGTH}.
     * @param timestampNs    capture time in nanoseconds since the epoch.
     * @param originalLength length on the wire; raised to {@code length} if smaller.
     * @throws IOException if writing fails.
     */
    public void write(final ByteBuffer buffer, final int offset, final int length, final long timestampNs, final int originalLength)
        throws IOException
    {
        recordHeader(length, timestampNs, originalLength);
        final int at = out.position();
        out.put(at, buffer, offset, length).position(at + length);
        packets++;
    }

    /**
     * Append the frame held in a packet buffer, owned or attached, with its timestamp and
     * original length.
     *
     * @param packet the frame.
     * @throws IOException if writing fails.
     */
    public void write(final PacketBuffer packet) throws IOException
    {
        if (packet.isAttached())
        {
            write(packet.memory(), packet.offset(), packet.length(), packet.timestampNs(), packet.originalLength());
        }
        else
        {
            write(packet.data(), 0, packet.length(), packet.timestampNs(), packet.originalLength());
        }
    }

    private void recordHeader(final int length, final long timestampNs, final int originalLength) throws IOException
    {
        if (length < 0 || length > SNAP_LENGTH)
        {
            throw new IllegalArgumentException("frame length " + length + " outside 0-" + SNAP_LENGTH);
        }
        if (out.remaining() < 16 + length)
        {
            flush();
        }
        out.putInt((int)Math.floorDiv(timestampNs, 1_000_000_000L))
            .putInt((int)Math.floorMod(timestampNs, 1_000_000_000L))
            .putInt(length)
            .putInt(Math.max(length, originalLength));
    }

    /** @return frames written so far. */
    public long packets()
    {
        return packets;
    }

    /** @return the file being written. */
    public Path path()
    {
        return path;
    }

    /**
     * Write buffered frames to the file.
     *
     * @throws IOException if writing fails.
     */
    public void flush() throws IOException
    {
        out.flip();
        while (out.hasRemaining())
        {
            channel.write(out);
        }
        out.clear();
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            flush();
        }
        finally
        {
            channel.close();
        }
    }
}
