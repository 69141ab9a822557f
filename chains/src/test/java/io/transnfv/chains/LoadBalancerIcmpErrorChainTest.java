package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.harness.Frames;
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
import java.util.SplittableRandom;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ICMP and ICMPv6 errors about balanced connections through a chain with the load balancer:
 * seeded IPv4 and IPv6 connections to the VIPs, and errors sent to the VIPs about the servers'
 * replies of live, closed, idle and never-seen connections. The oracle sends each error about
 * a live connection to that connection's server and drops the others as
 * {@code lb:no-connection}; the engine emits the same records and ends in the same state.
 */
class LoadBalancerIcmpErrorChainTest
{
    private static final String CHAIN = """
        name: lb-icmp-errors
        vnfs:
          - name: lb
            type: load-balancer
            params: { servers: 8, candidates: 3, idle_timeout: 2s, expiry_interval: 1s }
          - name: monitor
            type: flow-monitor
            params: { idle_timeout: 2s }
        edges:
          - from: lb
            to: monitor
        """;
    private static final String[] CLIENTS = {"1.2.3.4", "1.2.3.5", "198.51.100.9", "2001:db8:c::7", "2001:db8:c::8"};
    private static final String VIP = "100.0.0.1";
    private static final String VIP6 = "2001:db8:100::80";
    private static final long START_NS = 1_700_000_000_000_000_000L;

    @TempDir
    Path directory;

    /** One client connection of the traffic; {@code last} is the index of its latest packet. */
    private static final class Connection
    {
        private final String client;
        private final int port;
        private final boolean udp;
        private int last = -1;

        Connection(final String client, final int port, final boolean udp)
        {
            this.client = client;
            this.port = port;
            this.udp = udp;
        }

        boolean ipv6()
        {
            return client.indexOf(':') >= 0;
        }

        String vip()
        {
            return ipv6() ? VIP6 : VIP;
        }

        byte[] packet(final int flags, final int payload)
        {
            return udp ? Frames.udp(client, port, vip(), 53, payload) : Frames.tcp(client, port, vip(), 443, flags, payload);
        }

        /** The server's reply, as the client's side of the network saw it: from the VIP. */
        byte[] reply()
        {
            return udp ? Frames.udp(vip(), 53, client, port, 512) : Frames.tcp(vip(), 443, client, port, TCP_ACK, 1400);
        }

        byte[] errorAboutReply(final SplittableRandom random)
        {
            if (ipv6())
            {
                final int[][] kinds = {{2, 0}, {1, 4}, {3, 0}};
                final int[] kind = kinds[random.nextInt(kinds.length)];
                return Frames.icmpError("2001:db8:ffff::1", VIP6, kind[0], kind[1], reply());
            }
            final int[][] kinds = {{3, 4}, {3, 1}, {11, 0}};
            final int[] kind = kinds[random.nextInt(kinds.length)];
            return Frames.icmpError("192.0.2.1", VIP, kind[0], kind[1], reply());
        }
    }

    /**
     * The traffic; per ICMP error about a reply, the index of the latest packet of the
     * connection it quotes (-1: a connection that never was); the errors the load balancer
     * lets by.
     */
    private record Traffic(List<byte[]> packets, long[] timesNs, Map<Integer, Integer> errors, List<Integer> passing)
    {
    }

