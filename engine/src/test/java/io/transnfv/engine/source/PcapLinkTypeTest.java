package io.transnfv.engine.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.LinkType;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.transnfv.engine.source.Traces.trace;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures of the link types other than Ethernet, made for the tests from the real traces
 * (see the NOTICE beside them), and captures cut by a snap length: read, parsed like the
 * Ethernet originals, and written back with their own link type and lengths.
 */
class PcapLinkTypeTest
{
    @TempDir
    Path tempDir;

    private final PacketBuffer buffer = new PacketBuffer();
    private final PacketBuffer original = new PacketBuffer();
    private final PacketFlyweight packet = new PacketFlyweight();
    private final PacketFlyweight originalPacket = new PacketFlyweight();

    @ParameterizedTest(name = "{0} (link type {1}) equals {2} from packet {3} on")
    @CsvSource({
        "webattack-sll-snap96.pcap, 113, WebattackXSS.pcap, 0, 400",
        "synscan-null.pcap, 0, synscan.pcap, 0, 300",
        "http_ipv6-loop.pcap, 108, http_ipv6.pcap, 0, 193",
        "4in4tunnel-sll2.pcap, 276, 4in4tunnel.pcap, 0, 5",
        })
    void shouldParseEveryPacketOfARelinkedTraceAsTheEthernetOriginal(
        final String file, final int linkType, final String originalFile, final int skip, final int packets)
        throws IOException
    {
        try (PcapSource source = PcapSource.open(trace(file)); PcapSource ethernet = PcapSource.open(trace(originalFile)))
        {
            assertTrue(source.describe().contains("link type " + linkType), source.describe());
            int n = 0;
            while (source.next(buffer))
            {
                assertTrue(ethernet.next(original));
                assertEquals(linkType, buffer.linkType());
                assertEquals(LinkType.ETHERNET, original.linkType());
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                originalPacket.wrap(original.memory(), original.offset(), original.length());
                final String at = file + " packet " + n;
                assertEquals(originalPacket.isValid(), packet.isValid(), at + ": " + packet);
                assertEquals(originalPacket.isIp(), packet.isIp(), at);
                assertEquals(FlowKeys.fiveTuple(originalPacket), FlowKeys.fiveTuple(packet), at);
                assertEquals(originalPacket.tcpFlags(), packet.tcpFlags(), at);
                assertEquals(original.timestampNs(), buffer.timestampNs(), at);
                n++;
            }
            assertEquals(packets, n);
        }
    }

