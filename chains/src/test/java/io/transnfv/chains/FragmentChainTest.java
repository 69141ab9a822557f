package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FragmentSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.ForwardingPacketSource;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
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
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IP fragments through every built-in VNF: the chain's entry gives a datagram's later
 * fragments the ports of its first, holds fragments that come before their first, and times
 * out or refuses what it cannot hold. Each case checks what the oracle emits, then that the
 * engine emits the same, record for record, with batches that cut the fragments apart.
 */
class FragmentChainTest
{
    private static final int INSIDE = 0x0A000005;      // 10.0.0.5
    private static final int RESOLVER = 0x08080808;    // 8.8.8.8
    private static final long START_NS = 1_700_000_000_000_000_000L;
    private static final long STEP_NS = 10_000L;

    @TempDir
    Path directory;

    private final FrameBuilder builder = new FrameBuilder();
    private final byte[] frame = new byte[2048];

    @Test
    void shouldTranslateAndBalanceEveryFragmentOfADatagramAsItsFirstInOrder() throws IOException
    {
        final List<byte[]> packets = List.of(
            udpFragment(INSIDE, RESOLVER, 7, 0, true),
            udpFragment(INSIDE, RESOLVER, 7, 40, true),
            udpFragment(INSIDE, RESOLVER, 7, 80, false));
        final List<String> records = oracle("nat-lb-td", packets, FragmentSettings.defaults());
        assertEquals(3, records.size(), records::toString);
        final String server = field(records.get(0), "lb.server=");
        for (int i = 0; i < 3; i++)
        {
            assertTrue(records.get(i).startsWith(i + " "), records::toString);
            assertTrue(records.get(i).contains(" FORWARD nat>lb>td udp 203.0.113."),
                () -> "the NAT must not leak the inside address: " + records);
            assertEquals(server, field(records.get(i), "lb.server="), () -> "one datagram, one server: " + records);
        }
        assertEquivalent("nat-lb-td", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldHoldFragmentsThatComeBeforeTheirFirstAndLetThemGoRightAfterIt() throws IOException
    {
        final List<byte[]> packets = List.of(
            udpFragment(INSIDE, RESOLVER, 9, 80, false),
            udp(0x0A000006, RESOLVER, 1111, 53),
            udpFragment(INSIDE, RESOLVER, 9, 40, true),
            udpFragment(INSIDE, RESOLVER, 9, 0, true),
            udp(0x0A000006, RESOLVER, 1111, 53));
        final List<String> records = oracle("nat-lb-td", packets, FragmentSettings.defaults());
        assertEquals(List.of("1", "3", "0", "2", "4"), sequences(records), records::toString);
        final String server = field(records.get(1), "lb.server=");
        for (final int i : new int[] {1, 2, 3})
        {
            assertTrue(records.get(i).contains(" FORWARD nat>lb>td udp 203.0.113."), records::toString);
            assertEquals(server, field(records.get(i), "lb.server="), records::toString);
        }
        assertEquals(time(records.get(1)), time(records.get(2)), "a released fragment goes on at its first fragment's time");
        assertEquivalent("nat-lb-td", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldLetAnAllowedReplysFragmentsThroughTheFirewall() throws IOException
    {
        // a DNS query out, then its answer in three fragments, the last one first
        final List<byte[]> packets = List.of(
            udp(INSIDE, RESOLVER, 5353, 53),
            udpFragment(RESOLVER, INSIDE, 21, 80, false, 53, 5353),
            udpFragment(RESOLVER, INSIDE, 21, 0, true, 53, 5353),
            udpFragment(RESOLVER, INSIDE, 21, 40, true, 53, 5353));
        final List<String> records = oracle("fw-portscan-monitor", packets, FragmentSettings.defaults());
        assertEquals(List.of("0", "2", "1", "3"), sequences(records), records::toString);
        for (final String record : records)
        {
            assertTrue(record.contains(" FORWARD fw>monitor udp "), () -> "no fw:not-established: " + records);
        }
        assertEquivalent("fw-portscan-monitor", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldKeyOverlappingAndRepeatedFragmentsOfInterleavedDatagramsByTheirOwnDatagram() throws IOException
    {
        final List<byte[]> packets = List.of(
            udpFragment(INSIDE, RESOLVER, 1, 0, true, 4001, 53),
            udpFragment(INSIDE, RESOLVER, 2, 0, true, 4002, 53),
            udpFragment(INSIDE, RESOLVER, 1, 40, true, 4001, 53),
            udpFragment(INSIDE, RESOLVER, 2, 24, true, 4002, 53),
            udpFragment(INSIDE, RESOLVER, 1, 32, false, 4001, 53),   // overlaps the one before
            udpFragment(INSIDE, RESOLVER, 2, 24, false, 4002, 53));  // repeats an offset
        final List<String> records = oracle("nat-lb-td", packets, FragmentSettings.defaults());
        final String one = field(records.get(0), "udp ");
        final String two = field(records.get(1), "udp ");
        assertTrue(!one.equals(two), records::toString);
        assertEquals(List.of(one, two, one, two, one, two),
            records.stream().map(r -> field(r, "udp ")).toList(), records::toString);
        assertEquivalent("nat-lb-td", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldDropAHeldFragmentAsTimedOutWhenItsDatagramExpiresAndAtTheEndOfTheInput() throws IOException
    {
        final List<byte[]> packets = new ArrayList<>();
        packets.add(udpFragment(INSIDE, RESOLVER, 5, 40, false));
        for (int i = 0; i < 300; i++)
        {
            packets.add(udp(0x0A000006, RESOLVER, 2000 + (i % 7), 53));
        }
        packets.add(udpFragment(INSIDE, RESOLVER, 6, 40, false));
        final FragmentSettings settings = new FragmentSettings(1_000_000L, 64);   // 1 ms; a packet every 10 us
        final List<String> records = oracle("nat-lb-td", packets, settings);
        assertEquals(packets.size(), records.size());
        final int timedOut = indexOf(records, "0 ");
        assertTrue(records.get(timedOut).contains(" DROP ingress:fragment-timeout "), records.get(timedOut));
        assertEquals(100, timedOut, "dropped before packet 101, the first more than 1 ms after it was held");
        assertTrue(records.get(timedOut + 1).startsWith("101 "), records.get(timedOut + 1));
        assertTrue(records.get(records.size() - 1).startsWith((packets.size() - 1) + " "));
        assertTrue(records.get(records.size() - 1).contains(" DROP ingress:fragment-timeout "),
            "a fragment still held when the input ends times out after the last packet");
        assertEquivalent("nat-lb-td", packets, settings);
    }

    @Test
    void shouldDropAFragmentWithNoRoomToBeHeldAsOverflow() throws IOException
    {
        final List<byte[]> packets = List.of(
            udpFragment(INSIDE, RESOLVER, 11, 40, false),
            udpFragment(INSIDE, RESOLVER, 12, 40, false),
            udpFragment(INSIDE, RESOLVER, 13, 40, false),
            udpFragment(INSIDE, RESOLVER, 11, 0, true));
        final FragmentSettings settings = new FragmentSettings(1_000_000_000L, 2);
        final List<String> records = oracle("nat-lb-td", packets, settings);
        assertEquals(List.of("2", "3", "0", "1"), sequences(records), records::toString);
        assertTrue(records.get(0).contains(" DROP ingress:fragment-overflow "), records::toString);
        assertTrue(records.get(2).contains(" FORWARD nat>lb>td udp 203.0.113."), records::toString);
        assertTrue(records.get(3).contains(" DROP ingress:fragment-timeout "), records::toString);
        final RunStats stats = run("nat-lb-td", packets, settings);
        assertEquals(1, stats.malformed(io.transnfv.engine.egress.PacketRecord.FRAGMENT_OVERFLOW));
        assertEquals(1, stats.malformed(io.transnfv.engine.egress.PacketRecord.FRAGMENT_TIMEOUT));
        assertEquivalent("nat-lb-td", packets, settings);
    }

    @Test
    void shouldGiveIpv6FragmentsTheirDatagramsPortsInEitherOrder() throws IOException
    {
        final List<byte[]> packets = List.of(
            udp6Fragment(33, 0, true),
            udp6Fragment(33, 1448, false),
            udp6Fragment(34, 1448, false),
            udp6Fragment(34, 0, true));
        final List<String> records = oracle("fw-portscan-monitor", packets, FragmentSettings.defaults());
        assertEquals(List.of("0", "1", "3", "2"), sequences(records), records::toString);
        for (final String record : records)
        {
            assertTrue(record.contains(":4444>") && record.contains(":53"), () -> "every fragment has its ports: " + records);
        }
        assertEquivalent("fw-portscan-monitor", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldEqualTheOracleOnRandomFragmentedTrafficThroughBothChains() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(20261124L);
        for (int round = 0; round < 4; round++)
        {
            final List<byte[]> packets = new ArrayList<>();
            for (int d = 0; d < 40; d++)
            {
                final int src = random.nextBoolean() ? 0x0A000000 | random.nextInt(1, 8) : 0x08080800 | random.nextInt(1, 8);
                final int dst = (src >>> 24) == 10 ? 0x08080808 : 0x0A000005;
                final int id = random.nextInt(1, 1 << 16);
                final int sport = random.nextInt(1024, 1100);
                final List<byte[]> datagram = new ArrayList<>();
                final int fragments = random.nextInt(1, 4);
                for (int f = 0; f < fragments; f++)
                {
                    datagram.add(udpFragment(src, dst, id, f * 40, f + 1 < fragments, sport, 53));
                }
                if (random.nextInt(4) == 0)
                {
                    datagram.remove(0);   // a first fragment that never comes
                }
                if (random.nextBoolean())
                {
                    java.util.Collections.reverse(datagram);
                }
                for (final byte[] p : datagram)
                {
                    packets.add(random.nextInt(packets.size() + 1), p);
                }
                packets.add(random.nextInt(packets.size() + 1), udp(src, dst, sport, 53));
            }
            final FragmentSettings settings = new FragmentSettings(200_000L + random.nextInt(600_000), random.nextInt(0, 12));
            assertEquivalent("nat-lb-td", packets, settings);
            assertEquivalent("fw-portscan-monitor", packets, settings);
        }
    }

    @Test
    void shouldHoldAnIcmpEchoReplysFragmentsAndLetThemAllThroughTheFirewall() throws IOException
    {
        // a ping out, then its reply in three fragments, the last one first; and the same over IPv6
        final List<byte[]> packets = List.of(
            icmp(INSIDE, RESOLVER, 8, 0, 0, false),
            icmp(RESOLVER, INSIDE, 0, 51, 2960, false),
            icmp(RESOLVER, INSIDE, 0, 51, 0, true),
            icmp(RESOLVER, INSIDE, 0, 51, 1480, true),
            icmp6(0xfd000000_00000000L, 5, 0x20010db8_00000001L, 53, 128, 0, 0, false),
            icmp6(0x20010db8_00000001L, 53, 0xfd000000_00000000L, 5, 129, 61, 1448, false),
            icmp6(0x20010db8_00000001L, 53, 0xfd000000_00000000L, 5, 129, 61, 0, true));
        final List<String> records = oracle("fw-portscan-monitor", packets, FragmentSettings.defaults());
        assertEquals(List.of("0", "2", "1", "3", "4", "6", "5"), sequences(records), records::toString);
        for (final String record : records)
        {
            assertTrue(record.contains(" FORWARD fw>monitor icmp"), () -> "every fragment of the reply passes: " + records);
        }
        assertEquivalent("fw-portscan-monitor", packets, FragmentSettings.defaults());
    }

    @Test
    void shouldTranslateBalanceAndAdmitEveryFragmentOfAnIcmpErrorAsItsFirst() throws IOException
    {
        // a DNS query out through the NAT, its answer in; then a router's error about the query in
        // two fragments, the later one first: the NAT translates both back to the inside host and
        // the load balancer sends both to the server of the answer's connection
        final List<String> translated = oracle("nat-lb-td", List.of(udp(INSIDE, RESOLVER, 5353, 53)), FragmentSettings.defaults());
        final int external = parseAddress(field(translated.get(0), "udp "));
        final int port = Integer.parseInt(field(translated.get(0), "udp ").split("[:>]")[1]);
        final byte[] query = udp(external, RESOLVER, port, 53);
        final List<byte[]> packets = List.of(
            udp(INSIDE, RESOLVER, 5353, 53),
            udp(RESOLVER, external, 53, port),
            icmp(RESOLVER, external, 0, 77, 1480, false),
            icmpErrorFirstFragment(RESOLVER, external, 77, query));
        final List<String> records = oracle("nat-lb-td", packets, FragmentSettings.defaults());
        assertEquals(List.of("0", "1", "3", "2"), sequences(records), records::toString);
        final String server = field(records.get(1), "lb.server=");
        for (final int i : new int[] {2, 3})
        {
            assertTrue(records.get(i).contains(" FORWARD nat>lb>td icmp 8.8.8.8>192.168."),
                () -> "translated back by the NAT, every fragment is balanced as an error about the answer: " + records);
            assertEquals(server, field(records.get(i), "lb.server="), records::toString);
        }
        assertEquivalent("nat-lb-td", packets, FragmentSettings.defaults());

        // the same error about a connection the firewall tracks: every fragment is related
        final List<byte[]> inbound = List.of(
            udp(INSIDE, RESOLVER, 5353, 53),
            icmp(RESOLVER, INSIDE, 0, 78, 1480, false),
            icmpErrorFirstFragment(RESOLVER, INSIDE, 78, udp(INSIDE, RESOLVER, 5353, 53)),
            icmp(RESOLVER, INSIDE, 0, 78, 2960, false));
        final List<String> security = oracle("fw-portscan-monitor", inbound, FragmentSettings.defaults());
        assertEquals(List.of("0", "2", "1", "3"), sequences(security), security::toString);
        for (final String record : security)
        {
            assertTrue(record.contains(" FORWARD fw>monitor "), () -> "no fw:not-established: " + security);
        }
        final Map<String, Long> counters = oracleCounters("fw-portscan-monitor", inbound);
        assertEquals(3L, counters.get("fw.related"), () -> "every fragment is related: " + counters);
        assertEquals(1L, counters.get("monitor.errors-matched"), () -> "one error in three fragments: " + counters);
        assertEquivalent("fw-portscan-monitor", inbound, FragmentSettings.defaults());
    }

    @Test
    void shouldEqualTheOracleOnRandomIcmpAndOtherProtocolFragmentsThroughBothChains() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(7_20261124L);
        for (int round = 0; round < 4; round++)
        {
            final List<byte[]> packets = new ArrayList<>();
            for (int d = 0; d < 40; d++)
            {
                final int inside = 0x0A000000 | random.nextInt(1, 6);
                final int outside = 0x08080800 | random.nextInt(1, 6);
                final int sport = random.nextInt(1024, 1060);
                final boolean out = random.nextBoolean();
                final int src = out ? inside : outside;
                final int dst = out ? outside : inside;
                packets.add(random.nextInt(packets.size() + 1), udp(inside, outside, sport, 53));
                final int id = random.nextInt(1, 1 << 16);
                final int kind = random.nextInt(3);
                final List<byte[]> datagram = new ArrayList<>();
                final int fragments = random.nextInt(1, 4);
                for (int f = 0; f < fragments; f++)
                {
                    final boolean more = f + 1 < fragments;
                    if (kind == 0)
                    {
                        datagram.add(icmp(src, dst, random.nextBoolean() ? 8 : 0, id, f * 1480, more));
                    }
                    else if (kind == 1)
                    {
                        datagram.add(f == 0 ? icmpErrorFirstFragment(outside, inside, id, udp(inside, outside, sport, 53))
                            : icmp(outside, inside, 0, id, f * 1480, more));
                    }
                    else
                    {
                        datagram.add(gre(src, dst, id, f * 1480, more));
                    }
                }
                if (random.nextInt(4) == 0)
                {
                    datagram.remove(0);   // a first fragment that never comes
                }
                if (random.nextBoolean())
                {
                    java.util.Collections.reverse(datagram);
                }
                for (final byte[] p : datagram)
                {
                    packets.add(random.nextInt(packets.size() + 1), p);
                }
            }
            final FragmentSettings settings = new FragmentSettings(200_000L + random.nextInt(600_000), random.nextInt(0, 12));
            assertEquivalent("nat-lb-td", packets, settings);
            assertEquivalent("fw-portscan-monitor", packets, settings);
        }
    }

    @Test
    void shouldHoldTimeOutAndRefuseTheFragmentsOfARealCaptureAsTheOracleDoes() throws IOException
    {
        // 9,048 later fragments of one TCP datagram over 8.5 s; its 29 "first fragments" carry
        // 16 bytes of TCP header (RFC 1858's tiny fragments) and are dropped as truncated-l4
        final Path trace = Path.of("..", "engine", "src", "test", "resources", "traces", "ip_fragmented_garbage.pcap");
        final ChainSpec spec = chain("fw-portscan-monitor", trace, FragmentSettings.defaults(), 256);
        final long[] records = new long[1];
        final RunStats stats;
        final java.util.Map<String, io.transnfv.vnf.api.VnfCounter> counters;
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            stats = oracle.run(source, (record, buffer, packet) -> records[0]++);
            counters = oracle.runtime().fragments().counters();
        }
        assertEquals(9077, records[0], "every packet has one record");
        assertEquals(29, stats.malformed(PacketFlyweight.TRUNCATED_L4));
        assertEquals(0, counters.get("ingress.first-fragments").get(), counters::toString);
        assertEquals(0, counters.get("ingress.recovered").get(), counters::toString);
        final long held = counters.get("ingress.held").get();
        final long timeouts = counters.get("ingress.timeouts").get();
        final long overflows = counters.get("ingress.overflows").get();
        assertTrue(held > 64 && timeouts == held, "held 64 at a time, each timed out 1 s later: " + counters);
        assertEquals(9048, held + overflows, counters::toString);
        assertEquals(overflows, stats.malformed(io.transnfv.engine.egress.PacketRecord.FRAGMENT_OVERFLOW));
        assertEquals(timeouts, stats.malformed(io.transnfv.engine.egress.PacketRecord.FRAGMENT_TIMEOUT));
        for (final int batch : new int[] {7, 64})
        {
            final ChainSpec cut = chain("fw-portscan-monitor", trace, FragmentSettings.defaults(), batch);
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(cut,
                () -> PacketSources.open(cut.settings().traffic()),
                s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
            assertTrue(result.equivalent(), () -> "batches of " + batch + ": #" + result.divergingSequence()
                + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord()
                + "\n  state: " + result.stateDifference());
        }
    }

    @Test
    void shouldTakeNoFinalCheckpointWhenARunIsStoppedWhileAFragmentIsHeld() throws IOException
    {
        // a later fragment whose first never comes is held from packet 3 on: the stop's boundary is no cut
        final List<byte[]> packets = List.of(
            udp(0x0A000006, RESOLVER, 1111, 53),
            udp(0x0A000007, RESOLVER, 1112, 53),
            udp(0x0A000008, RESOLVER, 1113, 53),
            udpFragment(INSIDE, RESOLVER, 11, 40, false),
            udp(0x0A000009, RESOLVER, 1114, 53),
            udp(0x0A00000A, RESOLVER, 1115, 53));
        for (final String executor : List.of("serial", "tpg"))
        {
            final Checkpointer checkpointer = stoppedAfter(executor, packets, 4);
            assertEquals(0, checkpointer.taken(), executor);
            assertTrue(checkpointer.finalCheckpoint().startsWith("no final checkpoint: 1 IP fragment(s) were held")
                && checkpointer.finalCheckpoint().endsWith("a resume starts from the first packet (no checkpoint was taken)"),
                executor + ": " + checkpointer.finalCheckpoint());
        }
    }

    @Test
    void shouldTakeTheFinalCheckpointOfAStoppedRunAtThePacketItStoppedAfterWhenNoFragmentIsHeld() throws IOException
    {
        // the same traffic with the datagram's first fragment just before its second: released at once, nothing held
        final List<byte[]> packets = List.of(
            udp(0x0A000006, RESOLVER, 1111, 53),
            udp(0x0A000007, RESOLVER, 1112, 53),
            udpFragment(INSIDE, RESOLVER, 11, 0, true),
            udpFragment(INSIDE, RESOLVER, 11, 40, false),
            udp(0x0A000009, RESOLVER, 1114, 53),
            udp(0x0A00000A, RESOLVER, 1115, 53));
        for (final String executor : List.of("serial", "tpg"))
        {
            final Checkpointer checkpointer = stoppedAfter(executor, packets, 4);
            assertEquals(1, checkpointer.taken(), executor + ": " + checkpointer.finalCheckpoint());
            assertEquals("final checkpoint 1 taken at packet 4", checkpointer.finalCheckpoint(), executor);
        }
    }

    /**
     * Runs {@code packets} through nat-lb-td on {@code executor} (batches of two packets for the
     * engine) with checkpoints none of which falls due, asking the run to stop as the source hands
     * over its {@code stopAt}-th packet, as a signal would.
     */
    private Checkpointer stoppedAfter(final String executor, final List<byte[]> packets, final int stopAt) throws IOException
    {
        final ChainSpec spec = chain("nat-lb-td", pcap(packets), FragmentSettings.defaults(), 2);
        final Path checkpoints = Files.createTempDirectory(directory, executor + "-ckpt");
        try (ChainExecutor run = executor.equals("serial") ? new SerialChainExecutor(spec)
                : new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            final Checkpointer checkpointer = Checkpointer.start(new CheckpointSettings(checkpoints, 1_000_000, 0, 10), spec,
                run.runtime().catalog());
            run.checkpointWith(checkpointer);
            run.run(stopping(source, stopAt, run.control()), null);
            assertEquals(RunControl.StopCause.TERMINATE, run.control().stopCause(), executor);
            return checkpointer;
        }
    }

    /** @return {@code source}, asking {@code control} to stop once it has handed over {@code packets} packets. */
    private static PacketSource stopping(final PacketSource source, final long packets, final RunControl control)
    {
        return new ForwardingPacketSource(source)
        {
            private long read;

            @Override
            public boolean next(final PacketBuffer dst) throws SourceException
            {
                if (!source.next(dst))
                {
                    return false;
                }
                if (++read == packets)
                {
                    control.requestStop(RunControl.StopCause.TERMINATE, "stopped by the test");
                }
                return true;
            }




        };
    }

    // ---------------------------------------------------------------- helpers

    private byte[] udp(final int src, final int dst, final int sport, final int dport)
    {
        final int n = builder.reset().ipv4(src, dst).udp(sport, dport).payload(24, (byte)2).write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    private byte[] udpFragment(final int src, final int dst, final int id, final int offset, final boolean more)
    {
        return udpFragment(src, dst, id, offset, more, 5000, 53);
    }

    private byte[] udpFragment(
        final int src, final int dst, final int id, final int offset, final boolean more, final int sport, final int dport)
    {
        final int n = builder.reset().ipv4(src, dst).ipId(id).udp(sport, dport).fragment(offset, more)
            .payload(32, (byte)3).write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    /** An ICMP message of {@code type} (ignored past the first fragment), or a fragment of one when {@code id} is not 0. */
    private byte[] icmp(final int src, final int dst, final int type, final int id, final int offset, final boolean more)
    {
        builder.reset().ipv4(src, dst).icmp(type, 0);
        if (id != 0)
        {
            builder.ipId(id).fragment(offset, more);
        }
        final int n = builder.payload(64, (byte)5).write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    private byte[] icmp6(final long srcHigh, final long srcLow, final long dstHigh, final long dstLow, final int type,
        final int id, final int offset, final boolean more)
    {
        builder.reset().ipv6(srcHigh, srcLow, dstHigh, dstLow);
        if (id != 0)
        {
            builder.ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT).ipId(id).fragment(offset, more);
        }
        final int n = builder.icmp(type, 0).payload(64, (byte)6).write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    /** A port unreachable from {@code src} to {@code dst} quoting {@code quoted}'s headers, as the first of its fragments. */
    private byte[] icmpErrorFirstFragment(final int src, final int dst, final int id, final byte[] quoted)
    {
        final byte[] error = Frames.icmpError(Ipv4.format(src), Ipv4.format(dst), 3, 3, quoted);
        final int quote = error.length - 14 - 28;
        final int n = builder.reset().ipv4(src, dst).ipId(id).icmp(3, 3).fragment(0, true).payload(quote, (byte)0)
            .write(frame, 0);
        System.arraycopy(error, 14 + 28, frame, 14 + 28, quote);
        // the ICMP checksum covers the whole message, most of it in the later fragments: left as written
        return java.util.Arrays.copyOf(frame, n);
    }

    private byte[] gre(final int src, final int dst, final int id, final int offset, final boolean more)
    {
        final int n = builder.reset().ipv4(src, dst).ipId(id).ipProtocol(47).fragment(offset, more).payload(64, (byte)7)
            .write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    private static int parseAddress(final String endpoint)
    {
        return Ipv4.parse(endpoint.substring(0, endpoint.indexOf(':')));
    }

    private byte[] udp6Fragment(final int id, final int offset, final boolean more)
    {
        final int n = builder.reset().ipv6(0x20010db8_00000000L, 5, 0x20010db8_00000001L, 53)
            .ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_FRAGMENT).ipId(id).fragment(offset, more)
            .udp(4444, 53).payload(32, (byte)4).write(frame, 0);
        return java.util.Arrays.copyOf(frame, n);
    }

    private Path pcap(final List<byte[]> packets) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        out.write(header.array());
        for (int i = 0; i < packets.size(); i++)
        {
            final long ns = START_NS + i * STEP_NS;
            final byte[] p = packets.get(i);
            final ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int)(ns / 1_000_000_000L)).putInt((int)(ns % 1_000_000_000L)).putInt(p.length).putInt(p.length);
            out.write(record.array());
            out.write(p);
        }
        final Path file = Files.createTempFile(directory, "fragments", ".pcap");
        Files.write(file, out.toByteArray());
        return file;
    }

    private ChainSpec chain(final String name, final Path trace, final FragmentSettings fragments, final int batch)
    {
        final ChainSpec bundled = new ChainLoader().loadBundled(name);
        return bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(trace, 1))
            .withPunctuation(batch, 1_000_000).withExecutorThreads(2).withFragments(fragments));
    }

    private List<String> oracle(final String name, final List<byte[]> packets, final FragmentSettings fragments)
        throws IOException
    {
        final ChainSpec spec = chain(name, pcap(packets), fragments, 256);
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) ->
                records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));
        }
        return records;
    }

    private Map<String, Long> oracleCounters(final String name, final List<byte[]> packets) throws IOException
    {
        final ChainSpec spec = chain(name, pcap(packets), FragmentSettings.defaults(), 256);
        final Map<String, Long> counters = new TreeMap<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, null);
            for (int i = 0; i < oracle.runtime().size(); i++)
            {
                oracle.runtime().instance(i).counters().forEach((counter, value) -> counters.put(counter, value.get()));
            }
        }
        return counters;
    }