    @Test
    void shouldSendErrorsToTheirConnectionsServerAndEqualTheOracle() throws IOException
    {
        for (final long seed : new long[] {20261124L, 7L})
        {
            final Traffic traffic = traffic(seed, 3_000);
            final Path trace = pcap(traffic);
            final ChainSpec oracleSpec = chain(trace, 256);
            final List<String> records = new ArrayList<>();
            final Map<String, VnfCounter> counters;
            try (SerialChainExecutor oracle = new SerialChainExecutor(oracleSpec);
                PacketSource source = PacketSources.open(oracleSpec.settings().traffic()))
            {
                oracle.run(source, (record, buffer, packet) ->
                    records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));
                counters = oracle.runtime().instance(0).counters();
            }
            assertEquals(traffic.packets().size(), records.size());
            int forwarded = 0;
            int dropped = 0;
            for (final Map.Entry<Integer, Integer> error : traffic.errors().entrySet())
            {
                final String record = records.get(error.getKey());
                final int latest = error.getValue();
                if (record.contains(" FORWARD "))
                {
                    assertTrue(latest >= 0, () -> "an error about no connection must not pass: " + record);
                    assertEquals(field(records.get(latest), "lb.server="), field(record, "lb.server="),
                        () -> "the error goes to its connection's server: " + record);
                    forwarded++;
                }
                else
                {
                    assertTrue(record.contains(" DROP lb:no-connection "), record);
                    dropped++;
                }
            }
            for (final int at : traffic.passing())
            {
                assertTrue(records.get(at).contains(" FORWARD ") && !records.get(at).contains("lb.server="), records.get(at));
            }
            assertTrue(forwarded > 50 && dropped > 50, "both kinds, seed " + seed + ": " + forwarded + " / " + dropped);
            assertEquals(forwarded, counters.get("lb.errors-matched").get());
            assertEquals(dropped, counters.get("lb.no-connection").get());

            for (final int batch : new int[] {1, 3, 64})
            {
                final ChainSpec spec = chain(trace, batch);
                final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec,
                    () -> PacketSources.open(spec.settings().traffic()),
                    s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
                assertTrue(result.equivalent(), () -> "seed " + seed + ", batches of " + batch + ": first diverging record #"
                    + result.divergingSequence() + "\n  oracle: " + result.oracleRecord() + "\n  engine: "
                    + result.candidateRecord() + "\n  state: " + result.stateDifference());
                assertEquals(traffic.packets().size(), result.packets());
            }
        }
    }

    /**
     * Connections open, send, close and go idle (2 s) over about 6 s of packet time; a fifth of
     * the packets are errors about a reply, of a connection the traffic opened (live, closed
     * or idle) or of one that never was.
     */
    private static Traffic traffic(final long seed, final int count)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<byte[]> packets = new ArrayList<>();
        final long[] timesNs = new long[count];
        final Map<Integer, Integer> errors = new HashMap<>();
        final List<Connection> open = new ArrayList<>();
        final List<Connection> finished = new ArrayList<>();
        final List<Integer> passing = new ArrayList<>();
        int nextPort = 20_000;
        long timeNs = START_NS;
        while (packets.size() < count)
        {
            final int at = packets.size();
            timeNs += random.nextInt(1, 4_000) * 1_000L;
            timesNs[at] = timeNs;
            final int roll = random.nextInt(100);
            if (roll < 20 || open.isEmpty())
            {
                final Connection c = new Connection(CLIENTS[random.nextInt(CLIENTS.length)], nextPort++, random.nextInt(4) == 0);
                packets.add(c.packet(TCP_SYN, 0));
                c.last = at;
                open.add(c);
            }
            else if (roll < 55)
            {
                final Connection c = open.get(random.nextInt(open.size()));
                packets.add(c.packet(TCP_ACK, random.nextInt(0, 1200)));
                c.last = at;
            }
            else if (roll < 65)
            {
                final Connection c = open.remove(random.nextInt(open.size()));
                packets.add(c.packet(TCP_FIN | TCP_ACK, 0));
                c.last = at;
                finished.add(c);
            }
            else if (roll < 85)
            {
                final Connection c = random.nextInt(4) == 0 && !finished.isEmpty()
                    ? finished.get(random.nextInt(finished.size()))
                    : open.get(random.nextInt(open.size()));
                packets.add(c.errorAboutReply(random));
                errors.put(at, c.last);
            }
            else if (roll < 93)
            {
                final Connection never = new Connection(CLIENTS[random.nextInt(CLIENTS.length)], 40_000 + at, random.nextBoolean());
                packets.add(never.errorAboutReply(random));
                errors.put(at, -1);
            }
            else
            {
                // an error about a ping: the load balancer balances TCP and UDP only
                final Connection c = open.get(random.nextInt(open.size()));
                packets.add(Frames.icmpError(c.ipv6() ? "2001:db8:ffff::1" : "192.0.2.1", c.vip(), c.ipv6() ? 1 : 3, 3,
                    Frames.icmpEcho(c.vip(), c.client)));
                passing.add(at);
            }
        }
        return new Traffic(packets, timesNs, errors, passing);
    }

    private Path pcap(final Traffic traffic) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        out.write(header.array());
        for (int i = 0; i < traffic.packets().size(); i++)
        {
            final long ns = traffic.timesNs()[i];
            final byte[] p = traffic.packets().get(i);
            final ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int)(ns / 1_000_000_000L)).putInt((int)(ns % 1_000_000_000L)).putInt(p.length).putInt(p.length);
            out.write(record.array());
            out.write(p);
        }
        final Path file = Files.createTempFile(directory, "lb-icmp-errors", ".pcap");
        Files.write(file, out.toByteArray());
        return file;
    }

    private static ChainSpec chain(final Path trace, final int batch)
    {
        final ChainSpec parsed = new ChainLoader().parse(CHAIN, "lb-icmp-errors.yaml");
        return parsed.withSettings(parsed.settings().withTraffic(TrafficSpec.pcap(trace, 1))
            .withPunctuation(batch, 1_000_000).withExecutorThreads(2));
    }

    private static String field(final String record, final String prefix)
    {
        final int at = record.indexOf(prefix);
        if (at < 0)
        {
            return "";
        }
        final int end = record.indexOf(' ', at + prefix.length());
        return record.substring(at + prefix.length(), end < 0 ? record.length() : end);
    }
}
