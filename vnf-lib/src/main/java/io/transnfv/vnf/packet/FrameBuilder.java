package io.transnfv.vnf.packet;

import java.util.Arrays;

/**
 * Writes Ethernet frames with correct checksums: used by the synthetic traffic generator
 * and by tests that need exact frames (VLAN tags, IPv4 options, IPv6 extension headers,
 * fragments).
 *
 * <p>A mutable, reusable description of one frame: set the layers, then
 * {@link #write(byte[], int)}. Setters return {@code this}; nothing allocates after
 * construction, so one builder can write every packet of a stream. Not thread-safe.
 *
 * <pre>{@code
 * int length = builder.reset()
 *     .ipv4(Ipv4.parse("10.0.0.1"), Ipv4.parse("192.168.1.5"))
 *     .tcp(1234, 80, PacketFlyweight.TCP_SYN, 1000, 0)
 *     .write(buffer, 0);
 * }</pre>
 *
 * <p>The transport checksum covers the bytes written (for a fragment, only this
 * fragment's part), and is omitted for non-first fragments, which carry no transport
 * header. Frames shorter than {@link #frameLength(int)} are padded with zero bytes after
 * the IP datagram, as Ethernet padding.
 */
public final class FrameBuilder
{
    private static final int MAX_EXTENSION_HEADERS = 4;
    private static final int NONE = -1;

    private long srcMac;
    private long dstMac;
    private final int[] vlanTpids = new int[PacketFlyweight.MAX_VLAN_TAGS];
    private final int[] vlanIds = new int[PacketFlyweight.MAX_VLAN_TAGS];
    private int vlanCount;
    private int etherType;
    private int ipVersion;
    private int srcIpv4;
    private int dstIpv4;
    private long srcIpv6High;
    private long srcIpv6Low;
    private long dstIpv6High;
    private long dstIpv6Low;
    private int ttl;
    private int ipId;
    private boolean dontFragment;
    private int fragmentOffset;
    private boolean moreFragments;
    private int ipv4OptionsLength;
    private final int[] extensionHeaders = new int[MAX_EXTENSION_HEADERS];
    private int extensionHeaderCount;
    private int protocol;
    private int srcPort;
    private int dstPort;
    private int tcpFlags;
    private int tcpSeq;
    private int tcpAck;
    private int tcpWindow;
    private int icmpType;
    private int icmpCode;
    private int payloadLength;
    private byte payloadFill;
    private int minFrameLength;
    private int dscp;

    /** Create a builder describing an empty IPv4/UDP frame. */
    public FrameBuilder()
    {
        reset();
    }

    /**
     * Forget every layer: default MACs, no VLAN, no IP, no payload.
     *
     * @return this.
     */
    public FrameBuilder reset()
    {
        srcMac = 0x02_00_00_00_00_01L;
        dstMac = 0x02_00_00_00_00_02L;
        vlanCount = 0;
        etherType = 0x88B5;
        ipVersion = 0;
        ttl = 64;
        ipId = 0;
        dontFragment = false;
        fragmentOffset = 0;
        moreFragments = false;
        ipv4OptionsLength = 0;
        extensionHeaderCount = 0;
        protocol = NONE;
        srcPort = 0;
        dstPort = 0;
        tcpFlags = 0;
        tcpSeq = 0;
        tcpAck = 0;
        tcpWindow = 65535;
        icmpType = 0;
        icmpCode = 0;
        payloadLength = 0;
        payloadFill = 0;
        minFrameLength = 0;
        dscp = 0;
        return this;
    }

    /**
     * @param source      48-bit source MAC.
     * @param destination 48-bit destination MAC.
     * @return this.
     */
    public FrameBuilder macs(final long source, final long destination)
    {
        srcMac = source;
        dstMac = destination;
        return this;
    }

