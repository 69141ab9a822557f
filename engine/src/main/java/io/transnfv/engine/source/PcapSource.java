package io.transnfv.engine.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import io.transnfv.vnf.packet.LinkType;

/**
 * A pure-Java reader for classic pcap and pcapng capture files, streamed through a
 * fixed read buffer so files larger than memory are fine.
 *
 * <p>Formats, detected by the magic number, not the file name:
 * <ul>
 *   <li>classic pcap in both byte orders, microsecond ({@code 0xa1b2c3d4}) and
 *       nanosecond ({@code 0xa1b23c4d}) timestamps;</li>
 *   <li>pcapng: section header blocks in either byte order (several sections per file),
 *       interface description blocks with {@code if_tsresol} and {@code if_tsoffset},
 *       enhanced, simple and (obsolete) packet blocks; other blocks are skipped and
 *       counted in {@link SourceStats#skippedBlocks()}.</li>
 * </ul>
 *
 * <p>Link types: Ethernet (1), BSD loopback (0, NULL), OpenBSD loopback (108, LOOP),
 * Linux cooked capture (113, SLL: what {@code tcpdump -i any} writes) and its v2 (276,
 * SLL2) frames are delivered as captured, with the {@link PacketBuffer#linkType()} of the
 * file or, in pcapng, of the packet's interface, so a pcap written from them keeps their
 * link layer. Raw IP (101, 228 IPv4, 229 IPv6) packets are delivered as Ethernet frames:
 * the reader writes a 14-byte Ethernet header (zero MACs, EtherType from the IP version
 * nibble) before the packet, so lengths grow by 14. Other link types are rejected with a
 * {@link SourceException}.
 *
 * <p>Snap length: a record captured shorter than it was on the wire is delivered as
 * captured, with its wire length in {@link PacketBuffer#originalLength()}, and counted in
 * {@link SourceStats#truncatedFrames()}; the chain processes it on its headers when they
 * were captured.
 *
 * <p>Order and time: arrival order is file order; {@link PacketBuffer#sequence()} counts
 * records from 0. Timestamps are delivered as recorded, even when a trace goes back in
 * time. With {@code loops > 1} the file is replayed, sequence numbers continue, and each
 * replay's timestamps are shifted by {@code (max ts - min ts + 1 µs)} of the first pass,
 * so every replay lies after the previous one.
 *
 * <p>Damage: an unreadable file header throws {@link SourceException} naming the file
 * and byte offset. A damaged record never throws: a record cut off by the end of the
 * file ({@link SourceStats#truncatedRecords()}) or with an impossible length
 * ({@link SourceStats#badRecordLength()}: caplen above 256 KiB and above either the snap
 * length or 16 MiB, a pcapng block length that is not a multiple of 4 or inconsistent) ends the
 * pass over the file, with a warning naming the byte offset. Frames longer than the
 * {@link PacketBuffer} are truncated to its capacity and counted.
 *
 * <p>Driven by one thread.
 */
public final class PcapSource implements PacketSource
{
    /** Records longer than this and than the file's snap length are impossible. */
    public static final int MAX_RECORD_LENGTH = 256 * 1024;
    /** pcapng blocks longer than this are impossible. */
    public static final int MAX_BLOCK_LENGTH = 16 * 1024 * 1024;

    static final int LINKTYPE_ETHERNET = 1;
    static final int LINKTYPE_RAW = 101;
    static final int LINKTYPE_IPV4 = 228;
    static final int LINKTYPE_IPV6 = 229;

    private static final int MAGIC_MICROS = 0xA1B2C3D4;
    private static final int MAGIC_NANOS = 0xA1B23C4D;
    private static final int MAGIC_MICROS_SWAPPED = 0xD4C3B2A1;
    private static final int MAGIC_NANOS_SWAPPED = 0x4D3CB2A1;
    private static final int BLOCK_SHB = 0x0A0D0D0A;
    private static final int BLOCK_IDB = 1;
    private static final int BLOCK_PB = 2;
    private static final int BLOCK_SPB = 3;
    private static final int BLOCK_EPB = 6;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int BYTE_ORDER_MAGIC_SWAPPED = 0x4D3C2B1A;
    private static final int OPTION_IF_TSRESOL = 9;
    private static final int OPTION_IF_TSOFFSET = 14;
    private static final int ETHERNET_HEADER = 14;
    private static final int READ_BUFFER_BYTES = 1024 * 1024;
    private static final long[] POW10 = new long[19];