    @Test
    void shouldGiveEachPcapngPacketTheLinkTypeOfItsInterface() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("webattack-ether-sll2.pcapng")))
        {
            int n = 0;
            while (source.next(buffer))
            {
                assertEquals(n % 2 == 0 ? LinkType.ETHERNET : LinkType.LINUX_SLL2, buffer.linkType(), "packet " + n);
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                assertTrue(packet.isValid() && packet.isIpv4WithPorts(), "packet " + n + ": " + packet);
                n++;
            }
            assertEquals(300, n);
        }
    }

    @Test
    void shouldProcessEveryFrameOfACaptureCutBySnapLengthAndCountTheCutOnes() throws IOException
    {
        long cut = 0;
        long longerThanSnap = 0;
        try (PcapSource source = PcapSource.open(trace("webattack-sll-snap96.pcap")))
        {
            while (source.next(buffer))
            {
                longerThanSnap += buffer.originalLength() > 96 ? 1 : 0;
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                assertTrue(packet.isValid(), "packet " + buffer.sequence() + ": " + packet);
                cut += packet.isCutByCapture() ? 1 : 0;
            }
            assertTrue(longerThanSnap > 50, "the capture has frames longer than its snap length: " + longerThanSnap);
            assertEquals(longerThanSnap, source.stats().truncatedFrames());
            assertEquals(longerThanSnap, cut, "every cut frame is processed on its headers");
        }
    }

    @ParameterizedTest(name = "{0} has {1} frames captured shorter than on the wire: {2} valid, {3} before snap lengths were understood")
    @CsvSource({
        "badpackets.pcap, 7, 0, 0",
        "big-endian.pcap, 1, 1, 1",
        "truncated_dns_2.pcap, 1, 1, 0",
        })
    void shouldCountAndProcessTheFramesOfARealTraceCapturedShorterThanOnTheWire(
        final String file, final long truncated, final long processed, final long processedAsWhole) throws IOException
    {
        try (PcapSource source = PcapSource.open(trace(file)))
        {
            long shorter = 0;
            long valid = 0;
            long validAsWhole = 0;
            while (source.next(buffer))
            {
                if (buffer.isTruncated())
                {
                    shorter++;
                    packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                    valid += packet.isValid() ? 1 : 0;
                    validAsWhole += originalPacket.wrap(buffer.memory(), buffer.offset(), buffer.length()).isValid() ? 1 : 0;
                }
            }
            assertEquals(truncated, shorter);
            assertEquals(truncated, source.stats().truncatedFrames());
            assertEquals(processed, valid, "valid as a cut frame");
            assertEquals(processedAsWhole, validAsWhole, "valid when the wire length is not known");
        }
    }

    @Test
    void shouldWriteACookedCaptureBackWithItsLinkTypeAndLengths() throws IOException
    {
        final Path copy = tempDir.resolve("copy.pcap");
        try (PcapSource source = PcapSource.open(trace("webattack-sll-snap96.pcap")); PcapWriter writer = PcapWriter.create(copy))
        {
            while (source.next(buffer))
            {
                writer.write(buffer);
            }
            assertEquals(LinkType.LINUX_SLL, writer.linkType());
        }
        final byte[] header = Files.readAllBytes(copy);
        assertEquals(LinkType.LINUX_SLL, ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(20));
        try (PcapSource left = PcapSource.open(trace("webattack-sll-snap96.pcap")); PcapSource right = PcapSource.open(copy))
        {
            long n = 0;
            while (left.next(original))
            {
                assertTrue(right.next(buffer));
                assertEquals(LinkType.LINUX_SLL, buffer.linkType());
                assertEquals(original.length(), buffer.length(), "captured length of packet " + n);
                assertEquals(original.originalLength(), buffer.originalLength(), "wire length of packet " + n);
                assertArrayEquals(Arrays.copyOf(original.data(), original.length()), Arrays.copyOf(buffer.data(), buffer.length()));
                n++;
            }
            assertFalse(right.next(buffer));
            assertEquals(400, n);
            assertEquals(right.stats().truncatedFrames(), left.stats().truncatedFrames());
        }
    }

    @Test
    void shouldRefuseToWriteFramesOfTwoLinkTypesIntoOnePcap() throws IOException
    {
        final List<Integer> types = new ArrayList<>();
        final Path out = tempDir.resolve("mixed.pcap");
        try (PcapSource source = PcapSource.open(trace("webattack-ether-sll2.pcapng")); PcapWriter writer = PcapWriter.create(out))
        {
            assertTrue(source.next(buffer));
            writer.write(buffer);
            types.add(buffer.linkType());
            assertTrue(source.next(buffer));
            final PcapWriter.MixedLinkTypes e = assertThrows(PcapWriter.MixedLinkTypes.class, () -> writer.write(buffer));
            assertTrue(e.getMessage().contains("link type 276") && e.fix().contains("a file of their own"), e.getMessage());
        }
        assertEquals(List.of(LinkType.ETHERNET), types);
    }

    @Test
    void shouldRejectALinkTypeTheBufferCannotHold()
    {
        assertThrows(IllegalArgumentException.class, () -> buffer.linkType(101));
    }

    @Test
    void shouldCopyTheLinkTypeWithTheFrame() throws IOException
    {
        try (PcapSource source = PcapSource.open(trace("synscan-null.pcap")))
        {
            assertTrue(source.next(buffer));
        }
        original.copyFrom(buffer);

        assertEquals(LinkType.NULL, original.linkType());
    }
}
