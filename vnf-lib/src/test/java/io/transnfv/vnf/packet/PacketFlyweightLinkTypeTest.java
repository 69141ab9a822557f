package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames behind link headers other than Ethernet, and frames captured shorter than they were on the wire. */
class PacketFlyweightLinkTypeTest
{
    private static final int CLIENT = Ipv4.parse("10.0.0.1");
    private static final int SERVER = Ipv4.parse("192.168.1.5");

    private final FrameBuilder builder = new FrameBuilder();
    private final PacketFlyweight packet = new PacketFlyweight();

    /** The Ethernet frame's network layer behind the link header of {@code linkType}, written as a capture would. */
    static byte[] relink(final byte[] ethernet, final int length, final int linkType, final boolean littleEndianFamily)
    {
        final int etherType = PacketFlyweight.u16(ethernet, 12);
        final byte[] network = Arrays.copyOfRange(ethernet, PacketFlyweight.ETHERNET_HEADER_LENGTH, length);
        final byte[] header;
        switch (linkType)
        {
            case LinkType.NULL:
            case LinkType.LOOP:
            {
                final int family = etherType == PacketFlyweight.ETHERTYPE_IPV4 ? 2 : 30;
                final ByteBuffer b = ByteBuffer.allocate(4);
                b.putInt(littleEndianFamily ? Integer.reverseBytes(family) : family);
                header = b.array();
                break;
            }
            case LinkType.LINUX_SLL:
            {
                // packet type 0 (to us), ARPHRD_ETHER, 6-byte address, protocol
                final ByteBuffer b = ByteBuffer.allocate(16);
                b.putShort((short)0).putShort((short)1).putShort((short)6).put(ethernet, 6, 6).putShort((short)0)
                    .putShort((short)etherType);
                header = b.array();
                break;
            }
            case LinkType.LINUX_SLL2:
            {
                // protocol, reserved, interface index, ARPHRD_ETHER, packet type, address length, address
                final ByteBuffer b = ByteBuffer.allocate(20);
                b.putShort((short)etherType).putShort((short)0).putInt(3).putShort((short)1).put((byte)0).put((byte)6)
                    .put(ethernet, 6, 6).putShort((short)0);
                header = b.array();
                break;
            }
            default:
                throw new IllegalArgumentException("link type " + linkType);
        }
        final byte[] frame = Arrays.copyOf(header, header.length + network.length);
        System.arraycopy(network, 0, frame, header.length, network.length);
        return frame;
    }

    @ParameterizedTest
    @ValueSource(ints = {LinkType.NULL, LinkType.LOOP, LinkType.LINUX_SLL, LinkType.LINUX_SLL2})
    void shouldParseTheSameIpv4TcpPacketBehindEveryLinkHeader(final int linkType)
    {
        final byte[] ethernet = new byte[256];
        final int length = builder.reset().ipv4(CLIENT, SERVER).tcp(40000, 443, PacketFlyweight.TCP_SYN, 1, 0)
            .payload(12, (byte)'p').write(ethernet, 0);
        final byte[] frame = relink(ethernet, length, linkType, linkType == LinkType.NULL);
        final int linkHeader = frame.length - (length - PacketFlyweight.ETHERNET_HEADER_LENGTH);

        packet.wrap(frame, 0, frame.length, frame.length, linkType);

        assertTrue(packet.isValid(), packet.toString());
        assertEquals(linkType, packet.linkType());
        assertEquals(PacketFlyweight.ETHERTYPE_IPV4, packet.etherType());
        assertEquals(linkHeader, packet.l3Offset());
        assertEquals(CLIENT, packet.srcIpv4());
        assertEquals(SERVER, packet.dstIpv4());
        assertEquals(40000, packet.srcPort());
        assertEquals(443, packet.dstPort());
        assertTrue(packet.isSyn());
        assertEquals(12, packet.payloadLength());
        assertEquals(FlowKeys.fiveTuple(new PacketFlyweight().wrap(ethernet, 0, length)), FlowKeys.fiveTuple(packet));
    }