    /**
     * Add a VLAN tag after the MACs (the first call adds the outer tag).
     *
     * @param tpid 0x8100, 0x88a8 or 0x9100.
     * @param vid  12-bit VLAN id.
     * @return this.
     */
    public FrameBuilder vlan(final int tpid, final int vid)
    {
        if (vlanCount == vlanTpids.length)
        {
            throw new IllegalStateException("at most " + vlanTpids.length + " VLAN tags");
        }
        vlanTpids[vlanCount] = tpid;
        vlanIds[vlanCount] = vid & 0x0FFF;
        vlanCount++;
        return this;
    }

    /**
     * Make a non-IP frame with this EtherType; the payload follows the Ethernet header.
     *
     * @param type EtherType.
     * @return this.
     */
    public FrameBuilder etherType(final int type)
    {
        ipVersion = 0;
        etherType = type;
        return this;
    }

    /**
     * @param source      big-endian IPv4 source address.
     * @param destination big-endian IPv4 destination address.
     * @return this.
     */
    public FrameBuilder ipv4(final int source, final int destination)
    {
        ipVersion = 4;
        etherType = PacketFlyweight.ETHERTYPE_IPV4;
        srcIpv4 = source;
        dstIpv4 = destination;
        return this;
    }

    /**
     * @param srcHigh upper 64 bits of the source address.
     * @param srcLow  lower 64 bits of the source address.
     * @param dstHigh upper 64 bits of the destination address.
     * @param dstLow  lower 64 bits of the destination address.
     * @return this.
     */
    public FrameBuilder ipv6(final long srcHigh, final long srcLow, final long dstHigh, final long dstLow)
    {
        ipVersion = 6;
        etherType = PacketFlyweight.ETHERTYPE_IPV6;
        srcIpv6High = srcHigh;
        srcIpv6Low = srcLow;
        dstIpv6High = dstHigh;
        dstIpv6Low = dstLow;
        return this;
    }

    /**
     * @param value IPv4 TTL or IPv6 hop limit.
     * @return this.
     */
    public FrameBuilder ttl(final int value)
    {
        ttl = value;
        return this;
    }

    /**
     * @param value the DSCP, 0 to 63: the upper six bits of the IPv4 TOS or the IPv6 traffic class
     *              (ECN bits 0).
     * @return this.
     */
    public FrameBuilder dscp(final int value)
    {
        if (value < 0 || value > 63)
        {
            throw new IllegalArgumentException("DSCP " + value + " is not in 0..63");
        }
        dscp = value;
        return this;
    }

    /**
     * @param id IPv4 identification field.
     * @return this.
     */
    public FrameBuilder ipId(final int id)
    {
        ipId = id;
        return this;
    }

    /**
     * @param value IPv4 "don't fragment" flag.
     * @return this.
     */
    public FrameBuilder dontFragment(final boolean value)
    {
        dontFragment = value;
        return this;
    }

    /**
     * Make the packet a fragment. For IPv6 this also needs a fragment extension header
     * ({@link #ipv6ExtensionHeader(int)} with 44).
     *
     * @param offsetBytes fragment offset, a multiple of 8.
     * @param more        "more fragments" flag.
     * @return this.
     */
    public FrameBuilder fragment(final int offsetBytes, final boolean more)
    {
        fragmentOffset = offsetBytes;
        moreFragments = more;
        return this;
    }

    /**
     * @param length IPv4 options bytes (a multiple of 4, at most 40), written as NOPs.
     * @return this.
     */
    public FrameBuilder ipv4Options(final int length)
    {
        if (length < 0 || length > 40 || (length & 3) != 0)
        {
            throw new IllegalArgumentException("IPv4 options length must be a multiple of 4 in 0-40, got " + length);
        }
        ipv4OptionsLength = length;
        return this;
    }