    static
    {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++)
        {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private final Path path;
    private final String name;
    private final int loops;
    private final FileChannel channel;
    private final ByteBuffer in;
    private final SourceStats stats = new SourceStats();

    private long inFileOffset;
    private boolean eof;
    private boolean pcapng;
    private boolean nanos;
    private int snapLength;
    private int linkType;
    private String formatName;

    private int interfaceCount;
    private int[] interfaceLinkType = new int[4];
    private int[] interfaceSnapLength = new int[4];
    private int[] interfaceTsResolution = new int[4];
    private long[] interfaceTsOffsetNs = new long[4];

    private int pass;
    private boolean passDone;
    private boolean stopAfterDelivered;
    private long sequence;
    private long loopShiftNs;
    private long minTimestampNs = Long.MAX_VALUE;
    private long maxTimestampNs = Long.MIN_VALUE;
    private long firstPassPackets;

    private PcapSource(final Path path, final int loops, final FileChannel channel)
    {
        this.path = path;
        this.name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        this.loops = loops;
        this.channel = channel;
        this.in = ByteBuffer.allocate(READ_BUFFER_BYTES);
    }

    /**
     * Open a capture file for one pass.
     *
     * @param path the file.
     * @return the source, positioned before the first packet.
     * @throws SourceException naming the file and byte offset if it cannot be opened or its header is unreadable.
     */
    public static PcapSource open(final Path path) throws SourceException
    {
        return open(path, 1);
    }

    /**
     * Open a capture file to be replayed {@code loops} times.
     *
     * @param path  the file.
     * @param loops number of passes, at least 1.
     * @return the source, positioned before the first packet.
     * @throws SourceException naming the file and byte offset if it cannot be opened or its header is unreadable.
     */
    public static PcapSource open(final Path path, final int loops) throws SourceException
    {
        if (loops < 1)
        {
            throw new IllegalArgumentException("loops must be >= 1, got " + loops);
        }
        final FileChannel channel;
        try
        {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        catch (final IOException | RuntimeException e)
        {
            throw new SourceException(String.valueOf(path.getFileName()), -1, "cannot open: " + e, e);
        }
        final PcapSource source = new PcapSource(path, loops, channel);
        try
        {
            source.startPass();
            return source;
        }
        catch (final SourceException e)
        {
            source.closeQuietly();
            throw e;
        }
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        while (true)
        {
            if (!passDone)
            {
                final boolean read = pcapng ? nextPcapng(dst) : nextClassic(dst);
                if (read)
                {
                    return true;
                }
                passDone = true;
            }
            if (pass + 1 >= loops || firstPassPackets == 0)
            {
                return false;
            }
            pass++;
            loopShiftNs += maxTimestampNs - minTimestampNs + 1_000L;
            startPass();
        }
    }

    @Override
    public SourceStats stats()
    {
        return stats;
    }

    @Override
    public String describe()
    {
        return "pcap file " + path + " (" + (formatName == null ? "unknown format" : formatName) +
            (loops > 1 ? ", " + loops + " loops" : "") + ")";
    }

    @Override
    public void close() throws SourceException
    {
        try
        {
            channel.close();
        }
        catch (final IOException e)
        {
            throw new SourceException(name, -1, "close failed: " + e, e);
        }
    }

    private void closeQuietly()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // The open already failed with a more useful exception.
        }
    }

