package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Multi-tenant chains run: the compiled chain against the serial oracle, the rate limit on a
 * crafted trace, isolation of tenants' state, and the bundled chain on generated traffic.
 */
class TenantsChainTest
{
    private static final long START_NS = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int[] THREADS = {1, 2};

    @TempDir
    Path directory;

    /** One packet of a crafted trace. */
    private record Packet(long timeNs, byte[] frame)
    {
    }

    @Test
    void shouldEqualTheOracleOnTheBundledTenantsChainAtBothThreadCounts() throws IOException
    {
        for (final int threads : THREADS)
        {
            for (final String strategy : List.of("dfs/group/lazy", "adaptive-feedback"))
            {
                final ChainSpec spec = bundled(20_000, 64, threads);
                final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec,
                    () -> PacketSources.open(spec.settings().traffic()),
                    s -> new BatchedChainExecutor(s, n -> TpgBatchExecutor.create(n, strategy), strategy));
                assertTrue(result.equivalent(), () -> threads + " threads, " + strategy + ": first diverging record #" + result.divergingSequence()
                    + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord() + "\n  state: " + result.stateDifference());
                assertEquals(20_000, result.packets());
            }
        }
    }

    @Test
    void shouldGiveEveryTenantOfTheBundledChainPacketsOnGeneratedTraffic() throws IOException
    {
        final ChainSpec spec = bundled(30_000, 256, 1);
        final Map<String, Integer> verdicts = new HashMap<>();
        final Map<String, Long> counters = new HashMap<>();
        final String state;
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) ->
            {
                final String text = record.format(new StringBuilder(), oracle.runtime(), packet).toString();
                final int drop = text.indexOf(" DROP ");
                verdicts.merge(drop < 0 ? "forward" : text.substring(drop + 6, text.indexOf(' ', drop + 6)), 1, Integer::sum);
            });
            for (int v = 0; v < oracle.runtime().size(); v++)
            {
                oracle.runtime().instance(v).counters().forEach((name, counter) -> counters.put(name, counter.get()));
            }
            state = oracle.dumpState();
        }
        for (final String tenant : List.of("web", "shop", "secure"))
        {
            assertTrue(counters.get(tenant + ".packets") > 1_000, () -> tenant + " receives packets: " + counters);
        }
        assertEquals(30_000, counters.get("web.packets") + counters.get("shop.packets") + counters.get("secure.packets")
            + verdicts.getOrDefault("ingress:no-tenant", 0), () -> "every packet goes to one tenant or is dropped as no-tenant: " + verdicts);
        assertTrue(verdicts.getOrDefault("ingress:no-tenant", 0) > 0, verdicts::toString);
        assertTrue(verdicts.getOrDefault("shop:rate-limit", 0) > 0, verdicts::toString);
        assertEquals(counters.get("shop.packets") - counters.get("shop.passed"), (long)verdicts.get("shop:rate-limit"));
        for (final String table : List.of("web-nat.", "web-lb.", "shop-lb.", "secure-fw.", "secure-monitor.", "shop.bucket "))
        {
            assertTrue(state.lines().anyMatch(line -> line.startsWith(table)), () -> "the state dump names " + table);
        }
    }

    /**
     * Tenant a may send 1000 packets/s in bursts of 3: T = 1 ms, so four packets at once pass
     * three, one half a millisecond later finds half a token, and so on. Tenant b, with the same
     * timing and no limit, loses nothing; a packet of no tenant is dropped as no-tenant.
     */
    @Test
    void shouldDropExactlyWhatTheTokenBucketInPacketTimeSays() throws IOException
    {
        final double[] atMs = {0, 0, 0, 0, 0.5, 1.0, 1.5, 2.0, 10, 10, 10, 10};
        final String expected = "PPPDDPDPPPPD";
        final List<Packet> trace = new ArrayList<>();
        for (int i = 0; i < atMs.length; i++)
        {
            final long t = START_NS + (long)(atMs[i] * MS);
            trace.add(new Packet(t, Frames.tcp("10.0.0.7", 1000 + i, "172.16.0.1", 80, TCP_SYN, 0)));
            trace.add(new Packet(t, Frames.tcp("10.0.1.7", 1000 + i, "172.16.0.1", 80, TCP_SYN, 0)));
        }
        trace.add(new Packet(START_NS + 11 * MS, Frames.tcp("192.0.2.1", 5, "172.16.0.1", 80, TCP_SYN, 0)));
        final Path pcap = pcap(trace);
        final String yaml = """
            name: limited
            tenants:
              - name: a
                match: { src_net: 10.0.0.0/24 }
                chain: { vnfs: [ { name: monitor, type: flow-monitor } ] }
                limits: { pps: 1000, burst: 3 }
              - name: b
                match: { src_net: 10.0.1.0/24 }
                chain: { vnfs: [ { name: monitor, type: flow-monitor } ] }
            """;
        final List<String> records = oracleRecords(chain(yaml, pcap, 256, 1));
        final StringBuilder a = new StringBuilder();
        for (int i = 0; i < atMs.length; i++)
        {
            final String ofA = records.get(2 * i);
            final String ofB = records.get(2 * i + 1);
            a.append(ofA.contains(" DROP a:rate-limit") ? 'D' : ofA.contains(" FORWARD ") ? 'P' : '?');
            assertTrue(ofB.contains(" FORWARD "), ofB);
        }
        assertEquals(expected, a.toString(), () -> String.join("\n", records));
        assertTrue(records.get(records.size() - 1).contains(" DROP ingress:no-tenant"), records.get(records.size() - 1));
        for (final int threads : THREADS)
        {
            for (final int batch : new int[] {1, 3, 64})
            {
                final ChainSpec spec = chain(yaml, pcap, batch, threads);
                final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec, () -> PacketSources.open(spec.settings().traffic()),
                    s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
                assertTrue(result.equivalent(), () -> "batches of " + batch + ": " + result.oracleRecord() + " / " + result.candidateRecord()
                    + " / " + result.stateDifference());
            }
        }
    }

    /**
     * IPv6 prefixes beside IPv4 ones: each packet goes to the first tenant whose match accepts
     * it (an IPv4 packet to 10.9.0.1 is the dual-stack tenant's, listed before the IPv4 one), an
     * IPv6 source outside every prefix to none; the engine agrees at both thread counts.
     */
    @Test
    void shouldClassifyByIpv6AndIpv4PrefixesFirstMatchFirst() throws IOException
    {
        final String[][] packets = {
            {"2001:db8:a::1", "2001:db8:ff::1", "ingress>v6>v6-monitor"},
            {"2001:db8:b::1", "fd00::5", "ingress>dual>dual-monitor"},
            {"10.0.0.1", "10.9.0.1", "ingress>dual>dual-monitor"},
            {"10.0.0.1", "172.16.0.1", "ingress>v4>v4-monitor"},
            {"2001:db8:b::1", "2001:db8:ff::1", "DROP ingress:no-tenant"},
            {"192.0.2.1", "172.16.0.1", "DROP ingress:no-tenant"},
        };
        final List<Packet> trace = new ArrayList<>();
        for (int i = 0; i < packets.length; i++)
        {
            trace.add(new Packet(START_NS + i * MS, Frames.tcp(packets[i][0], 1000 + i, packets[i][1], 80, TCP_SYN, 0)));
        }
        final String monitor = "chain: { vnfs: [ { name: monitor, type: flow-monitor } ] }";
        final String yaml = "name: dual\ntenants:\n"
            + "  - name: v6\n    match: { src_net: 2001:db8:a::/48 }\n    " + monitor + "\n"
            + "  - name: dual\n    match: { dst_net: [fd00::/8, 10.9.0.0/16] }\n    " + monitor + "\n"
            + "  - name: v4\n    match: { src_net: 10.0.0.0/8 }\n    " + monitor + "\n";
        final Path file = pcap(trace);
        final List<String> records = oracleRecords(chain(yaml, file, 4, 1));
        assertEquals(packets.length, records.size());
        for (int i = 0; i < packets.length; i++)
        {
            assertTrue(records.get(i).contains(packets[i][2]), records.get(i) + " should contain " + packets[i][2]);
        }
        for (final int threads : THREADS)
        {
            final ChainSpec spec = chain(yaml, file, 2, threads);
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec, () -> PacketSources.open(spec.settings().traffic()),
                s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
            assertTrue(result.equivalent(), () -> result.oracleRecord() + " / " + result.candidateRecord() + " / " + result.stateDifference());
        }
    }

    /**
     * The same flows in two tenants (told apart by VLAN) keep two independent states: each
     * tenant's tables end exactly as its chain alone ends on its packets alone, under the
     * tenant-qualified names.
     */
    @Test
    void shouldKeepEachTenantsStateItsOwnForTheSameFlows() throws IOException
    {
        final List<Packet> both = new ArrayList<>();
        final List<Packet> onlyA = new ArrayList<>();
        final List<Packet> onlyB = new ArrayList<>();
        for (int i = 0; i < 60; i++)
        {
            final long t = START_NS + i * MS;
            final int flow = i % 5;
            final Packet p = new Packet(t, vlanTcp(i % 3 == 0 ? 20 : 10, "10.0.0." + (1 + flow), 4000 + flow, i < 5 ? TCP_SYN : TCP_ACK, i * 7 % 300));
            both.add(p);
            (i % 3 == 0 ? onlyB : onlyA).add(p);
        }
        final String tenantChain = "{ vnfs: [ { name: fw, type: firewall, params: { internal_net: 10.0.0.0/8 } },"
            + " { name: monitor, type: flow-monitor } ], edges: [ { from: fw, to: monitor } ] }";
        final String yaml = "name: isolated\ntenants:\n"
            + "  - name: a\n    match: { vlan: 10 }\n    chain: " + tenantChain + "\n"
            + "  - name: b\n    match: { vlan: [20, 30] }\n    chain: " + tenantChain + "\n";
        final String plain = "name: plain\nvnfs:\n  - { name: fw, type: firewall, params: { internal_net: 10.0.0.0/8 } }\n"
            + "  - { name: monitor, type: flow-monitor }\nedges:\n  - { from: fw, to: monitor }\n";
        final String together = oracleState(chain(yaml, pcap(both), 16, 1));
        final String aAlone = oracleState(chain(plain, pcap(onlyA), 16, 1));
        final String bAlone = oracleState(chain(plain, pcap(onlyB), 16, 1));
        assertFalse(aAlone.equals(bAlone), "the two tenants' traffic leaves different states");
        assertEquals(qualified(aAlone, "a-"), ofTenant(together, "a-"));
        assertEquals(qualified(bAlone, "b-"), ofTenant(together, "b-"));
        assertTrue(together.lines().anyMatch(l -> l.startsWith("a-monitor.flow-packets ")), together);
        assertTrue(together.lines().anyMatch(l -> l.startsWith("b-monitor.flow-packets ")), together);
        for (final int threads : THREADS)
        {
            final ChainSpec spec = chain(yaml, pcap(both), 4, threads);
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec, () -> PacketSources.open(spec.settings().traffic()),
                s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
            assertTrue(result.equivalent(), () -> result.oracleRecord() + " / " + result.candidateRecord() + " / " + result.stateDifference());
        }
    }

    private static String qualified(final String state, final String prefix)
    {
        return state.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).map(l -> prefix + l).collect(Collectors.joining("\n"));
    }

    private static String ofTenant(final String state, final String prefix)
    {
        return state.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.joining("\n"));
    }

    private static byte[] vlanTcp(final int vlan, final String src, final int sport, final int flags, final int payload)
    {
        final FrameBuilder builder = new FrameBuilder().vlan(PacketFlyweight.ETHERTYPE_VLAN, vlan)
            .ipv4(Ipv4.parse(src), Ipv4.parse("172.16.0.9")).tcp(sport, 443, flags, 1, 1).payload(payload, (byte)1);
        final byte[] frame = new byte[builder.length()];
        builder.write(frame, 0);
        return frame;
    }

    private static ChainSpec bundled(final int packets, final int batch, final int threads)
    {
        final ChainSpec loaded = new ChainLoader().loadBundled("tenants");
        final GeneratorConfig traffic = loaded.settings().traffic().generator().toBuilder().packets(packets).build();
        return loaded.withSettings(loaded.settings().withTraffic(TrafficSpec.generate(traffic)).withPunctuation(batch, 1_000_000)
            .withExecutorThreads(threads));
    }

    private static ChainSpec chain(final String yaml, final Path trace, final int batch, final int threads)
    {
        final ChainSpec parsed = new ChainLoader().parse(yaml, "t.yaml");
        return parsed.withSettings(parsed.settings().withTraffic(TrafficSpec.pcap(trace, 1)).withPunctuation(batch, 1_000_000_000L)
            .withExecutorThreads(threads));
    }

    private static List<String> oracleRecords(final ChainSpec spec) throws IOException
    {
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));
        }
        return records;
    }

    private static String oracleState(final ChainSpec spec) throws IOException
    {
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> { });
            return oracle.dumpState();
        }
    }

    private Path pcap(final List<Packet> packets) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        out.write(header.array());
        for (final Packet packet : packets)
        {
            final byte[] p = packet.frame();
            final ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int)(packet.timeNs() / 1_000_000_000L)).putInt((int)(packet.timeNs() % 1_000_000_000L)).putInt(p.length).putInt(p.length);
            out.write(record.array());
            out.write(p);
        }
        final Path file = Files.createTempFile(directory, "tenants", ".pcap");
        Files.write(file, out.toByteArray());
        return file;
    }
}