    /**
     * Append an 8-byte IPv6 extension header: hop-by-hop (0), routing (43), fragment (44,
     * using {@link #fragment(int, boolean)}) or destination options (60).
     *
     * @param type extension header protocol number.
     * @return this.
     */
    public FrameBuilder ipv6ExtensionHeader(final int type)
    {
        if (extensionHeaderCount == MAX_EXTENSION_HEADERS)
        {
            throw new IllegalStateException("at most " + MAX_EXTENSION_HEADERS + " extension headers");
        }
        extensionHeaders[extensionHeaderCount++] = type;
        return this;
    }

    /**
     * @param sourcePort      TCP source port.
     * @param destinationPort TCP destination port.
     * @param flags           TCP flags byte.
     * @param seq             sequence number.
     * @param ack             acknowledgement number.
     * @return this.
     */
    public FrameBuilder tcp(final int sourcePort, final int destinationPort, final int flags, final int seq, final int ack)
    {
        protocol = PacketFlyweight.PROTO_TCP;
        srcPort = sourcePort;
        dstPort = destinationPort;
        tcpFlags = flags;
        tcpSeq = seq;
        tcpAck = ack;
        return this;
    }

    /**
     * @param sourcePort      UDP source port.
     * @param destinationPort UDP destination port.
     * @return this.
     */
    public FrameBuilder udp(final int sourcePort, final int destinationPort)
    {
        protocol = PacketFlyweight.PROTO_UDP;
        srcPort = sourcePort;
        dstPort = destinationPort;
        return this;
    }

    /**
     * An ICMP (over IPv4) or ICMPv6 (over IPv6) message with an 8-byte header.
     *
     * @param type message type.
     * @param code message code.
     * @return this.
     */
    public FrameBuilder icmp(final int type, final int code)
    {
        protocol = ipVersion == 6 ? PacketFlyweight.PROTO_ICMPV6 : PacketFlyweight.PROTO_ICMP;
        icmpType = type;
        icmpCode = code;
        return this;
    }

    /**
     * Carry another IP protocol with no transport header; the payload follows the IP header.
     *
     * @param number IP protocol number.
     * @return this.
     */
    public FrameBuilder ipProtocol(final int number)
    {
        protocol = number;
        return this;
    }

    /**
     * @param length payload bytes after the transport header.
     * @param fill   value of every payload byte.
     * @return this.
     */
    public FrameBuilder payload(final int length, final byte fill)
    {
        payloadLength = length;
        payloadFill = fill;
        return this;
    }

    /**
     * @param length minimum frame length; shorter frames get zero padding after the datagram.
     * @return this.
     */
    public FrameBuilder frameLength(final int length)
    {
        minFrameLength = length;
        return this;
    }

    /** @return the bytes of headers (Ethernet to transport) the frame will have. */
    public int headerLength()
    {
        return l2Length() + l3Length() + l4Length();
    }

    /** @return the length {@link #write(byte[], int)} will return. */
    public int length()
    {
        return Math.max(minFrameLength, headerLength() + payloadLength);
    }

    private int l2Length()
    {
        return PacketFlyweight.ETHERNET_HEADER_LENGTH + 4 * vlanCount;
    }

    private int l3Length()
    {
        if (ipVersion == 4)
        {
            return 20 + ipv4OptionsLength;
        }
        return ipVersion == 6 ? 40 + 8 * extensionHeaderCount : 0;
    }

    private int l4Length()
    {
        if (ipVersion == 0 || fragmentOffset != 0)
        {
            return 0;
        }
        switch (protocol)
        {
            case PacketFlyweight.PROTO_TCP:
                return 20;
            case PacketFlyweight.PROTO_UDP:
            case PacketFlyweight.PROTO_ICMP:
            case PacketFlyweight.PROTO_ICMPV6:
                return 8;
            default:
                return 0;
        }
    }

