package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A reusable view over one frame held in a {@code byte[]} or in a {@link ByteBuffer}
 * (heap or direct, e.g. a DPDK mbuf's data): Ethernet by default, or any other
 * {@link LinkType} (loopback, Linux cooked capture) given to the five-argument
 * {@code wrap}. Only the link header differs; from the network layer on, every frame is
 * parsed alike. Ethernet stays the fast path: one comparison of the link type.
 *
 * <p>{@link #wrap(byte[], int, int)} and {@link #wrap(ByteBuffer, int, int)} parse the frame
 * once, without allocating, and cache the offsets and fields the accessors return. Offsets
 * are indices into the wrapped memory, so a frame wrapped at {@code offset} 100 has its
 * Ethernet header at index 100:
 *
 * <pre>
 *  offset                 l3Offset            l4Offset          payloadOffset
 *    |  Ethernet II  | VLAN tags (0..2) | IPv4 / IPv6 (+ext) | TCP/UDP/ICMP | payload | padding |
 *    |&lt;------------------------------------------ frameLength ------------------------------------&gt;|
 * </pre>
 *
 * <p>Layers understood: Ethernet II; up to two 802.1Q (0x8100) / 802.1ad (0x88a8) /
 * legacy QinQ (0x9100) tags; IPv4 with options; IPv6 with the hop-by-hop, routing,
 * destination-options and fragment extension headers skipped; TCP, UDP, ICMP and ICMPv6.
 * A frame that is not IP (ARP, LLDP, an 802.3 length field, a third VLAN tag) is
 * <em>valid</em> with {@link #isIp()} false. A frame is <em>malformed</em>
 * ({@link #isValid()} false) when a layer it announces does not fit or is inconsistent;
 * {@link #malformedReason()} then says which, and accessors of the layers after the
 * failure return their defaults (0, or {@link #NO_PROTOCOL}).
 *
 * <p>The IP datagram ends at its declared length (IPv4 total length, IPv6 40 + payload
 * length); bytes after it are Ethernet padding and not part of the payload. A datagram
 * whose declared length exceeds the captured bytes is {@link #TRUNCATED_L3}, unless the
 * frame was captured shorter than it was on the wire (a snap length) and the datagram
 * fits in its wire length: then it is valid and parsed on its captured headers,
 * {@link #isCutByCapture()} is true and the payload ends with the capture. A header cut
 * by the capture is still malformed ({@link #TRUNCATED_L3} or {@link #TRUNCATED_L4}).
 * Checksums are not verified on parse.
 *
 * <p><b>IP fragments.</b> A packet is a fragment when its IPv4 "more fragments" flag is
 * set or its fragment offset is non-zero (for IPv6: when it carries a fragment header).
 * Only the first fragment (offset 0) carries the transport header: it has
 * {@link #hasPorts()} true and its real ports. A non-first fragment has
 * {@link #hasPorts()} false, {@link #srcPort()} == {@link #dstPort()} == 0, no TCP flags
 * and no ICMP type; its {@link #l4Offset()} points at the fragment's data. VNFs that must
 * see every fragment of a datagram key such packets by the 3-tuple (addresses and
 * protocol, {@link FlowKeys#threeTuple(PacketFlyweight)}); the 5-tuple key of a non-first
 * fragment is the 5-tuple key with both ports 0.
 *
 * <p><b>Recovered ports.</b> The chain's entry remembers each datagram's ports from its first
 * fragment and gives them to the other fragments with {@link #recoverPorts(int, int)}: from
 * then on {@link #hasPorts()} is true and {@link #srcPort()}/{@link #dstPort()} are the
 * datagram's, so every key and test on ports treats the fragment as its datagram's flow.
 * {@link #portsRecovered()} tells such a fragment apart; its port setters change only the
 * view's values, since the fragment carries no transport header to rewrite (the datagram's
 * ports are rewritten in its first fragment). A later ICMP/ICMPv6 fragment gets its first
 * fragment's type the same way ({@link #recoverIcmpType(int)}) and, for an error, the packet
 * it quotes ({@link #recoverIcmpQuote}), so it is classified as its first.
 *
 * <p>Rewrites ({@link #setSrcIpv4(int)}, {@link #setSrcPort(int)}, ...) change the bytes
 * in place and update the IPv4 header checksum and the TCP/UDP checksum incrementally
 * (RFC 1624, eqn. 3), so a frame whose checksums were right stays right.
 *
 * <p><b>Memory.</b> The view keeps a reference to the wrapped array or buffer and never
 * copies the frame: reads and rewrites go straight to that memory, with absolute
 * big-endian accesses only. A buffer's position, limit, mark and byte order are never
 * changed (the frame must lie below its limit), so flyweights on several threads may share
 * one buffer as long as their frames do not overlap. A heap buffer at array offset 0 is
 * read through its array, exactly as {@link #wrap(byte[], int, int)}; any other buffer
 * through absolute {@code get}/{@code put} calls, in network byte order whatever the
 * buffer's own order. Rewrites of a read-only
 * buffer throw {@link java.nio.ReadOnlyBufferException} before changing anything.
 * {@link #getU8}, {@link #getU16}, {@link #getInt}, {@link #getLong} and {@link #getBytes}
 * read any byte of the frame, whichever memory holds it.
 *
 * <p>Not thread-safe: a flyweight belongs to one thread at a time.
 */
public final class PacketFlyweight
{
    /** {@link #malformedReason()} of a valid frame. */
    public static final int NOT_MALFORMED = 0;
    /** Shorter than the Ethernet header or one of its VLAN tags. */
    public static final int TRUNCATED_L2 = 1;
    /** The IP header, an IPv6 extension header or the declared datagram does not fit. */
    public static final int TRUNCATED_L3 = 2;
    /** Wrong IP version, IPv4 IHL below 5, total length below the header length, or too many IPv6 extension headers. */
    public static final int BAD_IP_HEADER = 3;
    /** The TCP, UDP or ICMP header does not fit in the datagram. */
    public static final int TRUNCATED_L4 = 4;
    /** TCP data offset below 5, or UDP length below 8 or beyond the datagram. */
    public static final int BAD_L4_HEADER = 5;

    private static final String[] MALFORMED_NAMES =
    {
        "not-malformed", "truncated-l2", "truncated-l3", "bad-ip-header", "truncated-l4", "bad-l4-header"
    };

    /** Number of distinct {@link #malformedReason()} codes, including {@link #NOT_MALFORMED}. */
    public static final int MALFORMED_REASON_COUNT = MALFORMED_NAMES.length;

    /** {@link #ipProtocol()} of a frame without an IP layer. */
    public static final int NO_PROTOCOL = -1;

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88A8;
    public static final int ETHERTYPE_QINQ_LEGACY = 0x9100;

    public static final int PROTO_HOPOPT = 0;
    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int PROTO_IPV6_ROUTING = 43;
    public static final int PROTO_IPV6_FRAGMENT = 44;
    public static final int PROTO_ICMPV6 = 58;
    public static final int PROTO_IPV6_NONXT = 59;
    public static final int PROTO_IPV6_DSTOPTS = 60;

    public static final int TCP_FIN = 0x01;
    public static final int TCP_SYN = 0x02;
    public static final int TCP_RST = 0x04;
    public static final int TCP_PSH = 0x08;
    public static final int TCP_ACK = 0x10;
    public static final int TCP_URG = 0x20;

    /** Ethernet header length without VLAN tags. */
    public static final int ETHERNET_HEADER_LENGTH = 14;
    /** Most VLAN tags parsed; a frame with more is treated as non-IP. */
    public static final int MAX_VLAN_TAGS = 2;
    /** Most IPv6 extension headers skipped before the frame is {@link #BAD_IP_HEADER}. */
    public static final int MAX_IPV6_EXTENSION_HEADERS = 8;

    /** The wrapped array, or null when {@link #memory} holds the frame. */
    private byte[] array;
    /** The wrapped buffer in network byte order when no array is wrapped, else null. */
    private ByteBuffer memory;
    /** The last buffer in another byte order that was wrapped, and its big-endian duplicate. */
    private ByteBuffer reorderedSource;
    private ByteBuffer reordered;
    private int offset;
    private int frameLength;
    private int wireLength;
    private int linkType = LinkType.ETHERNET;

    private int malformedReason;
    private int etherType;
    private int vlanCount;
    private int vlanId;
    private int innerVlanId;
    private int ipVersion;
    private int l3Offset;
    private int l4Offset;
    /** End of the captured part of the IP datagram: its declared end, or the capture's end if that comes first. */
    private int ipEnd;
    /** End of the IP datagram as its header declares it. */
    private int declaredIpEnd;
    private boolean cutByCapture;
    private int ipProtocol;
    private int ttl;
    private int ipTotalLength;
    private boolean fragment;
    private boolean moreFragments;
    private int fragmentOffset;
    private long fragmentId;
    private boolean portsRecovered;
    private boolean hasPorts;
    private int srcPort;
    private int dstPort;
    private int tcpFlags;
    private int icmpType;
    private boolean icmpTypeRecovered;
    private int quoteProtocol;
    private long quoteSrcHigh;
    private long quoteSrcLow;
    private long quoteDstHigh;
    private long quoteDstLow;
    private int quoteSrcPort;
    private int quoteDstPort;
    private int payloadOffset;
    private int checksumOffset;

    /**
     * The name of a {@link #malformedReason()} code, for reports and logs.
     *
     * @param reason a reason code.
     * @return its name in kebab case (e.g. {@code truncated-l4}), or {@code "unknown"}.
     */
    public static String malformedReasonName(final int reason)
    {
        return reason >= 0 && reason < MALFORMED_NAMES.length ? MALFORMED_NAMES[reason] : "unknown";
    }

    /**
     * Point this view at a frame held in an array and parse its headers. Never throws on
     * any content; an out-of-range {@code offset}/{@code length} is a programming error and
     * throws {@link IndexOutOfBoundsException}.
     *
     * @param buffer the bytes holding the frame.
     * @param offset index of the first byte of the Ethernet header.
     * @param length captured length of the frame in bytes.
     * @return this view, for chaining.
     */
    public PacketFlyweight wrap(final byte[] buffer, final int offset, final int length)
    {
        return wrap(buffer, offset, length, length, LinkType.ETHERNET);
    }

    /**
     * Point this view at a frame of any supported {@link LinkType} held in an array, captured
     * perhaps shorter than it was on the wire, and parse its headers. A frame whose capture
     * ends inside its IP datagram (a snap length) is valid when every header up to the
     * transport layer was captured and the datagram fits in {@code wireLength}; see
     * {@link #isCutByCapture()}.
     *
     * @param buffer     the bytes holding the frame.
     * @param offset     index of the first byte of the link-layer header.
     * @param length     captured length of the frame in bytes.
     * @param wireLength length of the frame on the wire; raised to {@code length} if smaller.
     * @param linkType   the frame's link layer, one {@link LinkType#isSupported} accepts.
     * @return this view, for chaining.
     * @throws IllegalArgumentException if the link type is not supported.
     */
    public PacketFlyweight wrap(final byte[] buffer, final int offset, final int length, final int wireLength,
        final int linkType)
    {
        if (offset < 0 || length < 0 || offset > buffer.length - length)
        {
            throw new IndexOutOfBoundsException("offset=" + offset + " length=" + length + " capacity=" + buffer.length);
        }
        this.array = buffer;
        this.memory = null;
        this.offset = offset;
        this.frameLength = length;
        this.wireLength = Math.max(length, wireLength);
        this.linkType = linkType;
        reset();
        parse();
        return this;
    }

    /**
     * Point this view at a frame held in a buffer and parse its headers, as
     * {@link #wrap(byte[], int, int)} does. The buffer's position, limit and byte order stay
     * as they are; the frame must lie below its limit.
     *
     * @param buffer the memory holding the frame: heap or direct, any byte order.
     * @param offset index in {@code buffer} of the first byte of the Ethernet header.
     * @param length captured length of the frame in bytes.
     * @return this view, for chaining.
     */
    public PacketFlyweight wrap(final ByteBuffer buffer, final int offset, final int length)
    {
        return wrap(buffer, offset, length, length, LinkType.ETHERNET);
    }

    /**
     * Point this view at a frame of any supported {@link LinkType} held in a buffer, as
     * {@link #wrap(byte[], int, int, int, int)} does. The buffer's position, limit and byte
     * order stay as they are; the frame must lie below its limit.
     *
     * @param buffer     the memory holding the frame: heap or direct, any byte order.
     * @param offset     index in {@code buffer} of the first byte of the link-layer header.
     * @param length     captured length of the frame in bytes.
     * @param wireLength length of the frame on the wire; raised to {@code length} if smaller.
     * @param linkType   the frame's link layer, one {@link LinkType#isSupported} accepts.
     * @return this view, for chaining.
     * @throws IllegalArgumentException if the link type is not supported.
     */
    public PacketFlyweight wrap(final ByteBuffer buffer, final int offset, final int length, final int wireLength,
        final int linkType)
    {
        final int limit = buffer.limit();
        if (offset < 0 || length < 0 || offset > limit - length)
        {
            throw new IndexOutOfBoundsException("offset=" + offset + " length=" + length + " limit=" + limit);
        }
        if (buffer.hasArray() && buffer.arrayOffset() == 0)
        {
            this.array = buffer.array();
            this.memory = null;
        }
        else
        {
            this.array = null;
            this.memory = buffer.order() == ByteOrder.BIG_ENDIAN ? buffer : reorderedSlowPath(buffer);
        }
        this.offset = offset;
        this.frameLength = length;
        this.wireLength = Math.max(length, wireLength);
        this.linkType = linkType;
        reset();
        parse();
        return this;
    }

    /** A big-endian duplicate of a buffer in another order, made once per buffer wrapped in a row. */
    private ByteBuffer reorderedSlowPath(final ByteBuffer buffer)
    {
        if (buffer != reorderedSource)
        {
            reordered = buffer.duplicate().clear().order(ByteOrder.BIG_ENDIAN);
            reorderedSource = buffer;
        }
        return reordered;
    }

    private void reset()
    {
        malformedReason = NOT_MALFORMED;
        etherType = 0;
        vlanCount = 0;
        vlanId = 0;
        innerVlanId = 0;
        ipVersion = 0;
        l3Offset = 0;
        l4Offset = 0;
        ipEnd = 0;
        declaredIpEnd = 0;
        cutByCapture = false;
        ipProtocol = NO_PROTOCOL;
        ttl = 0;
        ipTotalLength = 0;
        fragment = false;
        moreFragments = false;
        fragmentOffset = 0;
        fragmentId = 0;
        portsRecovered = false;
        hasPorts = false;
        srcPort = 0;
        dstPort = 0;
        tcpFlags = 0;
        icmpType = 0;
        icmpTypeRecovered = false;
        quoteProtocol = NO_PROTOCOL;
        payloadOffset = 0;
        checksumOffset = -1;
    }

    private void parse()
    {
        if (linkType != LinkType.ETHERNET)
        {
            parseLinkSlowPath();
            return;
        }
        if (frameLength < ETHERNET_HEADER_LENGTH)
        {
            malformedReason = TRUNCATED_L2;
            return;
        }
        parseNetwork(offset + ETHERNET_HEADER_LENGTH, get16(offset + 12));
    }

    /** The link layers other than Ethernet: find the network protocol and where it starts. */
    private void parseLinkSlowPath()
    {
        final int headerLength;
        switch (linkType)
        {
            case LinkType.NULL:
            case LinkType.LOOP:
                headerLength = LinkType.LOOPBACK_HEADER_LENGTH;
                break;
            case LinkType.LINUX_SLL:
                headerLength = LinkType.LINUX_SLL_HEADER_LENGTH;
                break;
            case LinkType.LINUX_SLL2:
                headerLength = LinkType.LINUX_SLL2_HEADER_LENGTH;
                break;
            default:
                throw new IllegalArgumentException("unsupported link type " + linkType);
        }
        if (frameLength < headerLength)
        {
            malformedReason = TRUNCATED_L2;
            return;
        }
        final int type;
        if (linkType == LinkType.LINUX_SLL)
        {
            type = get16(offset + 14);
        }
        else if (linkType == LinkType.LINUX_SLL2)
        {
            type = get16(offset);
        }
        else
        {
            int family = get32(offset);
            // NULL writes the family in the capturing host's order: a small number either way round.
            if (linkType == LinkType.NULL && (family & 0xFFFF) == 0)
            {
                family = Integer.reverseBytes(family);
            }
            type = LinkType.etherTypeOfFamily(family);
        }
        parseNetwork(offset + headerLength, type);
    }

    /** Parse from the protocol field that names the network layer at {@code start}: VLAN tags, then IP. */
    private void parseNetwork(final int start, final int firstType)
    {
        final int end = offset + frameLength;
        int p = start;
        int type = firstType;
        while (isVlanTpid(type) && vlanCount < MAX_VLAN_TAGS)
        {
            if (end - p < 4)
            {
                malformedReason = TRUNCATED_L2;
                etherType = type;
                return;
            }
            final int vid = get16(p) & 0x0FFF;
            if (vlanCount == 0)
            {
                vlanId = vid;
            }
            else
            {
                innerVlanId = vid;
            }
            vlanCount++;
            type = get16(p + 2);
            p += 4;
        }
        etherType = type;
        l3Offset = p;
        if (type == ETHERTYPE_IPV4)
        {
            parseIpv4(p, end);
        }
        else if (type == ETHERTYPE_IPV6)
        {
            parseIpv6(p, end);
        }
        else
        {
            l4Offset = p;
            payloadOffset = p;
            ipEnd = end;
        }
    }

    private static boolean isVlanTpid(final int type)
    {
        return type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_LEGACY;
    }

    private void parseIpv4(final int p, final int end)
    {
        if (end - p < 20)
        {
            malformedReason = TRUNCATED_L3;
            return;
        }
        final int versionIhl = get8(p);
        final int headerLength = (versionIhl & 0x0F) << 2;
        if ((versionIhl >>> 4) != 4 || headerLength < 20)
        {
            malformedReason = BAD_IP_HEADER;
            return;
        }
        if (end - p < headerLength)
        {
            malformedReason = TRUNCATED_L3;
            return;
        }
        final int totalLength = get16(p + 2);
        if (totalLength < headerLength)
        {
            malformedReason = BAD_IP_HEADER;
            return;
        }
        if (end - p < totalLength && !cutByCapture(p, totalLength))
        {
            malformedReason = TRUNCATED_L3;
            return;
        }
        ipVersion = 4;
        ipTotalLength = totalLength;
        declaredIpEnd = p + totalLength;
        ipEnd = Math.min(declaredIpEnd, end);
        ttl = get8(p + 8);
        ipProtocol = get8(p + 9);
        final int flagsOffset = get16(p + 6);
        moreFragments = (flagsOffset & 0x2000) != 0;
        fragmentOffset = (flagsOffset & 0x1FFF) << 3;
        fragment = moreFragments || fragmentOffset != 0;
        fragmentId = get16(p + 4);
        parseL4(p + headerLength);
    }

    private void parseIpv6(final int p, final int end)
    {
        if (end - p < 40)
        {
            malformedReason = TRUNCATED_L3;
            return;
        }
        if ((get8(p) >>> 4) != 6)
        {
            malformedReason = BAD_IP_HEADER;
            return;
        }
        final int totalLength = 40 + get16(p + 4);
        if (end - p < totalLength && !cutByCapture(p, totalLength))
        {
            malformedReason = TRUNCATED_L3;
            return;
        }
        ipVersion = 6;
        ipTotalLength = totalLength;
        declaredIpEnd = p + totalLength;
        ipEnd = Math.min(declaredIpEnd, end);
        ttl = get8(p + 7);
        int next = get8(p + 6);
        int q = p + 40;
        int skipped = 0;
        while (next == PROTO_HOPOPT || next == PROTO_IPV6_ROUTING || next == PROTO_IPV6_DSTOPTS ||
            next == PROTO_IPV6_FRAGMENT)
        {
            if (++skipped > MAX_IPV6_EXTENSION_HEADERS)
            {
                malformedReason = BAD_IP_HEADER;
                return;
            }
            if (ipEnd - q < 8)
            {
                malformedReason = TRUNCATED_L3;
                return;
            }
            final int extLength;
            if (next == PROTO_IPV6_FRAGMENT)
            {
                final int offsetFlags = get16(q + 2);
                fragmentOffset = offsetFlags & 0xFFF8;
                moreFragments = (offsetFlags & 1) != 0;
                fragment = true;
                fragmentId = get32(q + 4) & 0xFFFF_FFFFL;
                extLength = 8;
            }
            else
            {
                extLength = (get8(q + 1) + 1) << 3;
                if (ipEnd - q < extLength)
                {
                    malformedReason = TRUNCATED_L3;
                    return;
                }
            }
            next = get8(q);
            q += extLength;
        }
        ipProtocol = next;
        parseL4(q);
    }

    /**
     * A datagram that does not fit in the captured bytes is whole on the wire when the frame
     * was captured short (a snap length) and the datagram fits in the frame's wire length;
     * then it is parsed on the headers that were captured.
     */
    private boolean cutByCapture(final int l3Start, final int totalLength)
    {
        if (wireLength - (l3Start - offset) >= totalLength)
        {
            cutByCapture = true;
            return true;
        }
        return false;
    }

    private void parseL4(final int p)
    {
        l4Offset = p;
        payloadOffset = p;
        if (fragmentOffset != 0)
        {
            return;
        }
        final int available = ipEnd - p;
        switch (ipProtocol)
        {
            case PROTO_TCP:
            {
                if (available < 20)
                {
                    malformedReason = TRUNCATED_L4;
                    return;
                }
                final int headerLength = (get8(p + 12) >>> 4) << 2;
                if (headerLength < 20)
                {
                    malformedReason = BAD_L4_HEADER;
                    return;
                }
                if (available < headerLength)
                {
                    malformedReason = TRUNCATED_L4;
                    return;
                }
                srcPort = get16(p);
                dstPort = get16(p + 2);
                tcpFlags = get8(p + 13);
                hasPorts = true;
                checksumOffset = p + 16;
                payloadOffset = p + headerLength;
                return;
            }
            case PROTO_UDP:
            {
                if (available < 8)
                {
                    malformedReason = TRUNCATED_L4;
                    return;
                }
                final int udpLength = get16(p + 4);
                // A first fragment holds only part of the datagram the UDP length describes.
                if (udpLength < 8 || (!fragment && udpLength > declaredIpEnd - p))
                {
                    malformedReason = BAD_L4_HEADER;
                    return;
                }
                srcPort = get16(p);
                dstPort = get16(p + 2);
                hasPorts = true;
                checksumOffset = p + 6;
                payloadOffset = p + 8;
                return;
            }
            case PROTO_ICMP:
            case PROTO_ICMPV6:
            {
                if (available < 4)
                {
                    malformedReason = TRUNCATED_L4;
                    return;
                }
                icmpType = get8(p);
                if (ipProtocol == PROTO_ICMPV6)
                {
                    // the ICMPv6 checksum covers the pseudo-header (RFC 4443), so address rewrites update it
                    checksumOffset = p + 2;
                }
                payloadOffset = p + Math.min(8, available);
                return;
            }
            default:
                return;
        }
    }

    /** @return true unless a layer announced by the frame is truncated or inconsistent. */
    public boolean isValid()
    {
        return malformedReason == NOT_MALFORMED;
    }

    /** @return one of the malformed-reason constants; {@link #NOT_MALFORMED} if valid. */
    public int malformedReason()
    {
        return malformedReason;
    }

    /**
     * The unsigned byte at {@code index} of the wrapped memory.
     *
     * @param index an index inside the frame, {@code offset()} to {@code offset() + frameLength() - 1}.
     * @return 0 to 255.
     * @throws IndexOutOfBoundsException if the byte is not part of the frame.
     */
    public int getU8(final int index)
    {
        checkInFrame(index, 1);
        return get8(index);
    }

    /**
     * The big-endian (network order) unsigned 16-bit word at {@code index}.
     *
     * @param index index of its first byte; both bytes must be part of the frame.
     * @return 0 to 65535.
     * @throws IndexOutOfBoundsException if a byte is not part of the frame.
     */
    public int getU16(final int index)
    {
        checkInFrame(index, 2);
        return get16(index);
    }

    /**
     * The big-endian (network order) 32-bit value at {@code index}.
     *
     * @param index index of its first byte; all four bytes must be part of the frame.
     * @return the value.
     * @throws IndexOutOfBoundsException if a byte is not part of the frame.
     */
    public int getInt(final int index)
    {
        checkInFrame(index, 4);
        return get32(index);
    }

    /**
     * The big-endian (network order) 64-bit value at {@code index}.
     *
     * @param index index of its first byte; all eight bytes must be part of the frame.
     * @return the value.
     * @throws IndexOutOfBoundsException if a byte is not part of the frame.
     */
    public long getLong(final int index)
    {
        checkInFrame(index, 8);
        return get64(index);
    }

    /**
     * Copy bytes of the frame out, e.g. a payload for inspection or the whole frame
     * ({@code getBytes(offset(), dst, 0, frameLength())}).
     *
     * @param index     index of the first byte to copy; every copied byte must be part of the frame.
     * @param dst       where to copy to.
     * @param dstOffset index in {@code dst} of the first byte written.
     * @param length    bytes to copy.
     * @throws IndexOutOfBoundsException if a byte is not part of the frame or does not fit in {@code dst}.
     */
    public void getBytes(final int index, final byte[] dst, final int dstOffset, final int length)
    {
        checkInFrame(index, length);
        Objects.checkFromIndexSize(dstOffset, length, dst.length);
        if (array != null)
        {
            System.arraycopy(array, index, dst, dstOffset, length);
        }
        else
        {
            memory.get(index, dst, dstOffset, length);
        }
    }

    private void checkInFrame(final int index, final int size)
    {
        Objects.checkFromIndexSize(index - offset, size, frameLength);
    }

    /** @return index of the frame's first byte in the wrapped array or buffer. */
    public int offset()
    {
        return offset;
    }

    /** @return captured length of the frame. */
    public int frameLength()
    {
        return frameLength;
    }

    /** @return length of the frame on the wire, at least {@link #frameLength()}. */
    public int wireLength()
    {
        return wireLength;
    }

    /** @return the frame's {@link LinkType}: what the bytes at {@link #offset()} are. */
    public int linkType()
    {
        return linkType;
    }

    /**
     * @return true if the capture ends inside the IP datagram (a snap length cut it): the
     *         headers were captured and parsed, and {@link #payloadLength()} counts only the
     *         payload bytes captured. Rewrites work as on a whole frame (checksums are updated
     *         incrementally, never recomputed over the payload).
     */
    public boolean isCutByCapture()
    {
        return cutByCapture;
    }

    /** @return the EtherType after the VLAN tags (0x0800 IPv4, 0x86dd IPv6, ...). */
    public int etherType()
    {
        return etherType;
    }

    /** @return number of VLAN tags parsed, 0 to {@link #MAX_VLAN_TAGS}. */
    public int vlanCount()
    {
        return vlanCount;
    }

    /** @return VLAN id (12 bits) of the outermost tag, 0 if untagged. */
    public int vlanId()
    {
        return vlanId;
    }

    /** @return VLAN id of the second (inner, customer) tag, 0 if fewer than two tags. */
    public int innerVlanId()
    {
        return innerVlanId;
    }

    /** @return true if the IP header was parsed (IPv4 or IPv6), even if L4 is malformed. */
    public boolean isIp()
    {
        return ipVersion != 0;
    }

    /** @return true for a parsed IPv4 header. */
    public boolean isIpv4()
    {
        return ipVersion == 4;
    }

    /** @return true for a parsed IPv6 header. */
    public boolean isIpv6()
    {
        return ipVersion == 6;
    }

    /** @return transport protocol number (after IPv6 extension headers), or {@link #NO_PROTOCOL}. */
    public int ipProtocol()
    {
        return ipProtocol;
    }

    /** @return IPv4 source address as a big-endian int (0 unless IPv4). */
    public int srcIpv4()
    {
        return ipVersion == 4 ? get32(l3Offset + 12) : 0;
    }

    /** @return IPv4 destination address as a big-endian int (0 unless IPv4). */
    public int dstIpv4()
    {
        return ipVersion == 4 ? get32(l3Offset + 16) : 0;
    }

    /** @return upper 64 bits of the IPv6 source address (0 unless IPv6). */
    public long srcIpv6High()
    {
        return ipVersion == 6 ? get64(l3Offset + 8) : 0;
    }

    /** @return lower 64 bits of the IPv6 source address (0 unless IPv6). */
    public long srcIpv6Low()
    {
        return ipVersion == 6 ? get64(l3Offset + 16) : 0;
    }

    /** @return upper 64 bits of the IPv6 destination address (0 unless IPv6). */
    public long dstIpv6High()
    {
        return ipVersion == 6 ? get64(l3Offset + 24) : 0;
    }

    /** @return lower 64 bits of the IPv6 destination address (0 unless IPv6). */
    public long dstIpv6Low()
    {
        return ipVersion == 6 ? get64(l3Offset + 32) : 0;
    }

    /** @return IPv4 TTL or IPv6 hop limit. */
    public int ttl()
    {
        return ttl;
    }

    /** @return IPv4 total length, or 40 + IPv6 payload length. */
    public int ipTotalLength()
    {
        return ipTotalLength;
    }

    /** @return true if the packet is an IP fragment (first or not). */
    public boolean isFragment()
    {
        return fragment;
    }

    /** @return true if the packet is the fragment at offset 0 of a fragmented datagram. */
    public boolean isFirstFragment()
    {
        return fragment && fragmentOffset == 0;
    }

    /** @return true if the "more fragments" flag is set. */
    public boolean hasMoreFragments()
    {
        return moreFragments;
    }

    /** @return fragment offset in bytes (0 for unfragmented packets and first fragments). */
    public int fragmentOffset()
    {
        return fragmentOffset;
    }

    /**
     * @return the identification that groups a datagram's fragments: the IPv4 header's 16-bit
     *         identification, or the IPv6 fragment header's 32-bit one (0 for an IPv6 packet
     *         without a fragment header).
     */
    public long fragmentId()
    {
        return fragmentId;
    }

    /**
     * @return true if the packet has its datagram's TCP/UDP ports: parsed from its own header,
     *         or, for a non-first fragment, given by {@link #recoverPorts(int, int)}.
     */
    public boolean hasPorts()
    {
        return hasPorts;
    }

    /** @return true for a non-first fragment whose ports came from {@link #recoverPorts(int, int)}. */
    public boolean portsRecovered()
    {
        return portsRecovered;
    }

    /**
     * Gives a non-first TCP or UDP fragment its datagram's ports, remembered from the first
     * fragment. Only the view changes: the fragment's bytes stay as they are. Lasts until the
     * next {@code wrap}.
     *
     * @param source      the datagram's source port.
     * @param destination the datagram's destination port.
     * @return false, changing nothing, unless the packet is a valid non-first TCP or UDP fragment.
     */
    public boolean recoverPorts(final int source, final int destination)
    {
        if (!isValid() || fragmentOffset == 0 || (ipProtocol != PROTO_TCP && ipProtocol != PROTO_UDP))
        {
            return false;
        }
        srcPort = source & 0xFFFF;
        dstPort = destination & 0xFFFF;
        hasPorts = true;
        portsRecovered = true;
        return true;
    }

    /**
     * Gives a non-first ICMP or ICMPv6 fragment its datagram's ICMP type, remembered from the
     * first fragment, so that {@link #icmpType()} classifies it as its first. Only the view
     * changes. Lasts until the next {@code wrap}.
     *
     * @param type the type in the datagram's first fragment.
     * @return false, changing nothing, unless the packet is a valid non-first ICMP or ICMPv6 fragment.
     */
    public boolean recoverIcmpType(final int type)
    {
        if (!isValid() || fragmentOffset == 0 || (ipProtocol != PROTO_ICMP && ipProtocol != PROTO_ICMPV6))
        {
            return false;
        }
        icmpType = type & 0xFF;
        icmpTypeRecovered = true;
        return true;
    }

    /**
     * Gives a non-first fragment of an ICMP/ICMPv6 error, whose type was recovered with
     * {@link #recoverIcmpType(int)}, the packet its first fragment quotes, so that
     * {@link IcmpErrorQuote#wrap(PacketFlyweight)} reads the quote as in the first fragment.
     * An IPv4 quote's addresses are in the low 32 bits of {@code srcLow}/{@code dstLow}.
     * Only the view changes: the fragment holds no quote, and a translator's rewrite of it
     * ({@link IcmpErrorQuote#setSrcIpv4}) changes only these values. Lasts until the next {@code wrap}.
     *
     * @param protocol the quoted packet's protocol.
     * @param srcHigh  upper 64 bits of its IPv6 source, 0 for IPv4.
     * @param srcLow   lower 64 bits of its IPv6 source, or its IPv4 source as an unsigned number.
     * @param dstHigh  upper 64 bits of its IPv6 destination, 0 for IPv4.
     * @param dstLow   lower 64 bits of its IPv6 destination, or its IPv4 destination.
     * @param srcPort  its source port, 0 when not quoted.
     * @param dstPort  its destination port, 0 when not quoted.
     * @return false, changing nothing, unless the fragment's ICMP type was recovered.
     */
    public boolean recoverIcmpQuote(
        final int protocol,
        final long srcHigh,
        final long srcLow,
        final long dstHigh,
        final long dstLow,
        final int srcPort,
        final int dstPort)
    {
        if (!icmpTypeRecovered)
        {
            return false;
        }
        quoteProtocol = protocol & 0xFF;
        quoteSrcHigh = srcHigh;
        quoteSrcLow = srcLow;
        quoteDstHigh = dstHigh;
        quoteDstLow = dstLow;
        quoteSrcPort = srcPort & 0xFFFF;
        quoteDstPort = dstPort & 0xFFFF;
        return true;
    }

    /** @return true for a non-first ICMP/ICMPv6 fragment whose type came from {@link #recoverIcmpType(int)}. */
    public boolean icmpTypeRecovered()
    {
        return icmpTypeRecovered;
    }

    /** @return true for a non-first fragment of an ICMP error given its quote by {@link #recoverIcmpQuote}. */
    public boolean quoteRecovered()
    {
        return quoteProtocol != NO_PROTOCOL;
    }

    /** A translator's rewrite of a recovered IPv4 quote's source or destination: the view's values only. */
    void rewriteRecoveredQuote(final boolean source, final int address, final int port)
    {
        if (source)
        {
            quoteSrcLow = Integer.toUnsignedLong(address);
            quoteSrcPort = port & 0xFFFF;
        }
        else
        {
            quoteDstLow = Integer.toUnsignedLong(address);
            quoteDstPort = port & 0xFFFF;
        }
    }

    int quoteProtocol()
    {
        return quoteProtocol;
    }

    long quoteSrcHigh()
    {
        return quoteSrcHigh;
    }

    long quoteSrcLow()
    {
        return quoteSrcLow;
    }

    long quoteDstHigh()
    {
        return quoteDstHigh;
    }

    long quoteDstLow()
    {
        return quoteDstLow;
    }

    int quoteSrcPort()
    {
        return quoteSrcPort;
    }

    int quoteDstPort()
    {
        return quoteDstPort;
    }

    /**
     * @return true for a well-formed IPv4 TCP or UDP packet whose ports are known (its own, or
     *         a non-first fragment's recovered ones): the packets a port-translating or
     *         connection-tracking VNF handles; everything else it passes through.
     */
    public boolean isIpv4WithPorts()
    {
        return isValid() && ipVersion == 4 && hasPorts && (ipProtocol == PROTO_TCP || ipProtocol == PROTO_UDP);
    }

    /**
     * @return true for a well-formed IPv6 TCP or UDP packet whose ports are known (its own or
     *         recovered): the IPv6
     *         counterpart of {@link #isIpv4WithPorts()}.
     */
    public boolean isIpv6WithPorts()
    {
        return isValid() && ipVersion == 6 && hasPorts && (ipProtocol == PROTO_TCP || ipProtocol == PROTO_UDP);
    }

    /** @return TCP/UDP source port (recovered for a non-first fragment), 0 when {@link #hasPorts()} is false. */
    public int srcPort()
    {
        return srcPort;
    }

    /** @return TCP/UDP destination port, 0 when {@link #hasPorts()} is false. */
    public int dstPort()
    {
        return dstPort;
    }

    /** @return TCP flags byte (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20), 0 if not TCP. */
    public int tcpFlags()
    {
        return tcpFlags;
    }

    /** @return true for TCP with SYN set. */
    public boolean isSyn()
    {
        return (tcpFlags & TCP_SYN) != 0;
    }

    /** @return true for TCP with ACK set. */
    public boolean isAck()
    {
        return (tcpFlags & TCP_ACK) != 0;
    }

    /** @return true for TCP with FIN set. */
    public boolean isFin()
    {
        return (tcpFlags & TCP_FIN) != 0;
    }

    /** @return true for TCP with RST set. */
    public boolean isRst()
    {
        return (tcpFlags & TCP_RST) != 0;
    }

    /**
     * @return ICMP or ICMPv6 type (for a non-first fragment, its first fragment's when
     *         {@link #icmpTypeRecovered() recovered}, else 0); 0 for other protocols (0 is also
     *         echo reply: check {@link #ipProtocol()}).
     */
    public int icmpType()
    {
        return icmpType;
    }

    /** @return index of the IP header in the wrapped memory (after VLAN tags). */
    public int l3Offset()
    {
        return l3Offset;
    }

    /** @return index of the transport header (or of a non-first fragment's data) in the wrapped memory. */
    public int l4Offset()
    {
        return l4Offset;
    }

    /** @return index of the first payload byte after the transport header. */
    public int payloadOffset()
    {
        return payloadOffset;
    }

    /**
     * @return payload bytes after the transport header up to the end of the IP datagram, or of
     *         the capture if it ends first ({@link #isCutByCapture()}); 0 if malformed.
     */
    public int payloadLength()
    {
        return malformedReason == NOT_MALFORMED ? ipEnd - payloadOffset : 0;
    }

    /**
     * Rewrite the IPv4 source address, updating the IP and TCP/UDP checksums.
     *
     * @param address new address, big-endian int.
     * @return false, changing nothing, if the packet is not a valid IPv4 packet.
     */
    public boolean setSrcIpv4(final int address)
    {
        return setIpv4Address(l3Offset + 12, address);
    }

    /**
     * Rewrite the IPv4 destination address, updating the IP and TCP/UDP checksums.
     *
     * @param address new address, big-endian int.
     * @return false, changing nothing, if the packet is not a valid IPv4 packet.
     */
    public boolean setDstIpv4(final int address)
    {
        return setIpv4Address(l3Offset + 16, address);
    }

    /**
     * Rewrite the IPv6 destination address, updating the TCP, UDP or ICMPv6 checksum, whose
     * pseudo-header covers it (IPv6 has no header checksum).
     *
     * @param high upper 64 bits of the new address.
     * @param low  lower 64 bits.
     * @return false, changing nothing, if the packet is not a valid IPv6 packet.
     */
    public boolean setDstIpv6(final long high, final long low)
    {
        if (ipVersion != 6 || !isValid())
        {
            return false;
        }
        final int index = l3Offset + 24;
        setIpv6Word(index, (int)(high >>> 32));
        setIpv6Word(index + 4, (int)high);
        setIpv6Word(index + 8, (int)(low >>> 32));
        setIpv6Word(index + 12, (int)low);
        return true;
    }

    private void setIpv6Word(final int index, final int value)
    {
        final int old = get32(index);
        put32(index, value);
        if (checksumOffset >= 0)
        {
            updateL4Checksum32(old, value);
        }
    }

    /**
     * Rewrite the TCP/UDP source port, updating the transport checksum. For a fragment with
     * {@link #portsRecovered() recovered ports} only the view's port changes.
     *
     * @param port new port, 0 to 65535.
     * @return false, changing nothing, if the packet has no ports ({@link #hasPorts()}).
     */
    public boolean setSrcPort(final int port)
    {
        if (!hasPorts || !isValid())
        {
            return false;
        }
        if (!portsRecovered)
        {
            setPort(l4Offset, srcPort, port);
        }
        srcPort = port & 0xFFFF;
        return true;
    }

    /**
     * Rewrite the TCP/UDP destination port, updating the transport checksum. For a fragment
     * with {@link #portsRecovered() recovered ports} only the view's port changes.
     *
     * @param port new port, 0 to 65535.
     * @return false, changing nothing, if the packet has no ports ({@link #hasPorts()}).
     */
    public boolean setDstPort(final int port)
    {
        if (!hasPorts || !isValid())
        {
            return false;
        }
        if (!portsRecovered)
        {
            setPort(l4Offset + 2, dstPort, port);
        }
        dstPort = port & 0xFFFF;
        return true;
    }

    /**
     * Set the IPv4 TTL, updating the header checksum (e.g. a router's decrement).
     *
     * @param newTtl 0 to 255.
     * @return false, changing nothing, if the packet is not a valid IPv4 packet.
     */
    public boolean setTtl(final int newTtl)
    {
        if (ipVersion != 4 || !isValid())
        {
            return false;
        }
        final int wordIndex = l3Offset + 8;
        final int oldWord = get16(wordIndex);
        put8(wordIndex, newTtl);
        final int newWord = get16(wordIndex);
        final int ipChecksumIndex = l3Offset + 10;
        put16(ipChecksumIndex, Checksums.update16(get16(ipChecksumIndex), oldWord, newWord));
        ttl = newTtl & 0xFF;
        return true;
    }

    private boolean setIpv4Address(final int index, final int address)
    {
        if (ipVersion != 4 || !isValid())
        {
            return false;
        }
        final int old = get32(index);
        put32(index, address);
        final int ipChecksumIndex = l3Offset + 10;
        put16(ipChecksumIndex, Checksums.update32(get16(ipChecksumIndex), old, address));
        if (checksumOffset >= 0)
        {
            updateL4Checksum32(old, address);
        }
        return true;
    }

    private void setPort(final int index, final int oldPort, final int newPort)
    {
        put16(index, newPort);
        if (checksumOffset >= 0)
        {
            final int old = get16(checksumOffset);
            if (ipProtocol == PROTO_UDP && old == 0)
            {
                return;
            }
            put16(checksumOffset, fixUdpZero(Checksums.update16(old, oldPort & 0xFFFF, newPort & 0xFFFF)));
        }
    }

    private void updateL4Checksum32(final int oldValue, final int newValue)
    {
        final int old = get16(checksumOffset);
        if (ipProtocol == PROTO_UDP && old == 0)
        {
            return;
        }
        put16(checksumOffset, fixUdpZero(Checksums.update32(old, oldValue, newValue)));
    }

    private int fixUdpZero(final int checksum)
    {
        // RFC 768: a computed UDP checksum of 0 is sent as 0xffff; 0 means "no checksum".
        return ipProtocol == PROTO_UDP && checksum == 0 ? 0xFFFF : checksum;
    }

    // Unchecked reads and writes of the wrapped memory, network byte order. Indices are
    // absolute; the parser never reaches past the frame, the public getters check.

    private int get8(final int i)
    {
        final byte[] a = array;
        return (a != null ? a[i] : memory.get(i)) & 0xFF;
    }

    private int get16(final int i)
    {
        final byte[] a = array;
        return a != null ? u16(a, i) : memory.getShort(i) & 0xFFFF;
    }

    private int get32(final int i)
    {
        final byte[] a = array;
        return a != null ? i32(a, i) : memory.getInt(i);
    }

    private long get64(final int i)
    {
        final byte[] a = array;
        return a != null ? i64(a, i) : memory.getLong(i);
    }

    private void put8(final int i, final int v)
    {
        final byte[] a = array;
        if (a != null)
        {
            a[i] = (byte)v;
        }
        else
        {
            memory.put(i, (byte)v);
        }
    }

    private void put16(final int i, final int v)
    {
        final byte[] a = array;
        if (a != null)
        {
            putU16(a, i, v);
        }
        else
        {
            memory.putShort(i, (short)v);
        }
    }

    private void put32(final int i, final int v)
    {
        final byte[] a = array;
        if (a != null)
        {
            putI32(a, i, v);
        }
        else
        {
            memory.putInt(i, v);
        }
    }

    /** @return the wrapped array, or null when the frame is in a buffer ({@link #memory()}). */
    byte[] array()
    {
        return array;
    }

    /** @return the wrapped buffer in network byte order, or null when the frame is in an array. */
    ByteBuffer memory()
    {
        return memory;
    }

    static int u16(final byte[] b, final int i)
    {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    static int i32(final byte[] b, final int i)
    {
        return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }

    static long i64(final byte[] b, final int i)
    {
        return ((long)i32(b, i) << 32) | (i32(b, i + 4) & 0xFFFF_FFFFL);
    }

    static void putU16(final byte[] b, final int i, final int v)
    {
        b[i] = (byte)(v >>> 8);
        b[i + 1] = (byte)v;
    }

    static void putI32(final byte[] b, final int i, final int v)
    {
        b[i] = (byte)(v >>> 24);
        b[i + 1] = (byte)(v >>> 16);
        b[i + 2] = (byte)(v >>> 8);
        b[i + 3] = (byte)v;
    }

    /** @return a short description for debugging; allocates. */
    @Override
    public String toString()
    {
        return isValid() ? FiveTupleFormat.format(this) : "malformed " + malformedReasonName(malformedReason);
    }
}