    @ParameterizedTest
    @ValueSource(ints = {LinkType.LINUX_SLL, LinkType.LINUX_SLL2})
    void shouldParseTheSameFrameInADirectBufferAsInAnArray(final int linkType)
    {
        final byte[] ethernet = new byte[256];
        final int length = builder.reset().ipv4(CLIENT, SERVER).udp(53, 5353).payload(20, (byte)'d').write(ethernet, 0);
        final byte[] frame = relink(ethernet, length, linkType, false);
        final ByteBuffer direct = ByteBuffer.allocateDirect(frame.length + 7);
        direct.put(7, frame);

        packet.wrap(direct, 7, frame.length, frame.length, linkType);

        assertTrue(packet.isValid(), packet.toString());
        assertEquals(7 + frame.length - (length - PacketFlyweight.ETHERNET_HEADER_LENGTH), packet.l3Offset());
        assertEquals(53, packet.srcPort());
        assertEquals(5353, packet.dstPort());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 24, 28, 30})
    void shouldTakeEveryOperatingSystemsIpv6FamilyOnALoopbackFrameInEitherByteOrder(final int family)
    {
        final byte[] ethernet = new byte[256];
        final int length = builder.reset().ipv6(1, 2, 3, 4).udp(1000, 2000).write(ethernet, 0);
        final byte[] network = Arrays.copyOfRange(ethernet, 14, length);
        for (final boolean littleEndian : new boolean[] {false, true})
        {
            final byte[] frame = new byte[4 + network.length];
            ByteBuffer.wrap(frame).putInt(littleEndian ? Integer.reverseBytes(family) : family).put(network);

            packet.wrap(frame, 0, frame.length, frame.length, LinkType.NULL);

            assertTrue(packet.isValid());
            assertTrue(packet.isIpv6(), "family " + family + (littleEndian ? " little-endian" : " big-endian"));
            assertEquals(2000, packet.dstPort());
        }
    }

    @Test
    void shouldTreatALoopbackFrameOfAnotherFamilyAsValidButNotIp()
    {
        final byte[] frame = {0, 0, 0, 7, 0x45, 0, 0, 20};

        packet.wrap(frame, 0, frame.length, frame.length, LinkType.LOOP);

        assertTrue(packet.isValid());
        assertFalse(packet.isIp());
    }

    @ParameterizedTest
    @ValueSource(ints = {LinkType.NULL, LinkType.LOOP, LinkType.LINUX_SLL, LinkType.LINUX_SLL2})
    void shouldCallAFrameShorterThanItsLinkHeaderTruncatedL2(final int linkType)
    {
        final byte[] frame = new byte[3];

        packet.wrap(frame, 0, frame.length, frame.length, linkType);

        assertEquals(PacketFlyweight.TRUNCATED_L2, packet.malformedReason());
    }

    @Test
    void shouldFollowVlanTagsAfterACookedHeader()
    {
        final byte[] ethernet = new byte[256];
        final int length = builder.reset().vlan(PacketFlyweight.ETHERTYPE_VLAN, 42).ipv4(CLIENT, SERVER).udp(1, 2)
            .write(ethernet, 0);
        final byte[] frame = new byte[16 + length - 12];
        ByteBuffer.wrap(frame).putShort(0, (short)0).putShort(2, (short)1);
        System.arraycopy(ethernet, 12, frame, 14, length - 12);

        packet.wrap(frame, 0, frame.length, frame.length, LinkType.LINUX_SLL);

        assertTrue(packet.isValid());
        assertEquals(42, packet.vlanId());
        assertEquals(2, packet.dstPort());
    }

    @Test
    void shouldRefuseALinkTypeItCannotParse()
    {
        final byte[] frame = new byte[64];

        assertThrows(IllegalArgumentException.class, () -> packet.wrap(frame, 0, 64, 64, 127));
    }

    @Test
    void shouldProcessAFrameCutBySnapLengthOnItsCompleteHeaders()
    {
        final byte[] ethernet = new byte[2048];
        final int wire = builder.reset().ipv4(CLIENT, SERVER).tcp(1234, 80, PacketFlyweight.TCP_ACK, 5, 6)
            .payload(1000, (byte)'x').write(ethernet, 0);
        final int snap = 14 + 20 + 20 + 10;

        packet.wrap(ethernet, 0, snap, wire, LinkType.ETHERNET);

        assertTrue(packet.isValid(), packet.toString());
        assertTrue(packet.isCutByCapture());
        assertEquals(wire, packet.wireLength());
        assertEquals(20 + 20 + 1000, packet.ipTotalLength());
        assertEquals(1234, packet.srcPort());
        assertEquals(10, packet.payloadLength());

        packet.wrap(ethernet, 0, snap);

        assertEquals(PacketFlyweight.TRUNCATED_L3, packet.malformedReason(), "without a wire length the datagram is cut");
    }

    @Test
    void shouldKeepAUdpDatagramCutBySnapLengthValid()
    {
        final byte[] ethernet = new byte[2048];
        final int wire = builder.reset().ipv4(CLIENT, SERVER).udp(53, 5353).payload(500, (byte)'u').write(ethernet, 0);

        packet.wrap(ethernet, 0, 64, wire, LinkType.ETHERNET);

        assertTrue(packet.isValid(), packet.toString());
        assertEquals(64 - 42, packet.payloadLength());
    }

    @Test
    void shouldStayMalformedWhenTheSnapLengthCutsTheTransportHeader()
    {
        final byte[] ethernet = new byte[2048];
        final int wire = builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, 0, 0, 0).payload(100, (byte)0).write(ethernet, 0);

        packet.wrap(ethernet, 0, 14 + 20 + 10, wire, LinkType.ETHERNET);

        assertEquals(PacketFlyweight.TRUNCATED_L4, packet.malformedReason());
    }

    @Test
    void shouldStayMalformedWhenTheDatagramIsLongerThanTheFrameOnTheWire()
    {
        final byte[] ethernet = new byte[2048];
        builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, 0, 0, 0).payload(100, (byte)0).write(ethernet, 0);

        packet.wrap(ethernet, 0, 64, 100, LinkType.ETHERNET);

        assertEquals(PacketFlyweight.TRUNCATED_L3, packet.malformedReason());
        assertFalse(packet.isCutByCapture());
    }

    @Test
    void shouldRewriteTheCapturedHeadersOfACutFrameAsThoseOfTheWholeFrame()
    {
        final byte[] whole = new byte[2048];
        final int wire = builder.reset().ipv4(CLIENT, SERVER).tcp(1234, 80, PacketFlyweight.TCP_ACK, 5, 6)
            .payload(600, (byte)'x').write(whole, 0);
        final byte[] cut = Arrays.copyOf(whole, 96);

        new PacketFlyweight().wrap(whole, 0, wire).setSrcIpv4(Ipv4.parse("203.0.113.9"));
        new PacketFlyweight().wrap(whole, 0, wire).setSrcPort(61000);
        packet.wrap(cut, 0, cut.length, wire, LinkType.ETHERNET);
        assertTrue(packet.setSrcIpv4(Ipv4.parse("203.0.113.9")));
        assertTrue(packet.setSrcPort(61000));

        assertArrayEquals(Arrays.copyOf(whole, 96), cut, "headers and checksums as if the payload had been there");
    }
}
