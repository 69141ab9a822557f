package io.transnfv.engine.source;

import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several generated streams merged into one source: order, numbering, each stream's marks, its share, and the text form. */
class MergedGeneratorTest
{
    private static final String TWO_STREAMS = "packets=4000,"
        + "stream.0.rate_pps=250000,stream.0.vlan=100,stream.0.client_base=10.1.0.1,stream.0.hosts=50,stream.0.packets=100000,"
        + "stream.1.rate_pps=750000,stream.1.vlan=200,stream.1.dscp=46,stream.1.client_base=10.2.0.1,stream.1.hosts=20,"
        + "stream.1.new_conn_ratio=0.5,stream.1.dst_ports=80,443,stream.1.packets=100000";

    @Test
    void shouldMergeTheStreamsByTimestampRenumberedWithEachStreamsMarksAndItsShareOfTheRate() throws SourceException
    {
        final GeneratorConfig config = GeneratorConfig.parse(TWO_STREAMS);
        final List<byte[]> frames = new ArrayList<>();
        final PacketBuffer buffer = new PacketBuffer();
        final PacketFlyweight packet = new PacketFlyweight();
        final int[] perStream = new int[2];
        long lastTime = Long.MIN_VALUE;
        try (PacketSource source = Generator.open(config))
        {
            assertInstanceOf(MergedGenerator.class, source);
            while (source.next(buffer))
            {
                assertEquals(frames.size(), buffer.sequence(), "renumbered in the order yielded");
                assertTrue(buffer.timestampNs() >= lastTime, "by timestamp");
                lastTime = buffer.timestampNs();
                packet.wrap(buffer.data(), 0, buffer.length());
                assertTrue(packet.isValid());
                assertTrue(buffer.length() <= 1500, "the tag fits inside max_size: " + buffer.length());
                assertEquals(Checksums.ipv4Header(buffer.data(), packet.l3Offset()),
                    ((buffer.data()[packet.l3Offset() + 10] & 0xFF) << 8) | (buffer.data()[packet.l3Offset() + 11] & 0xFF));
                final int stream = packet.vlanId() == 100 ? 0 : 1;
                assertEquals(stream == 0 ? 100 : 200, packet.vlanId());
                final int client = packet.srcIpv4();
                assertEquals(stream == 0 ? 0x0A01 : 0x0A02, client >>> 16, "the stream's client prefix");
                assertTrue((client & 0xFFFF) >= 1 && (client & 0xFFFF) <= (stream == 0 ? 50 : 20));
                final int dscp = (buffer.data()[packet.l3Offset() + 1] & 0xFF) >>> 2;
                assertEquals(stream == 0 ? 0 : 46, dscp);
                perStream[stream]++;
                frames.add(Arrays.copyOf(buffer.data(), buffer.length()));
            }
        }
        assertEquals(4_000, frames.size(), "the mix stops at its own packets");
        assertEquals(4_000, config.totalPackets());
        // 250 k and 750 k packets/s from the same start: one packet of stream 0 to three of stream 1
        assertEquals(1_000, perStream[0]);
        assertEquals(3_000, perStream[1]);

        try (PacketSource again = Generator.open(config))
        {
            for (final byte[] frame : frames)
            {
                assertTrue(again.next(buffer));
                assertArrayEquals(frame, Arrays.copyOf(buffer.data(), buffer.length()), "deterministic");
            }
        }
    }

    @Test
    void shouldEndWhenEveryStreamHasEnded() throws SourceException
    {
        final GeneratorConfig config = GeneratorConfig.parse("stream.0.packets=30,stream.1.packets=12,stream.1.rate_pps=10");
        assertEquals(42, config.totalPackets(), "the fewer of the default 1,000,000 and the streams' 42");
        int n = 0;
        final PacketBuffer buffer = new PacketBuffer();
        try (PacketSource source = Generator.open(config))
        {
            while (source.next(buffer))
            {
                n++;
            }
        }
        assertEquals(42, n);
    }

    @Test
    void shouldDrawEachStreamFromItsOwnSeed() throws SourceException
    {
        // two streams alike but for nothing: their seeds differ by their index, so their packets do
        final GeneratorConfig config = GeneratorConfig.parse("packets=2,stream.0.packets=1,stream.1.packets=1");
        final PacketBuffer buffer = new PacketBuffer();
        final byte[][] first = new byte[2][];
        try (PacketSource source = Generator.open(config))
        {
            for (int i = 0; i < 2; i++)
            {
                assertTrue(source.next(buffer));
                first[i] = Arrays.copyOf(buffer.data(), buffer.length());
            }
        }
        assertTrue(!Arrays.equals(first[0], first[1]), "stream 0's first packet (a tie goes to it) and stream 1's differ");
    }

    @Test
    void shouldDescribeTheStreamsInTextThatParsesBackToTheSameConfiguration()
    {
        final GeneratorConfig config = GeneratorConfig.parse(TWO_STREAMS);
        assertEquals(2, config.streams().size());
        assertEquals(config, GeneratorConfig.parse(config.describe()));
        assertEquals(List.of(80, 443), Arrays.stream(config.streams().get(1).dstPorts()).boxed().toList());
        assertEquals(config, config.toBuilder().build());
        assertEquals(GeneratorConfig.defaults().describe(), GeneratorConfig.parse("").describe(), "no streams, no new keys printed");
    }

    @Test
    void shouldRefuseBadStreamsAndMarks()
    {
        assertMessage("stream 1 is missing", "stream.0.packets=5,stream.2.packets=5");
        assertMessage("a stream has no streams of its own", "stream.0.stream.1.packets=5");
        assertMessage("stream.<i>.<key>", "stream.x.packets=5");
        assertMessage("stream.<i>.<key>", "stream.64.packets=5");
        assertMessage("'vlan': expected an integer in 0..4094", "vlan=4095");
        assertMessage("'dscp': expected an integer in 0..63", "stream.0.dscp=64");
        assertMessage("expected an IPv4 address such as 10.1.0.1, got '10.1.0'", "client_base=10.1.0");
        assertMessage("run past 255.255.255.255", "client_base=255.255.255.200,hosts=100");
        assertMessage("stream 0: generator parameter 'max_size' (100) must be >= 'min_size' (200)", "stream.0.min_size=200,stream.0.max_size=100");
        assertThrows(IllegalArgumentException.class, () -> new Generator(GeneratorConfig.parse("stream.0.packets=5")),
            "a merged configuration is not one generator's");
    }

    private static void assertMessage(final String part, final String spec)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse(spec), spec);
        assertTrue(e.getMessage().contains(part), () -> spec + ": " + e.getMessage());
    }
}
