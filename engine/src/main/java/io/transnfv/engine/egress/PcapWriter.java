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
import io.transnfv.vnf.packet.LinkType;

/**
 * Writes frames to a classic pcap file: little-endian, nanosecond timestamps (magic
 * {@code 0xa1b23c4d}), snap length {@value #SNAP_LENGTH}, and the link type of the frames:
 * the one given to {@link #create(Path, int)}, or else that of the first
 * {@link PacketBuffer} written (Ethernet if the file stays empty or gets raw bytes first),
 * so a Linux cooked or loopback capture comes out with its own link layer. A pcap file has
 * one link type: a frame of another fails with an {@link IOException}.
 *
 * <p>Each record keeps the frame's captured length and its original (wire) length, so a
 * frame read from a capture cut by a snap length is written cut the same way.
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
    private static final int UNSET = -1;
    private static final int BUFFER_BYTES = 1024 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer out = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private long packets;
    private int linkType;
    private int emptyLinkType = LinkType.ETHERNET;
    private boolean headerWritten;

    private PcapWriter(final Path path, final FileChannel channel, final int linkType)
    {
        this.path = path;
        this.channel = channel;
        this.linkType = linkType;
    }

    /**
     * Create (or truncate) a pcap file whose link type is that of the first packet buffer written.
     *
     * @param path the file.
     * @return the writer.
     * @throws IOException naming the file if it cannot be created.
     */
    public static PcapWriter create(final Path path) throws IOException
    {
        return open(path, UNSET);
    }

    /**
     * Create (or truncate) a pcap file of a given link type.
     *
     * @param path     the file.
     * @param linkType the link type of every frame ({@link LinkType}).
     * @return the writer.
     * @throws IOException naming the file if it cannot be created.
     * @throws IllegalArgumentException if the link type is not one the engine reads.
     */
    public static PcapWriter create(final Path path, final int linkType) throws IOException
    {
        if (!LinkType.isSupported(linkType))
        {
            throw new IllegalArgumentException("unsupported link type " + linkType);
        }
        return open(path, linkType);
    }

    private static PcapWriter open(final Path path, final int linkType) throws IOException
    {
        final FileChannel channel = FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        return new PcapWriter(path, channel, linkType);
    }

    /** @return the file's link type ({@link LinkType}), once a frame or flush has fixed it; else -1. */
    public int linkType()
    {
        return linkType;
    }

    /**
     * Sets the link type the file header names if no frame fixes it first (a run that forwards
     * nothing still writes its capture's link type back); Ethernet otherwise.
     *
     * @param value a supported link type, or -1 for Ethernet.
     */
    public void linkTypeIfEmpty(final int value)
    {
        emptyLinkType = LinkType.isSupported(value) ? value : LinkType.ETHERNET;
    }

    private void writeHeader()
    {
        if (linkType == UNSET)
        {
            linkType = emptyLinkType;
        }
        out.putInt(MAGIC_NANOS).putShort((short)2).putShort((short)4).putInt(0).putInt(0)
            .putInt(SNAP_LENGTH).putInt(linkType);
        headerWritten = true;
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
        int committedLinkType = UNSET;
        if (from.bytes() > 0)
        {
            // the committed part starts with the file header: go on in its link type
            final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ))
            {
                while (header.hasRemaining() && in.read(header) > 0)
                {
                    // read the whole header
                }
            }
            if (header.hasRemaining() || header.getInt(0) != MAGIC_NANOS)
            {
                throw new IOException(path + ": not the pcap file this writer wrote (no header of its own in the committed part)"
                    + "\nfix: resume with the --out file the checkpointed run was writing");
            }
            committedLinkType = header.getInt(20);
        }
        final PcapWriter writer = new PcapWriter(path, CommittedTextFile.openCommitted(path, from), committedLinkType);
        writer.packets = from.items();
        writer.headerWritten = committedLinkType != UNSET;
        return writer;
    }

    /** Flushes and syncs the file: the frames written so far are committed (see {@link CommittedOutput}). */
    @Override
    public Checkpoint.Output commit() throws IOException
    {
        if (!headerWritten)
        {
            // nothing forwarded yet: the header waits for the first frame's link type
            return new Checkpoint.Output("pcap", 0, 0);
        }
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
        final int frameLinkType = packet.linkType();
        if (linkType == UNSET)
        {
            linkType = frameLinkType;
        }
        else if (frameLinkType != linkType)
        {
            throw new MixedLinkTypes(packet.sequence(), frameLinkType, linkType);
        }
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
        if (!headerWritten)
        {
            writeHeader();
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
        if (!headerWritten)
        {
            writeHeader();
        }
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

    /**
     * A frame whose link type differs from the file's: a pcap file holds one link type (a pcapng
     * capture with interfaces of several types cannot be written back as one pcap file). The
     * message says what happened, without the file, which the caller names; {@link #fix()} says
     * what to do.
     */
    public static final class MixedLinkTypes extends IOException
    {
        private static final long serialVersionUID = 1L;

        MixedLinkTypes(final long sequence, final int frameLinkType, final int fileLinkType)
        {
            super("frame " + sequence + " has link type " + frameLinkType + " (" + LinkType.name(frameLinkType)
                + ") but the file holds link type " + fileLinkType + " (" + LinkType.name(fileLinkType) + "), and a pcap file has one");
        }

        /** @return what the user can do. */
        public String fix()
        {
            return "write each interface's packets to a file of their own (e.g. tshark -Y 'frame.interface_id == 0' -w part.pcap)"
                + " and run them one by one, or run without --out (the records keep every packet)";
        }
    }
}
