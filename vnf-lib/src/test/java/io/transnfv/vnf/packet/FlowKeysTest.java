package io.transnfv.vnf.packet;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowKeysTest
{
    private final byte[] buffer = new byte[256];
    private final FrameBuilder builder = new FrameBuilder();
    private final PacketFlyweight packet = new PacketFlyweight();

    private PacketFlyweight tcp(final int src, final int sport, final int dst, final int dport)
    {
        final int length = builder.reset().ipv4(src, dst).tcp(sport, dport, 0, 0, 0).write(buffer, 0);
        return packet.wrap(buffer, 0, length);
    }

    @Test
    void shouldGiveTheSameBiflowKeyToBothDirections()
    {
        final long forward = FlowKeys.biflow(tcp(1, 1000, 2, 80));
        final long forwardFiveTuple = FlowKeys.fiveTuple(packet);
        final long reverse = FlowKeys.biflow(tcp(2, 80, 1, 1000));
        final long reverseFiveTuple = FlowKeys.fiveTuple(packet);

        assertEquals(forward, reverse);
        assertNotEquals(forwardFiveTuple, reverseFiveTuple);
    }

    @Test
    void shouldGiveTheSameIpv6BiflowKeyToBothDirections()
    {
        int length = builder.reset().ipv6(7, 8, 9, 10).udp(5, 6).write(buffer, 0);
        final long forward = FlowKeys.biflow(packet.wrap(buffer, 0, length));
        length = builder.reset().ipv6(9, 10, 7, 8).udp(6, 5).write(buffer, 0);
        final long reverse = FlowKeys.biflow(packet.wrap(buffer, 0, length));
        assertEquals(forward, reverse);
    }

    @Test
    void shouldSpreadNeighbouringFiveTuplesWithoutCollisions()
    {
        final Set<Long> keys = new HashSet<>();
        final Set<Long> lowBits = new HashSet<>();
        for (int host = 0; host < 100; host++)
        {
            for (int port = 0; port < 1000; port++)
            {
                final long key = FlowKeys.fiveTuple(tcp(0x0A000000 + host, 1024 + port, 0x0A000001, 80));
                keys.add(key);
                lowBits.add(key & 0xFFFF);
            }
        }
        assertEquals(100_000, keys.size());
        // 100k keys into 65,536 buckets: a good mix fills about 1 - e^-1.53 = 78 % of them.
        assertTrue(lowBits.size() > 48_000, "low 16 bits fill " + lowBits.size() + " buckets");
    }

    @Test
    void shouldPackEndpointsExactly()
    {
        final long key = FlowKeys.endpoint(0xFFFFFFFF, 65535, 255);
        assertEquals(0x00FF_FFFF_FFFF_FFFFL, key);
        assertEquals((0x0A000001L << 24) | (80 << 8) | 6, FlowKeys.endpoint(0x0A000001, 80, 6));
        assertNotEquals(FlowKeys.endpoint(1, 2, 6), FlowKeys.endpoint(1, 2, 17));
    }

    @Test
    void shouldUseTheUnsignedAddressAsIpv4HostKeyAndATaggedHashForIpv6()
    {
        tcp(Ipv4.parse("200.1.2.3"), 1, Ipv4.parse("10.0.0.1"), 2);
        assertEquals(Ipv4.parse("200.1.2.3") & 0xFFFF_FFFFL, FlowKeys.srcHost(packet));
        assertEquals(0x0A000001L, FlowKeys.dstHost(packet));

        final int length = builder.reset().ipv6(0, 0xC8010203L, 0, 0x0A000001L).udp(1, 2).write(buffer, 0);
        packet.wrap(buffer, 0, length);
        assertTrue(FlowKeys.srcHost(packet) < 0);
        assertTrue(FlowKeys.dstHost(packet) < 0);
        assertNotEquals(FlowKeys.srcHost(packet), FlowKeys.dstHost(packet));
    }

    @Test
    void shouldKeyEveryFragmentOfADatagramByThreeTuple()
    {
        int length = builder.reset().ipv4(1, 2).udp(100, 200).fragment(0, true).payload(16, (byte)0).write(buffer, 0);
        packet.wrap(buffer, 0, length);
        final long first = FlowKeys.threeTuple(packet);
        final long firstFive = FlowKeys.fiveTuple(packet);
        length = builder.reset().ipv4(1, 2).udp(100, 200).fragment(24, false).payload(16, (byte)0).write(buffer, 0);
        packet.wrap(buffer, 0, length);
        assertEquals(first, FlowKeys.threeTuple(packet));
        assertNotEquals(firstFive, FlowKeys.fiveTuple(packet));
    }

    @Test
    void shouldGiveEveryFragmentOfADatagramOneDatagramKeyAndOtherDatagramsAnother()
    {
        final int a = 0x0A000001;
        final int b = 0x0A000002;
        packet.wrap(buffer, 0, builder.reset().ipv4(a, b).ipId(7).udp(1, 2).fragment(0, true).payload(16, (byte)0).write(buffer, 0));
        final long first = FlowKeys.datagram(packet);
        packet.wrap(buffer, 0, builder.reset().ipv4(a, b).ipId(7).udp(1, 2).fragment(24, false).payload(16, (byte)0).write(buffer, 0));
        assertEquals(first, FlowKeys.datagram(packet));
        packet.wrap(buffer, 0, builder.reset().ipv4(a, b).ipId(8).udp(1, 2).fragment(24, false).payload(16, (byte)0).write(buffer, 0));
        assertNotEquals(first, FlowKeys.datagram(packet), "another identification");
        packet.wrap(buffer, 0, builder.reset().ipv4(b, a).ipId(7).udp(1, 2).fragment(24, false).payload(16, (byte)0).write(buffer, 0));
        assertNotEquals(first, FlowKeys.datagram(packet), "the other direction");
        packet.wrap(buffer, 0, builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT)
            .ipId(7).fragment(0, true).udp(1, 2).payload(16, (byte)0).write(buffer, 0));
        final long v6 = FlowKeys.datagram(packet);
        packet.wrap(buffer, 0, builder.reset().ipv6(1, 2, 3, 4).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT)
            .ipId(7).fragment(1448, false).udp(1, 2).payload(16, (byte)0).write(buffer, 0));
        assertEquals(v6, FlowKeys.datagram(packet));
        assertNotEquals(first, v6);
    }

    @Test
    void shouldMixSingleBitChangesIntoAboutHalfTheBits()
    {
        long total = 0;
        for (int bit = 0; bit < 64; bit++)
        {
            total += Long.bitCount(FlowKeys.mix64(12345L) ^ FlowKeys.mix64(12345L ^ (1L << bit)));
        }
        final double average = total / 64.0;
        assertTrue(average > 28 && average < 36, "average flipped bits " + average);
    }
}
