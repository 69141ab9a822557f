package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Internet checksums (RFC 1071): full computation from scratch and incremental update
 * (RFC 1624, eqn. 3: {@code HC' = ~(~HC + ~m + m')}).
 *
 * <p>Stateless and allocation-free; any thread may call it. Checksum values are the
 * 16-bit field values as they appear on the wire, held in the low bits of an int. Bytes
 * may be in an array or in a {@link ByteBuffer} (heap or direct, read with absolute
 * accesses, whatever its byte order); the methods taking a {@link PacketFlyweight} read
 * whichever memory the view wraps.
 */
public final class Checksums
{
    private Checksums()
    {
    }

    /**
     * One's-complement sum of {@code length} bytes taken as big-endian 16-bit words (an odd
     * last byte is padded with zero), added to {@code initial}. The result is not folded.
     *
     * @param buffer  bytes to sum.
     * @param offset  first byte.
     * @param length  number of bytes.
     * @param initial running sum to add to.
     * @return the unfolded 32-bit-plus sum as a long.
     */
    public static long sum(final byte[] buffer, final int offset, final int length, final long initial)
    {
        long sum = initial;
        final int end = offset + length;
        int i = offset;
        for (; i + 1 < end; i += 2)
        {
            sum += ((buffer[i] & 0xFF) << 8) | (buffer[i + 1] & 0xFF);
        }
        if (i < end)
        {
            sum += (buffer[i] & 0xFF) << 8;
        }
        return sum;
    }

    /**
     * {@link #sum(byte[], int, int, long)} over bytes in a buffer, read with absolute
     * accesses: the buffer's position, limit and byte order do not matter and do not change.
     *
     * @param buffer  bytes to sum.
     * @param offset  index of the first byte.
     * @param length  number of bytes.
     * @param initial running sum to add to.
     * @return the unfolded 32-bit-plus sum as a long.
     */
    public static long sum(final ByteBuffer buffer, final int offset, final int length, final long initial)
    {
        final boolean bigEndian = buffer.order() == ByteOrder.BIG_ENDIAN;
        long sum = initial;
        final int end = offset + length;
        int i = offset;
        for (; i + 1 < end; i += 2)
        {
            final short word = buffer.getShort(i);
            sum += (bigEndian ? word : Short.reverseBytes(word)) & 0xFFFF;
        }
        if (i < end)
        {
            sum += (buffer.get(i) & 0xFF) << 8;
        }
        return sum;
    }

    /**
     * Fold a sum to 16 bits with end-around carry.
     *
     * @param sum an unfolded one's-complement sum.
     * @return the folded sum, 0 to 0xffff.
     */
    public static int fold(final long sum)
    {
        long s = sum;
        while ((s >>> 16) != 0)
        {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int)s;
    }

    /**
     * Compute an IPv4 header checksum from scratch, treating the checksum field as zero.
     *
     * @param buffer   frame bytes.
     * @param l3Offset index of the IPv4 header.
     * @return the checksum field value.
     */
    public static int ipv4Header(final byte[] buffer, final int l3Offset)
    {
        final int headerLength = (buffer[l3Offset] & 0x0F) << 2;
        long s = sum(buffer, l3Offset, headerLength, 0);
        s -= ((buffer[l3Offset + 10] & 0xFF) << 8) | (buffer[l3Offset + 11] & 0xFF);
        return ~fold(s) & 0xFFFF;
    }

    /**
     * {@link #ipv4Header(byte[], int)} over a header held in a buffer.
     *
     * @param buffer   frame bytes, any byte order.
     * @param l3Offset index of the IPv4 header.
     * @return the checksum field value.
     */
    public static int ipv4Header(final ByteBuffer buffer, final int l3Offset)
    {
        final int headerLength = (buffer.get(l3Offset) & 0x0F) << 2;
        long s = sum(buffer, l3Offset, headerLength, 0);
        s -= ((buffer.get(l3Offset + 10) & 0xFF) << 8) | (buffer.get(l3Offset + 11) & 0xFF);
        return ~fold(s) & 0xFFFF;
    }

    /**
     * Compute the IPv4 header checksum of a packet from scratch, treating the checksum field
     * as zero, in whichever memory the view wraps.
     *
     * @param packet a valid IPv4 packet.
     * @return the checksum field value.
     */
    public static int ipv4Header(final PacketFlyweight packet)
    {
        final byte[] array = packet.array();
        return array != null ? ipv4Header(array, packet.l3Offset()) : ipv4Header(packet.memory(), packet.l3Offset());
    }