    /**
     * Write the frame.
     *
     * @param buffer destination.
     * @param offset index of the first byte.
     * @return the frame length in bytes.
     * @throws IndexOutOfBoundsException if the frame does not fit.
     */
    public int write(final byte[] buffer, final int offset)
    {
        final int l2 = l2Length();
        final int l3 = l3Length();
        final int l4 = l4Length();
        final int datagramEnd = offset + l2 + l3 + l4 + payloadLength;
        final int frameEnd = Math.max(offset + minFrameLength, datagramEnd);
        if (offset < 0 || frameEnd > buffer.length)
        {
            throw new IndexOutOfBoundsException("frame of " + (frameEnd - offset) + " bytes at " + offset +
                " does not fit in " + buffer.length);
        }
        int p = offset;
        putMac(buffer, p, dstMac);
        putMac(buffer, p + 6, srcMac);
        p += 12;
        for (int i = 0; i < vlanCount; i++)
        {
            PacketFlyweight.putU16(buffer, p, vlanTpids[i]);
            PacketFlyweight.putU16(buffer, p + 2, vlanIds[i]);
            p += 4;
        }
        PacketFlyweight.putU16(buffer, p, etherType);
        p += 2;
        final int l3Offset = p;
        final int l4Offset = l3Offset + l3;
        Arrays.fill(buffer, l4Offset + l4, datagramEnd, payloadFill);
        Arrays.fill(buffer, datagramEnd, frameEnd, (byte)0);
        if (ipVersion == 4)
        {
            writeIpv4(buffer, l3Offset, l3, datagramEnd - l3Offset);
        }
        else if (ipVersion == 6)
        {
            writeIpv6(buffer, l3Offset, datagramEnd - l3Offset - 40);
        }
        else
        {
            return frameEnd - offset;
        }
        if (l4 > 0)
        {
            writeTransport(buffer, l3Offset, l4Offset, datagramEnd - l4Offset);
        }
        if (ipVersion == 4)
        {
            PacketFlyweight.putU16(buffer, l3Offset + 10, Checksums.ipv4Header(buffer, l3Offset));
        }
        return frameEnd - offset;
    }

    private void writeIpv4(final byte[] b, final int p, final int headerLength, final int totalLength)
    {
        b[p] = (byte)(0x40 | (headerLength >>> 2));
        b[p + 1] = (byte)(dscp << 2);
        PacketFlyweight.putU16(b, p + 2, totalLength);
        PacketFlyweight.putU16(b, p + 4, ipId);
        final int flags = (dontFragment ? 0x4000 : 0) | (moreFragments ? 0x2000 : 0) | ((fragmentOffset >>> 3) & 0x1FFF);
        PacketFlyweight.putU16(b, p + 6, flags);
        b[p + 8] = (byte)ttl;
        b[p + 9] = (byte)(protocol == NONE ? PacketFlyweight.PROTO_IPV6_NONXT : protocol);
        b[p + 10] = 0;
        b[p + 11] = 0;
        PacketFlyweight.putI32(b, p + 12, srcIpv4);
        PacketFlyweight.putI32(b, p + 16, dstIpv4);
        Arrays.fill(b, p + 20, p + headerLength, (byte)1);
    }

    private void writeIpv6(final byte[] b, final int p, final int payloadLengthField)
    {
        PacketFlyweight.putI32(b, p, 0x6000_0000 | dscp << 22);
        PacketFlyweight.putU16(b, p + 4, payloadLengthField);
        b[p + 6] = (byte)(extensionHeaderCount > 0 ? extensionHeaders[0] : transportNumber());
        b[p + 7] = (byte)ttl;
        putLong(b, p + 8, srcIpv6High);
        putLong(b, p + 16, srcIpv6Low);
        putLong(b, p + 24, dstIpv6High);
        putLong(b, p + 32, dstIpv6Low);
        int q = p + 40;
        for (int i = 0; i < extensionHeaderCount; i++)
        {
            final int next = i + 1 < extensionHeaderCount ? extensionHeaders[i + 1] : transportNumber();
            Arrays.fill(b, q, q + 8, (byte)0);
            b[q] = (byte)next;
            if (extensionHeaders[i] == PacketFlyweight.PROTO_IPV6_FRAGMENT)
            {
                PacketFlyweight.putU16(b, q + 2, (fragmentOffset & 0xFFF8) | (moreFragments ? 1 : 0));
                PacketFlyweight.putI32(b, q + 4, ipId);
            }
            else
            {
                b[q + 2] = 1; // PadN option covering the remaining 4 bytes
                b[q + 3] = 4;
            }
            q += 8;
        }
    }