    private RunStats run(final String name, final List<byte[]> packets, final FragmentSettings fragments) throws IOException
    {
        final ChainSpec spec = chain(name, pcap(packets), fragments, 2);
        try (BatchedChainExecutor engine = new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg");
            PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            return engine.run(source, null);
        }
    }

    private void assertEquivalent(final String name, final List<byte[]> packets, final FragmentSettings fragments)
        throws IOException
    {
        final Path trace = pcap(packets);
        for (final int batch : new int[] {1, 2, 3, 64})
        {
            final ChainSpec spec = chain(name, trace, fragments, batch);
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(spec,
                () -> PacketSources.open(spec.settings().traffic()),
                s -> new BatchedChainExecutor(s, TpgBatchExecutor::new, "tpg"));
            assertTrue(result.equivalent(), () -> name + ", batches of " + batch + ": first diverging record #"
                + result.divergingSequence() + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord()
                + "\n  state: " + result.stateDifference());
            assertEquals(packets.size(), result.packets(), "every packet has one record");
        }
    }

    private static List<String> sequences(final List<String> records)
    {
        return records.stream().map(r -> r.substring(0, r.indexOf(' '))).toList();
    }

    private static String time(final String record)
    {
        return record.split(" ")[1];
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

    private static int indexOf(final List<String> records, final String prefix)
    {
        for (int i = 0; i < records.size(); i++)
        {
            if (records.get(i).startsWith(prefix))
            {
                return i;
            }
        }
        return -1;
    }
}