    /**
     * Compute a TCP, UDP or ICMPv6 checksum from scratch over the pseudo-header and the
     * whole transport segment of an unfragmented IPv4 or IPv6 packet, treating the checksum
     * field as zero. For UDP a result of 0 is returned as 0xffff (RFC 768). For ICMP over
     * IPv4 (no pseudo-header) use {@link #icmpv4(PacketFlyweight)}.
     *
     * @param packet a valid, unfragmented IPv4/IPv6 packet carrying TCP, UDP or ICMPv6.
     * @return the checksum field value.
     */
    public static int transport(final PacketFlyweight packet)
    {
        final int l3 = packet.l3Offset();
        final int l4 = packet.l4Offset();
        final int protocol = packet.ipProtocol();
        final int segmentLength = packet.l3Offset() + packet.ipTotalLength() - l4;
        long s;
        if (packet.isIpv4())
        {
            s = sum(packet, l3 + 12, 8, 0);
        }
        else
        {
            s = sum(packet, l3 + 8, 32, 0);
        }
        s += protocol;
        s += segmentLength;
        s = sum(packet, l4, segmentLength, s);
        s -= packet.getU16(l4 + checksumFieldOffset(protocol));
        final int checksum = ~fold(s) & 0xFFFF;
        return protocol == PacketFlyweight.PROTO_UDP && checksum == 0 ? 0xFFFF : checksum;
    }

    /**
     * Compute an ICMP (IPv4) checksum from scratch over the ICMP message, treating the
     * checksum field as zero.
     *
     * @param packet a valid, unfragmented IPv4 ICMP packet.
     * @return the checksum field value.
     */
    public static int icmpv4(final PacketFlyweight packet)
    {
        final int l4 = packet.l4Offset();
        final int length = packet.l3Offset() + packet.ipTotalLength() - l4;
        long s = sum(packet, l4, length, 0);
        s -= packet.getU16(l4 + 2);
        return ~fold(s) & 0xFFFF;
    }

    private static long sum(final PacketFlyweight packet, final int offset, final int length, final long initial)
    {
        final byte[] array = packet.array();
        return array != null ? sum(array, offset, length, initial) : sum(packet.memory(), offset, length, initial);
    }

    /**
     * Offset of the checksum field inside a transport header.
     *
     * @param protocol IP protocol number.
     * @return 16 for TCP, 6 for UDP, 2 for ICMP/ICMPv6.
     * @throws IllegalArgumentException for other protocols.
     */
    public static int checksumFieldOffset(final int protocol)
    {
        switch (protocol)
        {
            case PacketFlyweight.PROTO_TCP:
                return 16;
            case PacketFlyweight.PROTO_UDP:
                return 6;
            case PacketFlyweight.PROTO_ICMP:
            case PacketFlyweight.PROTO_ICMPV6:
                return 2;
            default:
                throw new IllegalArgumentException("no checksum field known for IP protocol " + protocol);
        }
    }

    /**
     * Incrementally update a checksum after one 16-bit word changed (RFC 1624, eqn. 3).
     *
     * @param checksum the old checksum field value.
     * @param oldWord  the old 16-bit word.
     * @param newWord  the new 16-bit word.
     * @return the new checksum field value.
     */
    public static int update16(final int checksum, final int oldWord, final int newWord)
    {
        final long s = (~checksum & 0xFFFF) + (~oldWord & 0xFFFF) + (newWord & 0xFFFF);
        return ~fold(s) & 0xFFFF;
    }

    /**
     * Incrementally update a checksum after a 32-bit value (two aligned words, e.g. an IPv4
     * address) changed.
     *
     * @param checksum the old checksum field value.
     * @param oldValue the old 32-bit value.
     * @param newValue the new 32-bit value.
     * @return the new checksum field value.
     */
    public static int update32(final int checksum, final int oldValue, final int newValue)
    {
        final long s = (~checksum & 0xFFFF) +
            (~(oldValue >>> 16) & 0xFFFF) + (~oldValue & 0xFFFF) +
            ((newValue >>> 16) & 0xFFFF) + (newValue & 0xFFFF);
        return ~fold(s) & 0xFFFF;
    }
}
