package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Full and incremental checksums agree, for a frame in every kind of memory the view reads ({@link FrameMemory}). */
class ChecksumsTest
{
    private final byte[] buffer = new byte[2048];
    private final FrameBuilder builder = new FrameBuilder();
    private final PacketFlyweight packet = new PacketFlyweight();

    @Test
    void shouldComputeKnownIpv4HeaderChecksum()
    {
        // Example header from RFC 1071 discussions / Wikipedia: checksum 0xb861.
        final byte[] header =
        {
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, (byte)0xb8, 0x61,
            (byte)0xc0, (byte)0xa8, 0x00, 0x01, (byte)0xc0, (byte)0xa8, 0x00, (byte)0xc7
        };
        assertEquals(0xB861, Checksums.ipv4Header(header, 0));
        final ByteBuffer direct = ByteBuffer.allocateDirect(header.length + 3);
        direct.put(3, header);
        assertEquals(0xB861, Checksums.ipv4Header(direct, 3));
        assertEquals(0xB861, Checksums.ipv4Header(direct.order(ByteOrder.LITTLE_ENDIAN), 3), "any byte order");
        assertEquals(Checksums.sum(header, 1, 19, 7), Checksums.sum(direct, 4, 19, 7), "odd length");
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldWriteFramesWhoseChecksumsVerify(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(Ipv4.parse("10.1.2.3"), Ipv4.parse("8.8.8.8")).udp(5000, 53)
            .payload(33, (byte)0x5A).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertChecksumsMatchFullRecomputation("fresh frame");
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldKeepChecksumsRightAfterRandomRewrites(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final long seed = 20240601L;
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 5_000; i++)
        {
            final boolean tcp = random.nextBoolean();
            builder.reset().ipv4(random.nextInt(), random.nextInt()).ipv4Options(4 * random.nextInt(3))
                .payload(random.nextInt(200), (byte)random.nextInt(256));
            if (tcp)
            {
                builder.tcp(random.nextInt(65536), random.nextInt(65536), random.nextInt(256), random.nextInt(), random.nextInt());
            }
            else
            {
                builder.udp(random.nextInt(65536), random.nextInt(65536));
            }
            final int length = builder.write(buffer, 0);
            frame.wrap(packet, 0, length);
            final String context = "seed " + seed + " iteration " + i;
            assertTrue(packet.setSrcIpv4(random.nextInt()), context);
            assertTrue(packet.setDstIpv4(random.nextInt()), context);
            assertTrue(packet.setSrcPort(random.nextInt(65536)), context);
            assertTrue(packet.setDstPort(random.nextInt(65536)), context);
            assertTrue(packet.setTtl(random.nextInt(256)), context);
            assertChecksumsMatchFullRecomputation(context);
            final int srcPort = packet.srcPort();
            final int srcIp = packet.srcIpv4();
            frame.rewrap(packet);
            assertEquals(srcPort, packet.srcPort(), context);
            assertEquals(srcIp, packet.srcIpv4(), context);
        }
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldLeaveZeroUdpChecksumZero(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        final int length = builder.reset().ipv4(1, 2).udp(3, 4).payload(10, (byte)1).write(buffer, 0);
        PacketFlyweight.putU16(buffer, 34 + 6, 0);
        frame.wrap(packet, 0, length);

        packet.setSrcIpv4(Ipv4.parse("172.16.0.9"));
        packet.setDstPort(8080);

        assertEquals(0, packet.getU16(frame.at(34 + 6)));
        assertEquals(Checksums.ipv4Header(packet), packet.getU16(frame.at(24)));
    }

    @ParameterizedTest
    @EnumSource(FrameMemory.class)
    void shouldRefuseRewritesThePacketCannotTake(final FrameMemory memory)
    {
        final FrameMemory.Placed frame = memory.place(buffer);
        int length = builder.reset().ipv6(1, 2, 3, 4).udp(1, 2).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertFalse(packet.setSrcIpv4(5));
        assertTrue(packet.setSrcPort(9));
        assertEquals(Checksums.transport(packet), packet.getU16(packet.l4Offset() + 6));

        length = builder.reset().ipv4(1, 2).udp(1, 2).fragment(64, false).payload(8, (byte)0).write(buffer, 0);
        frame.wrap(packet, 0, length);
        assertFalse(packet.setSrcPort(9));
        assertTrue(packet.setDstIpv4(77));
        assertEquals(Checksums.ipv4Header(packet), packet.getU16(frame.at(24)));

        frame.wrap(packet, 0, 20);
        assertFalse(packet.setDstIpv4(77));
    }

    private void assertChecksumsMatchFullRecomputation(final String context)
    {
        assertEquals(Checksums.ipv4Header(packet), packet.getU16(packet.l3Offset() + 10), "IPv4 header checksum, " + context);
        final int field = packet.l4Offset() + Checksums.checksumFieldOffset(packet.ipProtocol());
        assertEquals(Checksums.transport(packet), packet.getU16(field), "transport checksum, " + context);
    }
}
