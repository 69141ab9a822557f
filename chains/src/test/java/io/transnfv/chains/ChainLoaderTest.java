package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import io.transnfv.vnf.packet.PacketPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A valid chain becomes the right {@link ChainSpec}; its predicates hold on real frames. */
class ChainLoaderTest
{
    private static final String CHAIN = """
        name: demo
        description: A test chain.
        vnfs:
          - name: r
            type: test-router
            params:
              capacity: 1_000
              ratio: 0.25
              timeout: 250ms
              ports: [22, 80]
              labels: a, b
          - name: web
            type: test-sink
          - name: alarm
            type: test-sink
          - name: rest
            type: test-sink
        edges:
          - from: r
            to: web
            when: { proto: tcp, ip_version: 4, dst_net: 192.168.0.0/16, dst_port: [80, 443] }
          - from: r
            output: suspicious
            to: alarm
            when:
              src_net: 10.0.0.0/8
              tcp_flags: [syn]
          - from: r
            to: rest
        settings:
          punctuation: { transactions: 256, interval: 50us }
          executor_threads: 3
          traffic:
            generate: { packets: 1000, new_conn_ratio: 0.5, dst_ports: [80, 443] }
          output: out.pcap
        """;

    private final ChainLoader loader = new ChainLoader();
    private final FrameBuilder frames = new FrameBuilder();
    private final byte[] buffer = new byte[2048];
    private final PacketFlyweight packet = new PacketFlyweight();

    @Test
    void shouldBuildTheVnfsWithValidatedParametersInOrder()
    {
        final ChainSpec chain = loader.parse(CHAIN, "demo.yaml");
        assertEquals("demo", chain.name());
        assertEquals("A test chain.", chain.description());
        assertEquals(List.of("r", "web", "alarm", "rest"), chain.vnfs().stream().map(v -> v.name()).toList());
        assertEquals("test-router", chain.vnfs().get(0).type());
        assertEquals(1000, chain.vnfs().get(0).config().getInt("capacity"));
        assertEquals(0.25, chain.vnfs().get(0).config().getDouble("ratio"));
        assertEquals(250_000_000L, chain.vnfs().get(0).config().getDurationNs("timeout"));
        assertEquals(List.of(22, 80), chain.vnfs().get(0).config().getIntList("ports"));
        assertEquals(List.of("a", "b"), chain.vnfs().get(0).config().getStringList("labels"));
        assertEquals("fast", chain.vnfs().get(0).config().getString("mode"));
    }

    @Test
    void shouldBuildTheSettings()
    {
        final RunSettings settings = loader.parse(CHAIN, "demo.yaml").settings();
        assertEquals(256, settings.punctuationTransactions());
        assertEquals(50_000L, settings.punctuationIntervalNs());
        assertEquals(3, settings.executorThreads());
        assertEquals(TrafficSpec.Kind.GENERATE, settings.traffic().kind());
        assertEquals(GeneratorConfig.parse("packets=1000,new_conn_ratio=0.5,dst_ports=80,443"), settings.traffic().generator());
        assertEquals(Path.of("out.pcap"), settings.outPcap());
    }

    @Test
    void shouldReadTheFaultSettingsAsSharesAndDurations()
    {
        final RunSettings settings = loader.parse("""
            name: one
            vnfs:
              - name: a
                type: test-sink
            settings:
              faults: { error_bound: 0.5%, error_window: 30s, batch_deadline: 0 }
            """, "one.yaml").settings();
        assertEquals(new FaultSettings(0.005, 30_000_000_000L, 0), settings.faults());
    }

    @Test
    void shouldReadTheCheckpointSettingsInBatchesOrInPacketTime()
    {
        final String chain = """
            name: one
            vnfs:
              - name: a
                type: test-sink
            settings:
              checkpoint: { dir: ckpt, every: %s, full_every: 4 }
            """;

        final CheckpointSettings inBatches = loader.parse(chain.formatted("50"), "one.yaml").settings().checkpoint();
        final CheckpointSettings inTime = loader.parse(chain.formatted("500ms"), "one.yaml").settings().checkpoint();

        assertEquals(new CheckpointSettings(Path.of("ckpt"), 50, 0, 4), inBatches);
        assertEquals(new CheckpointSettings(Path.of("ckpt"), 0, 500_000_000L, 4), inTime);
    }