    private void startPass() throws SourceException
    {
        try
        {
            channel.position(0);
        }
        catch (final IOException e)
        {
            throw new SourceException(name, 0, "cannot rewind: " + e, e);
        }
        in.clear().flip();
        inFileOffset = 0;
        eof = false;
        passDone = false;
        stopAfterDelivered = false;
        interfaceCount = 0;
        if (!ensure(4))
        {
            throw new SourceException(name, 0, "not a pcap or pcapng file (only " + in.remaining() + " bytes)");
        }
        in.order(ByteOrder.BIG_ENDIAN);
        final int magic = in.getInt(in.position());
        if (magic == BLOCK_SHB)
        {
            pcapng = true;
            formatName = "pcapng";
            if (!readSectionHeader(true))
            {
                throw new SourceException(name, 0, "pcapng section header block cut off by end of file");
            }
            return;
        }
        pcapng = false;
        switch (magic)
        {
            case MAGIC_MICROS:
            case MAGIC_NANOS:
                in.order(ByteOrder.BIG_ENDIAN);
                break;
            case MAGIC_MICROS_SWAPPED:
            case MAGIC_NANOS_SWAPPED:
                in.order(ByteOrder.LITTLE_ENDIAN);
                break;
            default:
                throw new SourceException(name, 0, String.format("not a pcap or pcapng file (magic 0x%08x)", magic));
        }
        nanos = magic == MAGIC_NANOS || magic == MAGIC_NANOS_SWAPPED;
        if (!ensure(24))
        {
            throw new SourceException(name, 0, "pcap file header cut off: " + in.remaining() + " of 24 bytes");
        }
        final int p = in.position();
        snapLength = in.getInt(p + 16);
        linkType = in.getInt(p + 20) & 0xFFFF;
        checkLinkType(linkType, 20);
        formatName = "pcap, " + (in.order() == ByteOrder.BIG_ENDIAN ? "big" : "little") + "-endian, " +
            (nanos ? "ns" : "µs") + " timestamps, link type " + linkType;
        consume(24);
    }

    private void checkLinkType(final int type, final long offset) throws SourceException
    {
        if (!LinkType.isSupported(type) && !isRawIp(type))
        {
            throw new SourceException(name, offset, "unsupported link type " + type + " (supported: 1 Ethernet, " +
                "0 BSD loopback, 108 OpenBSD loopback, 113 Linux cooked, 276 Linux cooked v2, 101 raw IP, 228 IPv4, " +
                "229 IPv6); fix: convert the capture to one of these link types, e.g. with tcprewrite --dlt=enet");
        }
    }

    private static boolean isRawIp(final int type)
    {
        return type == LINKTYPE_RAW || type == LINKTYPE_IPV4 || type == LINKTYPE_IPV6;
    }

    private boolean nextClassic(final PacketBuffer dst)
    {
        final long recordOffset = inFileOffset;
        if (!ensure(16))
        {
            if (in.remaining() > 0)
            {
                stats.onTruncatedRecord(name + ": byte " + recordOffset + ": record header cut off by end of file (" +
                    in.remaining() + " of 16 bytes)");
            }
            return false;
        }
        final int p = in.position();
        final long seconds = in.getInt(p) & 0xFFFF_FFFFL;
        final long fraction = in.getInt(p + 4) & 0xFFFF_FFFFL;
        final long capturedLength = in.getInt(p + 8) & 0xFFFF_FFFFL;
        final long wireLength = in.getInt(p + 12) & 0xFFFF_FFFFL;
        // a snap length near 2^32 must not let a caplen past any real frame (or past int) through
        if (capturedLength > MAX_RECORD_LENGTH &&
            (capturedLength > (snapLength & 0xFFFF_FFFFL) || capturedLength > MAX_BLOCK_LENGTH))
        {
            stats.onBadRecordLength(name + ": byte " + recordOffset + ": impossible record length " + capturedLength +
                " (snap length " + (snapLength & 0xFFFF_FFFFL) + ", limit " + MAX_RECORD_LENGTH + ")");
            return false;
        }
        consume(16);
        final long timestampNs = seconds * 1_000_000_000L + (nanos ? fraction : fraction * 1_000L);
        return readFrame(dst, recordOffset, (int)capturedLength, (int)Math.min(wireLength, Integer.MAX_VALUE),
            timestampNs, linkType, (int)capturedLength);
    }

    /**
     * Copy a record's data into the buffer and commit it. Consumes exactly {@code recordBytes}
     * bytes (the captured data) from the input.
     */
    private boolean readFrame(
        final PacketBuffer dst,
        final long recordOffset,
        final int capturedLength,
        final int wireLength,
        final long timestampNs,
        final int frameLinkType,
        final int recordBytes)
    {
        final byte[] data = dst.data();
        final boolean rawIp = isRawIp(frameLinkType);
        final int prefix = rawIp ? ETHERNET_HEADER : 0;
        final int copy = Math.min(capturedLength, data.length - prefix);
        if (!readFully(data, prefix, copy) || !skip(recordBytes - copy))
        {
            stats.onTruncatedRecord(name + ": byte " + recordOffset + ": record of " + capturedLength +
                " bytes cut off by end of file");
            return false;
        }
        if (copy < capturedLength)
        {
            stats.onOversizedFrame();
        }
        if (rawIp)
        {
            writeEthernetHeader(data, copy > 0 ? (data[prefix] & 0xF0) >>> 4 : 0, frameLinkType);
        }
        final long shifted = timestampNs + loopShiftNs;
        if (pass == 0)
        {
            minTimestampNs = Math.min(minTimestampNs, timestampNs);
            maxTimestampNs = Math.max(maxTimestampNs, timestampNs);
            firstPassPackets++;
        }
        dst.commit(copy + prefix, (int)Math.min((long)wireLength + prefix, Integer.MAX_VALUE), shifted, sequence++);
        if (frameLinkType != LINKTYPE_ETHERNET && !rawIp)
        {
            dst.linkType(frameLinkType);
        }
        if (capturedLength < wireLength)
        {
            stats.onTruncatedFrame();
        }
        stats.onPacket(copy + prefix);
        return true;
    }

