package io.transnfv.engine.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static io.transnfv.engine.source.Traces.trace;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class PcapSourceTest
{
    @TempDir
    Path tempDir;

    private final PacketBuffer buffer = new PacketBuffer();

    @ParameterizedTest(name = "{0} has {1} packets")
    @CsvSource({
        "WebattackXSS.pcap, 9374",
        "synscan.pcap, 2011",
        "alexa-app.pcapng, 3435",
        "http_ipv6.pcap, 193",
        "6in4tunnel.pcap, 127",
        "4in4tunnel.pcap, 5",
        "ip_fragmented_garbage.pcap, 9077",
        "badpackets.pcap, 93",
        "malformed_icmp.pcap, 1",
        "big-endian.pcap, 5",
    })
    void shouldReadEveryPacketOfAnIntactTrace(final String file, final long expectedPackets) throws IOException
    {
        try (PcapSource source = PcapSource.open(trace(file)))
        {
            long count = 0;
            while (source.next(buffer))
            {
                assertEquals(count, buffer.sequence());
                count++;
            }
            assertEquals(expectedPackets, count);
            assertEquals(expectedPackets, source.stats().packets());
            assertEquals(0, source.stats().unreadableRecords(), source.stats().warnings().toString());
            assertTrue(source.describe().contains(file));
        }
    }

    @Test
    void shouldReadTheFirstPacketOfADamagedFileAndCountTheBadRecord() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("test_damaged.pcap")))
        {
            assertTrue(source.next(buffer));
            assertEquals(74, buffer.length());
            assertFalse(source.next(buffer));
            assertFalse(source.next(buffer));
            assertEquals(1, source.stats().packets());
            assertEquals(1, source.stats().unreadableRecords());
            assertTrue(source.stats().warnings().get(0).startsWith("test_damaged.pcap: byte 114: "),
                source.stats().warnings().toString());
        }
    }

    @Test
    void shouldCountARecordLongerThanAnyFrameAsBadEvenUnderASnapLengthNearFourGigabytes() throws IOException
    {
        // found by PcapSourceFuzzTest: snap length 0xffff0000, caplen 0xd3d3d3d3 (negative as an int)
        final ByteBuffer file = ByteBuffer.allocate(24 + 16 + 64).order(ByteOrder.LITTLE_ENDIAN);
        file.putInt(0xA1B2C3D4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(0xFFFF0000).putInt(1);
        file.putInt(1).putInt(0).putInt(0xD3D3D3D3).putInt(0xD3D3D3D3);
        final Path path = tempDir.resolve("huge-caplen.pcap");
        Files.write(path, file.array());
        try (PcapSource source = PcapSource.open(path))
        {
            assertFalse(source.next(buffer));
            assertEquals(1, source.stats().badRecordLength());
            assertTrue(source.stats().warnings().get(0).startsWith("huge-caplen.pcap: byte 24: impossible record length"),
                source.stats().warnings().toString());
        }
    }

    @Test
    void shouldCountARecordHeaderCutOffByTheEndOfTheFile() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("truncated_dns_2.pcap")))
        {
            long count = 0;
            while (source.next(buffer))
            {
                count++;
                assertEquals(200, buffer.length());
                assertEquals(282, buffer.originalLength());
                assertTrue(buffer.isTruncated());
            }
            assertTrue(count <= 1);
            assertEquals(1, source.stats().truncatedRecords());
            assertTrue(source.stats().warnings().get(0).contains("truncated_dns_2.pcap: byte 240"),
                source.stats().warnings().toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"test_without_pcap_header.pcap", "malformed-header.pcap"})
    void shouldRejectAFileWithoutAReadableHeaderNamingFileAndOffset(final String file)
    {
        final SourceException e = assertThrows(SourceException.class, () -> PcapSource.open(trace(file)));
        assertTrue(e.getMessage().contains(file), e.getMessage());
        assertTrue(e.getMessage().contains("byte "), e.getMessage());
        assertEquals(0, e.byteOffset());
    }

    @Test
    void shouldNameTheMagicOfANonPcapFile()
    {
        final SourceException e = assertThrows(SourceException.class, () -> PcapSource.open(trace("malformed-header.pcap")));
        assertEquals("malformed-header.pcap: byte 0: not a pcap or pcapng file (magic 0x74686973)", e.getMessage());
    }

    @Test
    void shouldReadBigEndianTimestampsAndLengths() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("big-endian.pcap")))
        {
            assertTrue(source.next(buffer));
            assertEquals(42, buffer.length());
            assertEquals(60, buffer.originalLength());
            assertEquals(3064L * 1_000_000_000L + 714_590_000L, buffer.timestampNs());
        }
    }

    @Test
    void shouldReplayAFileWithIncreasingSequenceAndShiftedTime() throws IOException
    {
        final long[] firstPass = new long[5];
        long maxTs = Long.MIN_VALUE;
        long minTs = Long.MAX_VALUE;
        try (PcapSource source = PcapSource.open(trace("big-endian.pcap")))
        {
            for (int i = 0; i < 5; i++)
            {
                assertTrue(source.next(buffer));
                firstPass[i] = buffer.timestampNs();
                maxTs = Math.max(maxTs, buffer.timestampNs());
                minTs = Math.min(minTs, buffer.timestampNs());
            }
        }
        final long shift = maxTs - minTs + 1000;
        try (PcapSource source = PcapSource.open(trace("big-endian.pcap"), 3))
        {
            for (int i = 0; i < 15; i++)
            {
                assertTrue(source.next(buffer), "packet " + i);
                assertEquals(i, buffer.sequence());
                assertEquals(firstPass[i % 5] + (i / 5) * shift, buffer.timestampNs(), "packet " + i);
            }
            assertFalse(source.next(buffer));
            assertEquals(15, source.stats().packets());
        }
    }

    @Test
    void shouldTripleThePacketsOfALargeTraceWithThreeLoops() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("synscan.pcap"), 3))
        {
            long count = 0;
            while (source.next(buffer))
            {
                assertEquals(count++, buffer.sequence());
            }
            assertEquals(3 * 2011, count);
        }
    }

    @Test
    void shouldParseEveryPacketOfEveryReadableTraceWithoutException() throws IOException
    {
        final PacketFlyweight packet = new PacketFlyweight();
        final String[] files = {
            "WebattackXSS.pcap", "synscan.pcap", "alexa-app.pcapng", "http_ipv6.pcap", "6in4tunnel.pcap",
            "4in4tunnel.pcap", "ip_fragmented_garbage.pcap", "badpackets.pcap", "malformed_icmp.pcap",
            "big-endian.pcap", "test_damaged.pcap", "truncated_dns_2.pcap"
        };
        long total = 0;
        long ip = 0;
        for (final String file : files)
        {
            final long[] reasons = new long[PacketFlyweight.MALFORMED_REASON_COUNT];
            final long malformedBefore = total;
            try (PcapSource source = PcapSource.open(trace(file)))
            {
                while (source.next(buffer))
                {
                    packet.wrap(buffer.data(), 0, buffer.length());
                    reasons[packet.malformedReason()]++;
                    ip += packet.isIp() ? 1 : 0;
                    total++;
                }
            }
            if (file.equals("WebattackXSS.pcap") || file.equals("synscan.pcap"))
            {
                assertEquals(0, total - reasons[PacketFlyweight.NOT_MALFORMED] - malformedBefore, file + " has no malformed packets");
            }
        }
        assertTrue(total > 20_000);
        assertTrue(ip > total / 2);
    }

    @Test
    void shouldParseWebattackAsValidIpv4Tcp() throws IOException
    {
        final PacketFlyweight packet = new PacketFlyweight();
        long valid = 0;
        long syn = 0;
        try (PcapSource source = PcapSource.open(trace("WebattackXSS.pcap")))
        {
            while (source.next(buffer))
            {
                packet.wrap(buffer.data(), 0, buffer.length());
                valid += packet.isValid() && packet.isIpv4() && packet.ipProtocol() == PacketFlyweight.PROTO_TCP ? 1 : 0;
                syn += packet.isSyn() && !packet.isAck() ? 1 : 0;
            }
        }
        assertEquals(9374, valid);
        assertTrue(syn >= 661, "SYNs " + syn);
    }

    @Test
    void shouldReadPcapngInBothByteOrdersWithTimestampResolutions() throws IOException
    {
        for (final ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN})
        {
            final byte[] frame = new byte[100];
            final int length = new FrameBuilder().ipv4(0x0A000001, 0x0A000002).udp(1, 2).payload(10, (byte)9).write(frame, 0);
            final PcapngWriter writer = new PcapngWriter(order);
            writer.section();
            writer.interfaceBlock(1, 65535, 6);      // microseconds
            writer.interfaceBlock(1, 65535, 0x89);   // 2^-9 seconds
            writer.unknownBlock(0x0BAD);
            writer.enhancedPacket(0, 1_700_000_000_123_456L, frame, length);
            writer.enhancedPacket(1, (5L << 9) | 256, frame, length);
            writer.simplePacket(frame, length);
            writer.section();
            writer.interfaceBlock(101, 65535, 9);    // raw IP, nanoseconds
            writer.enhancedPacket(0, 42, frame, 14, length - 14);
            final Path file = tempDir.resolve("t-" + order + ".pcapng");
            Files.write(file, writer.bytes());

            try (PcapSource source = PcapSource.open(file))
            {
                assertTrue(source.next(buffer));
                assertEquals(1_700_000_000_123_456_000L, buffer.timestampNs());
                assertArrayEquals(Arrays.copyOf(frame, length), Arrays.copyOf(buffer.data(), buffer.length()));
                assertTrue(source.next(buffer));
                assertEquals(5_500_000_000L, buffer.timestampNs());
                assertTrue(source.next(buffer));
                assertEquals(length, buffer.length());
                assertTrue(source.next(buffer));
                assertEquals(42, buffer.timestampNs());
                assertEquals(length, buffer.length());
                final PacketFlyweight packet = new PacketFlyweight().wrap(buffer.data(), 0, buffer.length());
                assertTrue(packet.isValid());
                assertEquals(0x0A000002, packet.dstIpv4());
                assertFalse(source.next(buffer));
                assertEquals(4, source.stats().packets());
                assertEquals(1, source.stats().skippedBlocks());
                assertEquals(0, source.stats().unreadableRecords());
                assertEquals(3, buffer.sequence());
            }
        }
    }

    @Test
    void shouldTruncateFramesLongerThanTheBufferAndCountThem() throws IOException
    {
        final byte[] big = new byte[5000];
        final Path file = tempDir.resolve("big.pcap");
        try (PcapWriter writer = PcapWriter.create(file))
        {
            writer.write(big, 0, big.length, 1_000, big.length);
            writer.write(big, 0, 60, 2_000, 60);
        }
        final PacketBuffer small = new PacketBuffer(2048);
        try (PcapSource source = PcapSource.open(file))
        {
            assertTrue(source.next(small));
            assertEquals(2048, small.length());
            assertEquals(5000, small.originalLength());
            assertTrue(source.next(small));
            assertEquals(60, small.length());
            assertEquals(2_000, small.timestampNs());
            assertFalse(source.next(small));
            assertEquals(1, source.stats().oversizedFrames());
        }
    }

    @Test
    void shouldRejectAnUnsupportedLinkType() throws IOException
    {
        final byte[] header = Files.readAllBytes(trace("big-endian.pcap"));
        header[23] = 127;
        final Path file = tempDir.resolve("radiotap.pcap");
        Files.write(file, header);
        final SourceException e = assertThrows(SourceException.class, () -> PcapSource.open(file));
        assertTrue(e.getMessage().startsWith("radiotap.pcap: byte 20: unsupported link type 127"), e.getMessage());
        assertTrue(e.getMessage().contains("; fix: "), e.getMessage());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNeverThrowAnythingButSourceExceptionOnGarbageOrTruncation() throws IOException
    {
        final long seed = Long.getLong("transnfv.fuzz.seed", 7L);
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] classic = Files.readAllBytes(trace("big-endian.pcap"));
        final PcapngWriter writer = new PcapngWriter(ByteOrder.LITTLE_ENDIAN);
        final byte[] frame = new byte[80];
        writer.section();
        writer.interfaceBlock(1, 0, 6);
        writer.enhancedPacket(0, 1, frame, 80);
        writer.simplePacket(frame, 60);
        writer.enhancedPacket(0, 2, frame, 70);
        final byte[][] originals = {classic, writer.bytes(), Files.readAllBytes(trace("test_damaged.pcap"))};
        for (int i = 0; i < 3000; i++)
        {
            final byte[] original = originals[i % originals.length];
            byte[] mutated = original.clone();
            switch (random.nextInt(3))
            {
                case 0:
                    mutated = Arrays.copyOf(original, random.nextInt(original.length + 1));
                    break;
                case 1:
                    for (int flips = 1 + random.nextInt(8); flips > 0; flips--)
                    {
                        mutated[random.nextInt(mutated.length)] = (byte)random.nextInt(256);
                    }
                    break;
                default:
                    final int start = 24 + random.nextInt(mutated.length - 24);
                    for (int j = start; j < mutated.length; j++)
                    {
                        mutated[j] = (byte)random.nextInt(256);
                    }
                    break;
            }
            final Path file = tempDir.resolve("fuzz.pcap");
            Files.write(file, mutated);
            try (PcapSource source = PcapSource.open(file, 1 + random.nextInt(2)))
            {
                int reads = 0;
                while (source.next(buffer))
                {
                    if (++reads > 10_000)
                    {
                        fail("seed " + seed + " iteration " + i + ": too many packets from a small file");
                    }
                }
            }
            catch (final SourceException e)
            {
                assertTrue(e.getMessage().contains("fuzz.pcap"), "seed " + seed + " iteration " + i + ": " + e.getMessage());
            }
            catch (final RuntimeException e)
            {
                throw new AssertionError("seed " + seed + " iteration " + i + ": unexpected " + e, e);
            }
        }
    }

    /** Builds small pcapng files for tests. */
    static final class PcapngWriter
    {
        private final ByteBuffer out = ByteBuffer.allocate(1 << 16);

        PcapngWriter(final ByteOrder order)
        {
            out.order(order);
        }

        void section()
        {
            out.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short)1).putShort((short)0).putLong(-1).putInt(28);
        }

        void interfaceBlock(final int linkType, final int snapLength, final int tsResolution)
        {
            out.putInt(1).putInt(32).putShort((short)linkType).putShort((short)0).putInt(snapLength);
            out.putShort((short)9).putShort((short)1).put((byte)tsResolution).put((byte)0).putShort((short)0);
            out.putShort((short)0).putShort((short)0).putInt(32);
        }

        void unknownBlock(final int type)
        {
            out.putInt(type).putInt(16).putInt(0xDEADBEEF).putInt(16);
        }

        void enhancedPacket(final int interfaceId, final long timestamp, final byte[] data, final int length)
        {
            enhancedPacket(interfaceId, timestamp, data, 0, length);
        }

        void enhancedPacket(final int interfaceId, final long timestamp, final byte[] data, final int offset, final int length)
        {
            final int padded = (length + 3) & ~3;
            final int total = 32 + padded;
            out.putInt(6).putInt(total).putInt(interfaceId).putInt((int)(timestamp >>> 32)).putInt((int)timestamp)
                .putInt(length).putInt(length).put(data, offset, length);
            for (int i = length; i < padded; i++)
            {
                out.put((byte)0);
            }
            out.putInt(total);
        }

        void simplePacket(final byte[] data, final int length)
        {
            final int padded = (length + 3) & ~3;
            final int total = 16 + padded;
            out.putInt(3).putInt(total).putInt(length).put(data, 0, length);
            for (int i = length; i < padded; i++)
            {
                out.put((byte)0);
            }
            out.putInt(total);
        }

        byte[] bytes()
        {
            return Arrays.copyOf(out.array(), out.position());
        }
    }
}