    private int transportNumber()
    {
        return protocol == NONE ? PacketFlyweight.PROTO_IPV6_NONXT : protocol;
    }

    private void writeTransport(final byte[] b, final int l3Offset, final int p, final int segmentLength)
    {
        long sum;
        switch (protocol)
        {
            case PacketFlyweight.PROTO_TCP:
                PacketFlyweight.putU16(b, p, srcPort);
                PacketFlyweight.putU16(b, p + 2, dstPort);
                PacketFlyweight.putI32(b, p + 4, tcpSeq);
                PacketFlyweight.putI32(b, p + 8, tcpAck);
                b[p + 12] = 0x50;
                b[p + 13] = (byte)tcpFlags;
                PacketFlyweight.putU16(b, p + 14, tcpWindow);
                PacketFlyweight.putI32(b, p + 16, 0);
                sum = pseudoHeader(b, l3Offset, segmentLength);
                break;
            case PacketFlyweight.PROTO_UDP:
                PacketFlyweight.putU16(b, p, srcPort);
                PacketFlyweight.putU16(b, p + 2, dstPort);
                PacketFlyweight.putU16(b, p + 4, segmentLength);
                PacketFlyweight.putU16(b, p + 6, 0);
                sum = pseudoHeader(b, l3Offset, segmentLength);
                break;
            case PacketFlyweight.PROTO_ICMPV6:
                b[p] = (byte)icmpType;
                b[p + 1] = (byte)icmpCode;
                PacketFlyweight.putU16(b, p + 2, 0);
                PacketFlyweight.putI32(b, p + 4, 0);
                sum = pseudoHeader(b, l3Offset, segmentLength);
                break;
            default:
                b[p] = (byte)icmpType;
                b[p + 1] = (byte)icmpCode;
                PacketFlyweight.putU16(b, p + 2, 0);
                PacketFlyweight.putI32(b, p + 4, 0);
                sum = 0;
                break;
        }
        // the payload is payloadFill repeated and starts at an even offset of the segment, so its
        // share of the sum is arithmetic: the generator writes long frames at full speed
        final int header = Math.min(segmentLength, l4Length());
        final int payload = segmentLength - header;
        final long fill = payloadFill & 0xFF;
        sum = Checksums.sum(b, p, header, sum) + (payload >>> 1) * (fill * 0x101) + ((payload & 1) != 0 ? fill << 8 : 0);
        int checksum = ~Checksums.fold(sum) & 0xFFFF;
        if (protocol == PacketFlyweight.PROTO_UDP && checksum == 0)
        {
            checksum = 0xFFFF;
        }
        PacketFlyweight.putU16(b, p + Checksums.checksumFieldOffset(protocol), checksum);
    }

    private long pseudoHeader(final byte[] b, final int l3Offset, final int segmentLength)
    {
        final long addresses = ipVersion == 4 ?
            Checksums.sum(b, l3Offset + 12, 8, 0) :
            Checksums.sum(b, l3Offset + 8, 32, 0);
        return addresses + protocol + segmentLength;
    }

    private static void putMac(final byte[] b, final int p, final long mac)
    {
        for (int i = 0; i < 6; i++)
        {
            b[p + i] = (byte)(mac >>> (40 - 8 * i));
        }
    }

    private static void putLong(final byte[] b, final int p, final long value)
    {
        PacketFlyweight.putI32(b, p, (int)(value >>> 32));
        PacketFlyweight.putI32(b, p + 4, (int)value);
    }
}