    private static void writeEthernetHeader(final byte[] data, final int ipVersion, final int frameLinkType)
    {
        Arrays.fill(data, 0, 12, (byte)0);
        final int etherType;
        if (frameLinkType == LINKTYPE_IPV4 || (frameLinkType == LINKTYPE_RAW && ipVersion == 4))
        {
            etherType = 0x0800;
        }
        else if (frameLinkType == LINKTYPE_IPV6 || (frameLinkType == LINKTYPE_RAW && ipVersion == 6))
        {
            etherType = 0x86DD;
        }
        else
        {
            etherType = 0;
        }
        data[12] = (byte)(etherType >>> 8);
        data[13] = (byte)etherType;
    }

    private boolean nextPcapng(final PacketBuffer dst) throws SourceException
    {
        if (stopAfterDelivered)
        {
            return false;
        }
        while (true)
        {
            final long blockOffset = inFileOffset;
            if (!ensure(8))
            {
                if (in.remaining() > 0)
                {
                    stats.onTruncatedRecord(name + ": byte " + blockOffset + ": block header cut off by end of file (" +
                        in.remaining() + " of 8 bytes)");
                }
                return false;
            }
            final int type = in.getInt(in.position());
            if (type == BLOCK_SHB)
            {
                if (!readSectionHeader(false))
                {
                    return false;
                }
                continue;
            }
            final long blockLength = in.getInt(in.position() + 4) & 0xFFFF_FFFFL;
            if (!checkBlockLength(blockOffset, blockLength))
            {
                return false;
            }
            final long blockEnd = blockOffset + blockLength;
            final boolean delivered;
            switch (type)
            {
                case BLOCK_IDB:
                    if (!readInterface(blockOffset, (int)blockLength))
                    {
                        return false;
                    }
                    delivered = false;
                    break;
                case BLOCK_EPB:
                case BLOCK_PB:
                case BLOCK_SPB:
                {
                    final int result = readPacketBlock(dst, type, blockOffset, (int)blockLength);
                    if (result < 0)
                    {
                        return false;
                    }
                    delivered = result > 0;
                    break;
                }
                default:
                    stats.onSkippedBlock();
                    delivered = false;
                    break;
            }
            if (!finishBlock(blockOffset, blockEnd, blockLength))
            {
                stopAfterDelivered = true;
                return delivered;
            }
            if (delivered)
            {
                return true;
            }
        }
    }

