package io.transnfv.vnf.packet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parser, accessors and rewrites, for a frame in every kind of memory the view reads ({@link FrameMemory}). */
class PacketFlyweightTest
{
    static final int CLIENT = Ipv4.parse("10.0.0.1");
    static final int SERVER = Ipv4.parse("192.168.1.5");

    private final byte[] buffer = new byte[2048];
    private final FrameBuilder builder = new FrameBuilder();
    private final PacketFlyweight packet = new PacketFlyweight();

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseEthernetIpv4TcpSyn(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).ttl(61)
            .tcp(1234, 80, PacketFlyweight.TCP_SYN, 7, 0).payload(10, (byte)'x').write(buffer, 0);

        frame.wrap(packet, 0, length);

        assertTrue(packet.isValid());
        assertEquals(PacketFlyweight.NOT_MALFORMED, packet.malformedReason());
        assertEquals(0x0800, packet.etherType());
        assertTrue(packet.isIp());
        assertTrue(packet.isIpv4());
        assertFalse(packet.isIpv6());
        assertEquals(PacketFlyweight.PROTO_TCP, packet.ipProtocol());
        assertEquals(CLIENT, packet.srcIpv4());
        assertEquals(SERVER, packet.dstIpv4());
        assertEquals(61, packet.ttl());
        assertEquals(20 + 20 + 10, packet.ipTotalLength());
        assertEquals(1234, packet.srcPort());
        assertEquals(80, packet.dstPort());
        assertTrue(packet.hasPorts());
        assertTrue(packet.isSyn());
        assertFalse(packet.isAck());
        assertFalse(packet.isFin());
        assertFalse(packet.isRst());
        assertEquals(frame.at(14), packet.l3Offset());
        assertEquals(frame.at(34), packet.l4Offset());
        assertEquals(10, packet.payloadLength());
        assertEquals(length, packet.frameLength());
        assertEquals(frame.at(0), packet.offset());
        assertFalse(packet.isFragment());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldExcludeEthernetPaddingFromPayload(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, PacketFlyweight.TCP_ACK, 0, 0)
            .frameLength(60).write(buffer, 0);

        frame.wrap(packet, 0, length);

        assertEquals(60, length);
        assertTrue(packet.isValid());
        assertEquals(0, packet.payloadLength());
        assertEquals(40, packet.ipTotalLength());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseAtNonZeroOffset(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).udp(53, 5353).payload(3, (byte)1).write(buffer, 100);

        frame.wrap(packet, 100, length);

