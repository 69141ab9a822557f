package io.transnfv.engine.source;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeneratorTest
{
    private final PacketBuffer buffer = new PacketBuffer(2048);
    private final PacketFlyweight packet = new PacketFlyweight();

    private long streamHash(final String spec)
    {
        final Generator generator = new Generator(GeneratorConfig.parse(spec));
        long hash = 0;
        while (generator.next(buffer))
        {
            hash = FlowKeys.mix64(hash ^ buffer.timestampNs());
            hash = FlowKeys.mix64(hash ^ buffer.length());
            for (int i = 0; i < buffer.length(); i++)
            {
                hash = hash * 31 + buffer.data()[i];
            }
        }
        return hash;
    }

    @Test
    void shouldProduceTheSameBytesForTheSameParameters()
    {
        final String spec = "packets=20000,flows=500,new_conn_ratio=0.2,host_skew=1.1";
        assertEquals(streamHash(spec), streamHash(spec));
        assertNotEquals(streamHash(spec), streamHash(spec + ",seed=43"));
    }

    @Test
    void shouldGenerateValidFramesWithCorrectChecksumsSizesAndTimestamps()
    {
        final GeneratorConfig config = GeneratorConfig.parse("packets=50000,flows=1000,new_conn_ratio=0.1,rate_pps=2000");
        final Generator generator = new Generator(config);
        long syn = 0;
        long fin = 0;
        long tcp = 0;
        long previousTs = -1;
        long count = 0;
        final Set<Integer> ports = new HashSet<>();
        while (generator.next(buffer))
        {
            packet.wrap(buffer.data(), 0, buffer.length());
            assertTrue(packet.isValid(), "packet " + count);
            assertEquals(count, buffer.sequence());
            assertTrue(buffer.length() >= 64 && buffer.length() <= 1500, "length " + buffer.length());
            assertEquals(Checksums.ipv4Header(buffer.data(), packet.l3Offset()),
                ((buffer.data()[packet.l3Offset() + 10] & 0xFF) << 8) | (buffer.data()[packet.l3Offset() + 11] & 0xFF));
            final int field = packet.l4Offset() + Checksums.checksumFieldOffset(packet.ipProtocol());
            assertEquals(Checksums.transport(packet), ((buffer.data()[field] & 0xFF) << 8) | (buffer.data()[field + 1] & 0xFF));
            assertTrue(buffer.timestampNs() > previousTs);
            previousTs = buffer.timestampNs();
            assertTrue((packet.srcIpv4() >>> 24) == 10);
            assertTrue((packet.dstIpv4() >>> 20) == (0xAC100000 >>> 20));
            ports.add(packet.dstPort());
            if (packet.ipProtocol() == PacketFlyweight.PROTO_TCP)
            {
                tcp++;
                syn += packet.isSyn() ? 1 : 0;
                fin += packet.isFin() ? 1 : 0;
            }
            count++;
        }
        assertEquals(50000, count);
        assertEquals(config.startNs() + 49999L * 500_000L, previousTs);
        assertEquals(Set.of(80, 443, 22, 21, 6667, 53), ports);
        final double newShare = (double)syn / tcp;
        assertTrue(newShare > 0.08 && newShare < 0.12, "SYN share " + newShare);
        assertTrue(tcp > 0.85 * count && tcp < 0.95 * count, "TCP share " + tcp);
        assertTrue(fin > 0, "FINs " + fin);
        assertTrue(generator.openConnections() > 500, "open " + generator.openConnections());
        assertFalse(generator.next(buffer));
        assertEquals(50000, generator.stats().packets());
    }

    @Test
    void shouldConcentrateTrafficOnPopularHostsWithSkew()
    {
        final Generator generator = new Generator(GeneratorConfig.parse("packets=20000,new_conn_ratio=1,host_skew=1.5,hosts=1000"));
        long toFirstHost = 0;
        while (generator.next(buffer))
        {
            packet.wrap(buffer.data(), 0, buffer.length());
            toFirstHost += packet.srcIpv4() == 0x0A000001 ? 1 : 0;
        }
        // Zipf(1.5) over 1000 ranks gives rank 1 about 1/zeta(1.5) = 38 % of the mass.
        assertTrue(toFirstHost > 6000 && toFirstHost < 9000, "first host " + toFirstHost);
    }

    @Test
    void shouldParseSpecsAndRejectUnknownKeysAndBadValues()
    {
        final GeneratorConfig config = GeneratorConfig.parse("packets=10, dst_ports=22,6667,seed=9");
        assertEquals(10, config.packets());
        assertEquals(9, config.seed());
        assertEquals(2, config.dstPorts().length);
        assertEquals(config, GeneratorConfig.parse(config.describe()));
        assertEquals(GeneratorConfig.defaults(), GeneratorConfig.builder().build());
        assertEquals(1_000_000, GeneratorConfig.defaults().packets());

        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("flow=3"));
        assertTrue(unknown.getMessage().contains("'flow'") && unknown.getMessage().contains("flows"), unknown.getMessage());
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> GeneratorConfig.builder().set("new_conn_ratio", "1.5"));
        assertTrue(bad.getMessage().contains("'new_conn_ratio'") && bad.getMessage().contains("(0, 1]"), bad.getMessage());
        // the typed setters check what the text ones check, with the same messages
        final IllegalArgumentException typed = assertThrows(IllegalArgumentException.class,
            () -> GeneratorConfig.builder().newConnRatio(1.5));
        assertEquals(bad.getMessage(), typed.getMessage());
        final IllegalArgumentException servers = assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.builder().servers(0));
        assertEquals(assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.builder().set("servers", "0")).getMessage(),
            servers.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.builder().dstPorts(80, 0));
        assertEquals(GeneratorConfig.parse("flows=7,tcp_ratio=0.5,dst_ports=22,53,host_skew=1.5"),
            GeneratorConfig.builder().flows(7).tcpRatio(0.5).dstPorts(22, 53).hostSkew(1.5).build());
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("packets=abc"));
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("min_size=100,max_size=80"));
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("dst_ports=80,70000"));
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("min_size=20"));
    }

    @Test
    void shouldCheckEachValueWhenSetAndTheFrameSizeRangeOnlyWhenBuilt()
    {
        final GeneratorConfig large = GeneratorConfig.builder().set("min_size", "2000").set("max_size", "3000").build();
        assertEquals(2000, large.minSize());
        assertEquals(3000, large.maxSize());

        final GeneratorConfig.Builder inverted = GeneratorConfig.builder().set("min_size", "2000");
        final GeneratorConfig.ParameterException range = assertThrows(GeneratorConfig.ParameterException.class, inverted::build);
        assertEquals("generator parameter 'max_size' (1500) must be >= 'min_size' (2000)", range.getMessage());
        assertEquals(List.of("min_size", "max_size"), range.parameters());

        final GeneratorConfig.ParameterException bad = assertThrows(GeneratorConfig.ParameterException.class,
            () -> GeneratorConfig.builder().set("packets", "0"));
        assertEquals("generator parameter 'packets': expected an integer in 1..9223372036854775807, got 0", bad.getMessage());
        assertEquals(List.of("packets"), bad.parameters());
    }

    @Test
    void shouldContinueOnlyTheDstPortsListAfterAnItemWithoutEquals()
    {
        final GeneratorConfig config = GeneratorConfig.parse("dst_ports=22,21,seed=7");
        assertArrayEquals(new int[] {22, 21}, config.dstPorts());
        assertEquals(7, config.seed());

        final IllegalArgumentException notKeyValue = assertThrows(IllegalArgumentException.class,
            () -> GeneratorConfig.builder().parse("packets=5,6", item -> "got '" + item + "'"));
        assertEquals("got '6'", notKeyValue.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.parse("=5"));
    }

    @Test
    void shouldOverrideOnlyTheParametersGivenOverAnotherConfiguration()
    {
        final GeneratorConfig chain = GeneratorConfig.parse("packets=500,flows=77,seed=3");
        final GeneratorConfig overridden = chain.toBuilder().parse("packets=20", item -> item).build();
        assertEquals(20, overridden.packets());
        assertEquals(77, overridden.flows());
        assertEquals(GeneratorConfig.parse("packets=500,flows=77,seed=9"), chain.toBuilder().seed(9).build());
        assertEquals(3, chain.seed(), "the original is unchanged");
    }
}