    @Test
    void shouldReportABadCheckpointIntervalAndAMissingDirectoryWithTheirPositions()
    {
        final List<String> errors = loader.validate("""
            name: one
            vnfs:
              - name: a
                type: test-sink
            settings:
              checkpoint: { every: often }
            """, "one.yaml").stream().map(ChainError::format).toList();

        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).contains("checkpoint needs a 'dir'") || errors.get(1).contains("checkpoint needs a 'dir'"), errors.toString());
        assertTrue(String.join("\n", errors).contains("bad checkpoint every"), errors.toString());
        assertTrue(String.join("\n", errors).contains("6:"), errors.toString());
    }

    @Test
    void shouldUseTheDefaultSettingsWhenThereAreNone()
    {
        final ChainSpec chain = loader.parse("""
            name: one
            vnfs:
              - name: a
                type: test-sink
            """, "one.yaml");
        assertEquals(RunSettings.defaults(), chain.settings());
        assertTrue(chain.edges().isEmpty());
    }

    @Test
    void shouldBuildTheEdgesInDeclarationOrderWithOutputAndPredicateText()
    {
        final List<EdgeSpec> edges = loader.parse(CHAIN, "demo.yaml").edges();
        assertEquals(3, edges.size());
        assertEquals("r", edges.get(0).from());
        assertEquals("out", edges.get(0).output());
        assertEquals("web", edges.get(0).to());
        assertEquals("{ proto: tcp, ip_version: 4, dst_net: 192.168.0.0/16, dst_port: [80, 443] }", edges.get(0).whenText());
        assertEquals("suspicious", edges.get(1).output());
        assertEquals("{ src_net: 10.0.0.0/8, tcp_flags: [syn] }", edges.get(1).whenText());
        assertSame(EdgeSpec.ALWAYS, edges.get(2).when());
        assertEquals("", edges.get(2).whenText());
    }

    @Test
    void shouldEvaluateTheCompiledPredicatesOnRealFrames()
    {
        final List<EdgeSpec> edges = loader.parse(CHAIN, "demo.yaml").edges();
        final PacketPredicate web = edges.get(0).when();
        final PacketPredicate synFromInside = edges.get(1).when();

        assertTrue(web.test(tcp("10.0.0.1", "192.168.3.4", 1234, 443, PacketFlyweight.TCP_ACK)));
        assertTrue(web.test(tcp("10.0.0.1", "192.168.3.4", 1234, 80, 0)));
        assertFalse(web.test(tcp("10.0.0.1", "192.168.3.4", 1234, 8080, 0)), "port not listed");
        assertFalse(web.test(tcp("10.0.0.1", "172.16.0.1", 1234, 80, 0)), "outside dst_net");
        assertFalse(web.test(udp("10.0.0.1", "192.168.3.4", 1234, 80)), "not tcp");
        assertFalse(web.test(ipv6Tcp(80)), "not IPv4");

        assertTrue(synFromInside.test(tcp("10.9.8.7", "8.8.8.8", 1, 2, PacketFlyweight.TCP_SYN)));
        assertTrue(synFromInside.test(tcp("10.9.8.7", "8.8.8.8", 1, 2, PacketFlyweight.TCP_SYN | PacketFlyweight.TCP_ACK)));
        assertFalse(synFromInside.test(tcp("10.9.8.7", "8.8.8.8", 1, 2, PacketFlyweight.TCP_ACK)), "no syn");
        assertFalse(synFromInside.test(tcp("11.0.0.1", "8.8.8.8", 1, 2, PacketFlyweight.TCP_SYN)), "outside src_net");
        assertFalse(synFromInside.test(udp("10.9.8.7", "8.8.8.8", 1, 2)), "udp has no flags");
    }

    @Test
    void shouldMatchProtocolNumbersAndIpVersionSix()
    {
        final ChainSpec chain = loader.parse("""
            name: p
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
              - name: c
                type: test-sink
            edges:
              - from: a
                to: b
                when: { proto: 17, src_port: 53 }
              - from: a
                to: c
                when: { ip_version: 6 }
            """, "p.yaml");
        final PacketPredicate dns = chain.edges().get(0).when();
        final PacketPredicate v6 = chain.edges().get(1).when();
        assertTrue(dns.test(udp("1.1.1.1", "10.0.0.1", 53, 4000)));
        assertFalse(dns.test(udp("1.1.1.1", "10.0.0.1", 54, 4000)));
        assertTrue(v6.test(ipv6Tcp(80)));
        assertFalse(v6.test(udp("1.1.1.1", "10.0.0.1", 53, 4000)));
    }

    @Test
    void shouldResolveARelativePcapAgainstTheChainFilesDirectory(@TempDir final Path dir) throws Exception
    {
        Files.createDirectories(dir.resolve("traces"));
        Files.write(dir.resolve("traces/t.pcap"), new byte[24]);
        final Path chainFile = dir.resolve("c.yaml");
        Files.writeString(chainFile, """
            name: c
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic: { pcap: traces/t.pcap, loop: 3 }
            """);
        final TrafficSpec traffic = loader.load(chainFile).settings().traffic();
        assertEquals(TrafficSpec.Kind.PCAP, traffic.kind());
        assertEquals(dir.resolve("traces/t.pcap").toAbsolutePath().normalize(), traffic.pcap().toAbsolutePath());
        assertEquals(3, traffic.loops());
        assertNull(loader.load(chainFile).settings().outPcap());
    }

    private PacketFlyweight tcp(final String src, final String dst, final int srcPort, final int dstPort, final int flags)
    {
        return wrap(frames.reset().ipv4(Ipv4.parse(src), Ipv4.parse(dst)).tcp(srcPort, dstPort, flags, 1, 0));
    }

    private PacketFlyweight udp(final String src, final String dst, final int srcPort, final int dstPort)
    {
        return wrap(frames.reset().ipv4(Ipv4.parse(src), Ipv4.parse(dst)).udp(srcPort, dstPort));
    }

    private PacketFlyweight ipv6Tcp(final int dstPort)
    {
        return wrap(frames.reset().ipv6(0x20010db800000000L, 1L, 0x20010db800000000L, 2L).tcp(1000, dstPort, 0, 1, 0));
    }

    private PacketFlyweight wrap(final FrameBuilder builder)
    {
        final int length = builder.write(buffer, 0);
        return packet.wrap(buffer, 0, length);
    }
}