        assertTrue(packet.isValid());
        assertEquals(PacketFlyweight.PROTO_UDP, packet.ipProtocol());
        assertEquals(53, packet.srcPort());
        assertEquals(5353, packet.dstPort());
        assertEquals(frame.at(114), packet.l3Offset());
        assertEquals(3, packet.payloadLength());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseOneAndTwoVlanTags(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().vlan(0x8100, 100).ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertEquals(1, packet.vlanCount());
        assertEquals(100, packet.vlanId());
        assertEquals(frame.at(18), packet.l3Offset());
        assertEquals(CLIENT, packet.srcIpv4());

        length = builder.reset().vlan(0x88A8, 300).vlan(0x8100, 4001).ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertEquals(2, packet.vlanCount());
        assertEquals(300, packet.vlanId());
        assertEquals(4001, packet.innerVlanId());
        assertEquals(frame.at(22), packet.l3Offset());
        assertEquals(2, packet.dstPort());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldTreatNonIpFramesAsValidButNotIp(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().etherType(0x0806).payload(28, (byte)0).write(buffer, 0);

        frame.wrap(packet, 0, length);

        assertTrue(packet.isValid());
        assertFalse(packet.isIp());
        assertEquals(0x0806, packet.etherType());
        assertEquals(PacketFlyweight.NO_PROTOCOL, packet.ipProtocol());
        assertFalse(packet.hasPorts());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseIpv4Options(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).ipv4Options(12).tcp(5, 6, PacketFlyweight.TCP_ACK, 0, 0)
            .write(buffer, 0);

        frame.wrap(packet, 0, length);

        assertTrue(packet.isValid());
        assertEquals(frame.at(14 + 32), packet.l4Offset());
        assertEquals(5, packet.srcPort());
        assertTrue(packet.isAck());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldSkipIpv6ExtensionHeaders(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv6(0x20010DB8_00000000L, 1, 0x20010DB8_00000000L, 2)
            .ipv6ExtensionHeader(PacketFlyweight.PROTO_HOPOPT)
            .ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_ROUTING)
            .ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_DSTOPTS)
            .tcp(443, 50000, PacketFlyweight.TCP_ACK | PacketFlyweight.TCP_FIN, 1, 2).payload(5, (byte)0)
            .ttl(9).write(buffer, 0);

        frame.wrap(packet, 0, length);

        assertTrue(packet.isValid());
        assertTrue(packet.isIpv6());
        assertEquals(0x86DD, packet.etherType());
        assertEquals(PacketFlyweight.PROTO_TCP, packet.ipProtocol());
        assertEquals(0x20010DB8_00000000L, packet.srcIpv6High());
        assertEquals(1, packet.srcIpv6Low());
        assertEquals(2, packet.dstIpv6Low());
        assertEquals(frame.at(14 + 40 + 24), packet.l4Offset());
        assertEquals(443, packet.srcPort());
        assertTrue(packet.isFin());
        assertEquals(9, packet.ttl());
        assertEquals(5, packet.payloadLength());
        assertEquals(0, packet.srcIpv4());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldGiveFirstFragmentPortsAndNonFirstFragmentNone(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().ipv4(CLIENT, SERVER).udp(1000, 53).fragment(0, true).payload(100, (byte)3)
            .write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertTrue(packet.isFragment());
        assertTrue(packet.isFirstFragment());
        assertTrue(packet.hasMoreFragments());
        assertTrue(packet.hasPorts());
        assertEquals(1000, packet.srcPort());

        length = builder.reset().ipv4(CLIENT, SERVER).udp(1000, 53).fragment(112, false).payload(50, (byte)3)
            .write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertTrue(packet.isFragment());
        assertFalse(packet.isFirstFragment());
        assertEquals(112, packet.fragmentOffset());
        assertFalse(packet.hasPorts());
        assertEquals(0, packet.srcPort());
        assertEquals(0, packet.dstPort());
        assertEquals(PacketFlyweight.PROTO_UDP, packet.ipProtocol());
        assertEquals(frame.at(34), packet.l4Offset());
        assertEquals(50, packet.payloadLength());
        assertEquals("udp 10.0.0.1:->192.168.1.5:-", FiveTupleFormat.format(packet));
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseIpv6FragmentHeader(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT)
            .fragment(0, true).udp(7, 8).payload(16, (byte)0).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertTrue(packet.isFirstFragment());
        assertEquals(8, packet.dstPort());

        length = builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT)
            .fragment(1448, false).udp(7, 8).payload(16, (byte)0).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertTrue(packet.isFragment());
        assertFalse(packet.hasMoreFragments());
        assertEquals(1448, packet.fragmentOffset());
        assertFalse(packet.hasPorts());
        assertEquals(PacketFlyweight.PROTO_UDP, packet.ipProtocol());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldReadTheFragmentIdentificationOfIpv4AndIpv6(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).ipId(0xBEEF).udp(1, 2).fragment(112, false)
            .payload(20, (byte)1).write(buffer, 0));
        assertEquals(0xBEEF, packet.fragmentId());
        frame.wrap(packet, 0, builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT)
            .ipId(0xCAFEBABE).fragment(8, false).udp(7, 8).payload(16, (byte)0).write(buffer, 0));
        assertEquals(0xCAFEBABEL, packet.fragmentId(), "the IPv6 fragment header's 32-bit identification, unsigned");
        frame.wrap(packet, 0, builder.reset().ipv6(1, 2, 3, 4).udp(7, 8).write(buffer, 0));
        assertEquals(0, packet.fragmentId());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldGiveANonFirstFragmentItsRecoveredPortsWithoutTouchingItsBytes(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).udp(1000, 53).fragment(112, false).payload(50, (byte)3)
            .write(buffer, 0);
        final byte[] before = Arrays.copyOf(buffer, length);
        frame.wrap(packet, 0, length);
        assertTrue(packet.recoverPorts(1000, 53));
        assertTrue(packet.hasPorts());
        assertTrue(packet.portsRecovered());
        assertTrue(packet.isIpv4WithPorts(), "a recovered fragment is handled as its datagram's flow");
        assertEquals(1000, packet.srcPort());
        assertEquals(53, packet.dstPort());
        assertEquals("udp 10.0.0.1:1000>192.168.1.5:53", FiveTupleFormat.format(packet));
        assertTrue(packet.setSrcPort(4000), "the datagram's port is rewritten in its first fragment");
        assertEquals(4000, packet.srcPort());
        final byte[] seen = new byte[length];
        packet.getBytes(packet.offset(), seen, 0, length);
        assertArrayEquals(before, seen, "no byte of the fragment changed");
        frame.wrap(packet, 0, length);
        assertFalse(packet.hasPorts(), "a new wrap forgets the recovered ports");
        assertFalse(packet.portsRecovered());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldRecoverPortsOnlyForNonFirstTcpAndUdpFragments(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).fragment(0, true).payload(20, (byte)1).write(buffer, 0));
        assertFalse(packet.recoverPorts(5, 6), "a first fragment has its own ports");
        assertEquals(1, packet.srcPort());
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0));
        assertFalse(packet.recoverPorts(5, 6), "not a fragment");
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).icmp(8, 0).fragment(64, false).payload(8, (byte)0).write(buffer, 0));
        assertFalse(packet.recoverPorts(5, 6), "ICMP has no ports");
        assertFalse(packet.hasPorts());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldParseIcmpAndIcmpv6Types(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().ipv4(CLIENT, SERVER).icmp(8, 0).payload(4, (byte)0).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertEquals(PacketFlyweight.PROTO_ICMP, packet.ipProtocol());
        assertEquals(8, packet.icmpType());
        assertFalse(packet.hasPorts());
        assertEquals(Checksums.icmpv4(packet), packet.getU16(packet.l4Offset() + 2));

        length = builder.reset().ipv6(1, 2, 3, 4).icmp(128, 0).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertTrue(packet.isValid());
        assertEquals(PacketFlyweight.PROTO_ICMPV6, packet.ipProtocol());
        assertEquals(128, packet.icmpType());
        assertEquals(Checksums.transport(packet), packet.getU16(packet.l4Offset() + 2));
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldNeverThrowOnAnyPrefixOfAValidFrame(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().vlan(0x8100, 5).ipv4(CLIENT, SERVER).ipv4Options(4)
            .tcp(1234, 80, PacketFlyweight.TCP_ACK, 1, 1).payload(20, (byte)7).write(buffer, 0);
        final int l3 = 18;
        final int l4 = l3 + 24;
        for (int prefix = 0; prefix <= length; prefix++)
        {
            frame.wrap(packet, 0, prefix);
            final int expected;
            if (prefix < l3)
            {
                expected = PacketFlyweight.TRUNCATED_L2;
            }
            else if (prefix < length)
            {
                // The IPv4 total length covers the whole frame, so any cut truncates the datagram.
                expected = PacketFlyweight.TRUNCATED_L3;
            }
            else
            {
                expected = PacketFlyweight.NOT_MALFORMED;
            }
            assertEquals(expected, packet.malformedReason(), "prefix " + prefix);
            assertEquals(prefix == length, packet.isValid(), "prefix " + prefix);
            assertEquals(0, packet.payloadLength() * (prefix == length ? 0 : 1), "prefix " + prefix);
        }
        assertTrue(l4 < length);
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldCallOnlyWellFormedIpv4TcpAndUdpWithRealPortsIpv4WithPorts(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, PacketFlyweight.TCP_SYN, 0, 0).write(buffer, 0));
        assertTrue(packet.isIpv4WithPorts(), "IPv4 TCP");
        frame.wrap(packet, 0, builder.reset().vlan(0x8100, 7).ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0));
        assertTrue(packet.isIpv4WithPorts(), "IPv4 UDP behind a VLAN tag");
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).fragment(0, true).payload(20, (byte)1).write(buffer, 0));
        assertTrue(packet.isIpv4WithPorts(), "first fragment: its ports are real");
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).fragment(112, false).payload(20, (byte)1).write(buffer, 0));
        assertFalse(packet.isIpv4WithPorts(), "non-first fragment");
        frame.wrap(packet, 0, builder.reset().ipv4(CLIENT, SERVER).icmp(8, 0).payload(4, (byte)0).write(buffer, 0));
        assertFalse(packet.isIpv4WithPorts(), "ICMP");
        frame.wrap(packet, 0, builder.reset().ipv6(1, 2, 3, 4).udp(1, 2).write(buffer, 0));
        assertFalse(packet.isIpv4WithPorts(), "IPv6 UDP");
        frame.wrap(packet, 0, builder.reset().etherType(0x0806).payload(28, (byte)0).write(buffer, 0));
        assertFalse(packet.isIpv4WithPorts(), "ARP");
        final int length = builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, 0, 0, 0).write(buffer, 0);
        PacketFlyweight.putU16(buffer, 14 + 2, 30);
        frame.wrap(packet, 0, length);
        assertFalse(packet.isIpv4WithPorts(), "truncated TCP header");
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldReportTruncatedL4WhenDatagramIsTooShortForItsTransportHeader(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, 0, 0, 0).write(buffer, 0);
        for (int cut = 1; cut <= 20; cut++)
        {
            // Shrink the declared total length so the TCP header no longer fits inside the datagram.
            PacketFlyweight.putU16(buffer, 14 + 2, 40 - cut);
            frame.wrap(packet, 0, length);
            assertEquals(PacketFlyweight.TRUNCATED_L4, packet.malformedReason(), "cut " + cut);
            assertTrue(packet.isIpv4());
            assertFalse(packet.hasPorts());
        }
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldReportBadIpHeaders(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0);
        buffer[14] = 0x44;
        frame.wrap(packet, 0, length);
        assertEquals(PacketFlyweight.BAD_IP_HEADER, packet.malformedReason());

        buffer[14] = 0x65;
        frame.wrap(packet, 0, length);
        assertEquals(PacketFlyweight.BAD_IP_HEADER, packet.malformedReason());

        length = builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0);
        PacketFlyweight.putU16(buffer, 16, 19);
        frame.wrap(packet, 0, length);
        assertEquals(PacketFlyweight.BAD_IP_HEADER, packet.malformedReason());
        assertEquals("bad-ip-header", PacketFlyweight.malformedReasonName(packet.malformedReason()));

        length = builder.reset().ipv4(CLIENT, SERVER).tcp(1, 2, 0, 0, 0).write(buffer, 0);
        buffer[34 + 12] = 0x40;
        frame.wrap(packet, 0, length);
        assertEquals(PacketFlyweight.BAD_L4_HEADER, packet.malformedReason());
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldNeverThrowOnRandomBytes(final FrameMemory memory)
    {
        final long seed = 12345L;
        final SplittableRandom random = new SplittableRandom(seed);
        final int length = builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(0).udp(1, 2).payload(30, (byte)0)
            .write(buffer, 0);
        final byte[] copy = new byte[length];
        final FrameMemory.Placed frame = memory.place(copy);
        int malformed = 0;
        for (int i = 0; i < 20_000; i++)
        {
            System.arraycopy(buffer, 0, copy, 0, length);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                copy[random.nextInt(length)] = (byte)random.nextInt(256);
            }
            frame.wrap(packet, 0, random.nextInt(length + 1));
            malformed += packet.isValid() ? 0 : 1;
            assertTrue(packet.payloadLength() >= 0, "seed " + seed + " iteration " + i);
        }
        assertNotEquals(0, malformed);
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldReadEveryByteOfTheFrameInNetworkOrderAndNothingOutsideIt(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(CLIENT, SERVER).udp(53, 5353).payload(11, (byte)0x5A).write(buffer, 40);
        frame.wrap(packet, 40, length);

        final int first = packet.offset();
        for (int i = 0; i < length; i++)
        {
            assertEquals(buffer[40 + i] & 0xFF, packet.getU8(first + i), "byte " + i);
        }
        assertEquals(PacketFlyweight.u16(buffer, 40 + 12), packet.getU16(first + 12));
        assertEquals(CLIENT, packet.getInt(packet.l3Offset() + 12));
        assertEquals(PacketFlyweight.i64(buffer, 40 + length - 8), packet.getLong(first + length - 8));
        final byte[] copy = new byte[length + 3];
        packet.getBytes(first, copy, 3, length);
        for (int i = 0; i < length; i++)
        {
            assertEquals(buffer[40 + i], copy[3 + i], "copied byte " + i);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> packet.getU8(first - 1));
        assertThrows(IndexOutOfBoundsException.class, () -> packet.getU8(first + length));
        assertThrows(IndexOutOfBoundsException.class, () -> packet.getU16(first + length - 1));
        assertThrows(IndexOutOfBoundsException.class, () -> packet.getLong(first + length - 7));
        assertThrows(IndexOutOfBoundsException.class, () -> packet.getBytes(first + 1, copy, 0, length));
    }

    @Test
    void shouldLeaveTheWrappedBuffersStateAloneAndRewriteItsMemoryInPlace()
    {
        final int length = builder.reset().ipv4(CLIENT, SERVER).tcp(1234, 80, PacketFlyweight.TCP_ACK, 1, 2)
            .payload(6, (byte)1).write(buffer, 0);
        final ByteBuffer direct = ByteBuffer.allocateDirect(1024).order(ByteOrder.LITTLE_ENDIAN);
        direct.put(300, buffer, 0, length).position(17).limit(300 + length);

        packet.wrap(direct, 300, length);
        assertTrue(packet.setDstIpv4(CLIENT));
        assertTrue(packet.setSrcPort(4321));

        assertEquals(17, direct.position());
        assertEquals(300 + length, direct.limit());
        assertEquals(ByteOrder.LITTLE_ENDIAN, direct.order());
        assertEquals(4321, ((direct.get(300 + 34) & 0xFF) << 8) | (direct.get(300 + 35) & 0xFF), "the port, in network order");
        assertEquals(CLIENT, Integer.reverseBytes(direct.getInt(300 + 30)), "the address, in network order");
        assertThrows(IndexOutOfBoundsException.class, () -> packet.wrap(direct, 301, length));
    }

    @Test
    void shouldRefuseToRewriteAReadOnlyBufferWithoutChangingIt()
    {
        final int length = builder.reset().ipv4(CLIENT, SERVER).udp(1, 2).write(buffer, 0);
        final ByteBuffer readOnly = ByteBuffer.wrap(Arrays.copyOf(buffer, length)).asReadOnlyBuffer();

        packet.wrap(readOnly, 0, length);

        assertTrue(packet.isValid());
        assertEquals(2, packet.dstPort());
        assertThrows(ReadOnlyBufferException.class, () -> packet.setSrcIpv4(SERVER));
        assertThrows(ReadOnlyBufferException.class, () -> packet.setDstPort(7));
        assertThrows(ReadOnlyBufferException.class, () -> packet.setTtl(1));
        for (int i = 0; i < length; i++)
        {
            assertEquals(buffer[i], readOnly.get(i), "byte " + i);
        }
    }

    @Test
    void shouldNameEveryMalformedReason()
    {
        for (int reason = 0; reason < PacketFlyweight.MALFORMED_REASON_COUNT; reason++)
        {
            assertNotEquals("unknown", PacketFlyweight.malformedReasonName(reason));
        }
        assertEquals("unknown", PacketFlyweight.malformedReasonName(99));
    }
}