    private boolean checkBlockLength(final long blockOffset, final long blockLength)
    {
        if (blockLength < 12 || (blockLength & 3) != 0 || blockLength > MAX_BLOCK_LENGTH)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": impossible pcapng block length " + blockLength);
            return false;
        }
        return true;
    }

    /** Skip to the block's trailing length and check it; false ends the pass. */
    private boolean finishBlock(final long blockOffset, final long blockEnd, final long blockLength)
    {
        final long toTrailer = blockEnd - 4 - inFileOffset;
        if (toTrailer < 0 || !skip(toTrailer) || !ensure(4))
        {
            if (toTrailer >= 0)
            {
                stats.onTruncatedRecord(name + ": byte " + blockOffset + ": block of " + blockLength +
                    " bytes cut off by end of file");
            }
            else
            {
                stats.onBadRecordLength(name + ": byte " + blockOffset + ": block contents overrun its length " + blockLength);
            }
            return false;
        }
        final long trailer = in.getInt(in.position()) & 0xFFFF_FFFFL;
        consume(4);
        if (trailer != blockLength)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": trailing block length " + trailer +
                " differs from leading " + blockLength);
            return false;
        }
        return true;
    }

    /**
     * Read a section header block at the current position, setting the byte order.
     *
     * @param first true for the file's first block: failures then throw.
     * @return false if the pass ends here.
     */
    private boolean readSectionHeader(final boolean first) throws SourceException
    {
        final long blockOffset = inFileOffset;
        if (!ensure(12))
        {
            if (first)
            {
                return false;
            }
            stats.onTruncatedRecord(name + ": byte " + blockOffset + ": section header cut off by end of file");
            return false;
        }
        final int p = in.position();
        in.order(ByteOrder.BIG_ENDIAN);
        final int byteOrderMagic = in.getInt(p + 8);
        if (byteOrderMagic == BYTE_ORDER_MAGIC_SWAPPED)
        {
            in.order(ByteOrder.LITTLE_ENDIAN);
        }
        else if (byteOrderMagic != BYTE_ORDER_MAGIC)
        {
            final String message = String.format("bad pcapng byte-order magic 0x%08x", byteOrderMagic);
            if (first)
            {
                throw new SourceException(name, blockOffset + 8, message);
            }
            stats.onBadRecordLength(name + ": byte " + (blockOffset + 8) + ": " + message);
            return false;
        }
        final long blockLength = in.getInt(p + 4) & 0xFFFF_FFFFL;
        if (blockLength < 28 || (blockLength & 3) != 0 || blockLength > MAX_BLOCK_LENGTH)
        {
            if (first)
            {
                throw new SourceException(name, blockOffset + 4, "impossible pcapng section header length " + blockLength);
            }
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": impossible pcapng block length " + blockLength);
            return false;
        }
        interfaceCount = 0;
        if (!finishBlock(blockOffset, blockOffset + blockLength, blockLength))
        {
            if (first)
            {
                throw new SourceException(name, blockOffset, "unreadable pcapng section header block");
            }
            return false;
        }
        return true;
    }

    private boolean readInterface(final long blockOffset, final int blockLength) throws SourceException
    {
        if (blockLength < 20)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": interface block too short (" + blockLength + ")");
            return false;
        }
        final boolean whole = blockLength <= in.capacity() && ensure(blockLength);
        if (!whole && !ensure(16))
        {
            stats.onTruncatedRecord(name + ": byte " + blockOffset + ": interface block cut off by end of file");
            return false;
        }
        final int p = in.position();
        final int type = in.getShort(p + 8) & 0xFFFF;
        checkLinkType(type, blockOffset + 8);
        if (interfaceCount == interfaceLinkType.length)
        {
            final int grown = interfaceCount * 2;
            interfaceLinkType = Arrays.copyOf(interfaceLinkType, grown);
            interfaceSnapLength = Arrays.copyOf(interfaceSnapLength, grown);
            interfaceTsResolution = Arrays.copyOf(interfaceTsResolution, grown);
            interfaceTsOffsetNs = Arrays.copyOf(interfaceTsOffsetNs, grown);
        }
        final int index = interfaceCount++;
        interfaceLinkType[index] = type;
        interfaceSnapLength[index] = in.getInt(p + 12);
        interfaceTsResolution[index] = 6;
        interfaceTsOffsetNs[index] = 0;
        if (whole)
        {
            int q = p + 16;
            final int end = p + blockLength - 4;
            while (end - q >= 4)
            {
                final int code = in.getShort(q) & 0xFFFF;
                final int length = in.getShort(q + 2) & 0xFFFF;
                if (code == 0 || end - q - 4 < length)
                {
                    break;
                }
                if (code == OPTION_IF_TSRESOL && length >= 1)
                {
                    interfaceTsResolution[index] = in.get(q + 4) & 0xFF;
                }
                else if (code == OPTION_IF_TSOFFSET && length >= 8)
                {
                    interfaceTsOffsetNs[index] = in.getLong(q + 4) * 1_000_000_000L;
                }
                q += 4 + ((length + 3) & ~3);
            }
        }
        consume(16);
        return true;
    }

    /** @return 1 if a packet was delivered, 0 if the block was skipped, -1 if the pass ends. */
    private int readPacketBlock(final PacketBuffer dst, final int type, final long blockOffset, final int blockLength)
    {
        final int fixed = type == BLOCK_SPB ? 12 : 28;
        if (blockLength < fixed + 4)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": packet block too short (" + blockLength + ")");
            return -1;
        }
        if (!ensure(fixed))
        {
            stats.onTruncatedRecord(name + ": byte " + blockOffset + ": packet block cut off by end of file");
            return -1;
        }
        final int p = in.position();
        final int interfaceId;
        final long timestamp;
        long capturedLength;
        final long wireLength;
        if (type == BLOCK_SPB)
        {
            interfaceId = 0;
            timestamp = 0;
            wireLength = in.getInt(p + 8) & 0xFFFF_FFFFL;
            capturedLength = Math.min(wireLength, blockLength - 16L);
            if (interfaceCount > 0 && interfaceSnapLength[0] > 0)
            {
                capturedLength = Math.min(capturedLength, interfaceSnapLength[0]);
            }
        }
        else
        {
            interfaceId = type == BLOCK_PB ? in.getShort(p + 8) & 0xFFFF : in.getInt(p + 8);
            timestamp = ((in.getInt(p + 12) & 0xFFFF_FFFFL) << 32) | (in.getInt(p + 16) & 0xFFFF_FFFFL);
            capturedLength = in.getInt(p + 20) & 0xFFFF_FFFFL;
            wireLength = in.getInt(p + 24) & 0xFFFF_FFFFL;
        }
        if (capturedLength > blockLength - fixed - 4)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": captured length " + capturedLength +
                " does not fit in block of " + blockLength + " bytes");
            return -1;
        }
        if (interfaceId < 0 || interfaceId >= interfaceCount)
        {
            stats.onBadRecordLength(name + ": byte " + blockOffset + ": packet of undeclared interface " + interfaceId);
            return 0;
        }
        consume(fixed);
        final long timestampNs = toNanos(timestamp, interfaceTsResolution[interfaceId]) + interfaceTsOffsetNs[interfaceId];
        return readFrame(dst, blockOffset, (int)capturedLength, (int)Math.min(wireLength, Integer.MAX_VALUE),
            timestampNs, interfaceLinkType[interfaceId], (int)capturedLength) ? 1 : -1;
    }

    /**
     * Convert a pcapng timestamp to nanoseconds given the {@code if_tsresol} byte: high bit
     * clear means units of 10^-n s, set means 2^-n s.
     */
    static long toNanos(final long units, final int resolution)
    {
        final int exponent = resolution & 0x7F;
        if ((resolution & 0x80) == 0)
        {
            if (exponent <= 9)
            {
                return units * POW10[9 - exponent];
            }
            return exponent - 9 < POW10.length ? Long.divideUnsigned(units, POW10[exponent - 9]) : 0;
        }
        if (exponent == 0)
        {
            return units * 1_000_000_000L;
        }
        if (exponent >= 63)
        {
            return 0;
        }
        final long seconds = units >>> exponent;
        final long fraction = units & ((1L << exponent) - 1);
        final long high = Math.multiplyHigh(fraction, 1_000_000_000L);
        final long low = fraction * 1_000_000_000L;
        return seconds * 1_000_000_000L + ((high << (64 - exponent)) | (low >>> exponent));
    }

    /**
     * Make at least {@code n} bytes available at {@code in.position()}, reading more of the
     * file if needed. {@code n} must not exceed the buffer's capacity.
     *
     * @return false if the file ends first (what is there stays available).
     */
    private boolean ensure(final int n)
    {
        if (in.remaining() >= n)
        {
            return true;
        }
        in.compact();
        try
        {
            while (in.position() < n && !eof)
            {
                if (channel.read(in) < 0)
                {
                    eof = true;
                }
            }
        }
        catch (final IOException e)
        {
            eof = true;
            stats.warn(name + ": byte " + (inFileOffset + in.position()) + ": read failed: " + e);
        }
        in.flip();
        return in.remaining() >= n;
    }

    private void consume(final int n)
    {
        in.position(in.position() + n);
        inFileOffset += n;
    }

    private boolean skip(final long n)
    {
        long left = n;
        while (left > 0)
        {
            if (in.remaining() == 0 && !ensure(1))
            {
                return false;
            }
            final int step = (int)Math.min(left, in.remaining());
            consume(step);
            left -= step;
        }
        return true;
    }

    private boolean readFully(final byte[] dst, final int offset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            if (in.remaining() == 0 && !ensure(1))
            {
                return false;
            }
            final int step = Math.min(length - done, in.remaining());
            in.get(dst, offset + done, step);
            inFileOffset += step;
            done += step;
        }
        return true;
    }
}
