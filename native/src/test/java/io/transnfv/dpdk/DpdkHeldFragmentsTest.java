package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.packet.FrameBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IP fragments that come before their datagram's first fragment, through a DPDK port: the
 * engine holds a copy of each, the sink frees its mbuf in arrival order, and the fragment
 * leaves right after its first in mbufs allocated for the copy, or is dropped when it times
 * out. Every packet's record equals the serial oracle's, and the frames DPDK transmits equal,
 * byte for byte and in order, the frames of the pure-Java path (PcapSource, PcapWriter), on
 * both executors, with frames that fit one mbuf and frames copied into chains of mbufs.
 */
class DpdkHeldFragmentsTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @ParameterizedTest(name = "{0}, mbuf data room {1}")
    @CsvSource({"tpg, 2048", "tpg, 512", "serial, 2048"})
    void shouldHoldFragmentsBeforeTheirFirstAndTransmitThemFromACopyAsTheOracleOrdersThem(final String executor,
        final int dataRoom) throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = writeReorderedFragments(dir.resolve("fragments.pcap"));
        final Function<ChainSpec, ChainExecutor> open = "serial".equals(executor)
            ? SerialChainExecutor::new : DpdkTestSupport::engine;

        final List<String> oracle = new ArrayList<>();
        final Map<String, VnfCounter> fragmentCounters;
        try (SerialChainExecutor serial = new SerialChainExecutor(chain); PacketSource source = PcapSource.open(trace, 1))
        {
            serial.run(source, DpdkTestSupport.recorder(serial, oracle));
            fragmentCounters = serial.runtime().fragments().counters();
        }
        final long held = fragmentCounters.get("ingress.held").get();
        final long timedOut = fragmentCounters.get("ingress.timeouts").get();
        assertTrue(held > 100 && timedOut > 10 && timedOut < held, "the trace makes the chain hold fragments: " + fragmentCounters);

        final Path javaOut = dir.resolve("java.pcap");
        try (ChainExecutor engine = open.apply(chain); PacketSource source = PcapSource.open(trace, 1);
             PcapWriter writer = PcapWriter.create(javaOut))
        {
            engine.run(source, DpdkTestSupport.forwardTo(writer));
        }

        final Path dpdkOut = dir.resolve("dpdk.pcap");
        final List<String> dpdkRecords = new ArrayList<>();
        final DpdkFrontEnd dpdk;
        try (ChainExecutor engine = open.apply(chain))
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("fragments" + executor + dataRoom, trace, dpdkOut, chain)
                .withDataRoom(dataRoom));
            try (DpdkSource source = dpdk.source())
            {
                engine.run(source, DpdkTestSupport.both(DpdkTestSupport.recorder(engine, dpdkRecords), dpdk.sink()));
            }
        }

        assertEquals(oracle.size(), dpdkRecords.size(), "packets through DPDK");
        for (int i = 0; i < oracle.size(); i++)
        {
            assertEquals(oracle.get(i), dpdkRecords.get(i), "record " + i);
        }
        final List<byte[]> expected = DpdkTestSupport.pcapFrames(javaOut);
        final List<byte[]> actual = DpdkTestSupport.pcapFrames(dpdkOut);
        assertEquals(expected.size(), actual.size(), "frames DPDK transmitted");
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), actual.get(i), "frame " + i + " of the output");
        }

        final DpdkSink sink = dpdk.sink();
        final NativeCounters counters = dpdk.port().counters();
        assertEquals(held, sink.heldReleased(), "every held fragment's mbuf freed in arrival order");
        assertEquals(held, counters.heldReleased());
        assertTrue(sink.heldForwarded() > 0 && sink.heldForwarded() <= held - timedOut, "held fragments let go and forwarded: "
            + sink.heldForwarded());
        assertEquals(sink.heldForwarded(), counters.txCopied(), "sent from a copy");
        assertEquals(0, counters.droppedNoMbuf());
        assertEquals(oracle.size(), counters.rxPackets());
        assertEquals(expected.size(), counters.txPackets());
        assertEquals(oracle.size() - expected.size(), counters.droppedByVerdict() + held - sink.heldForwarded(),
            "drops: in place, and held fragments never forwarded " + counters.toMap());
        assertTrue(dpdk.describe().endsWith(", fragments held " + held + " (" + sink.heldForwarded() + " sent from a copy)"),
            dpdk.describe());
        if (dataRoom < 1024)
        {
            assertTrue(expected.stream().anyMatch(f -> f.length > dataRoom), "some frames need a chain of mbufs");
        }
    }

    /**
     * UDP datagrams in IPv4 fragments, seeded: in half of them the later fragments come first
     * (held until the first), in a tenth the first never comes (held, then timed out 1 s
     * later), mixed with whole UDP packets; fragments carry 40 to 1,200 bytes; packets 1.5 ms
     * apart.
     */
    private static Path writeReorderedFragments(final Path file) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(20261124L);
        final FrameBuilder builder = new FrameBuilder();
        final List<byte[]> packets = new ArrayList<>();
        final int[] sizes = {40, 40, 400, 1200};
        for (int d = 0; d < 600; d++)
        {
            final boolean inside = random.nextInt(10) < 7;
            final int src = inside ? 0x0A000000 | random.nextInt(1, 41) : 0x08080800 | random.nextInt(1, 9);
            final int dst = inside ? 0x08080808 : 0x0A000005;
            final int id = random.nextInt(1, 1 << 16);
            final int sport = random.nextInt(1024, 1200);
            final int size = sizes[random.nextInt(sizes.length)];
            final int count = random.nextInt(1, 5);
            final List<byte[]> fragments = new ArrayList<>();
            for (int f = 0; f < count; f++)
            {
                // the first fragment's size counts its 8-byte UDP header
                fragments.add(frame(builder.reset().ipv4(src, dst).ipId(id).fragment(f * size, f + 1 < count).udp(sport, 53)
                    .payload(f == 0 ? size - 8 : size, (byte)d)));
            }
            final int order = random.nextInt(10);
            if (count > 1 && order == 0)
            {
                fragments.remove(0);
            }
            else if (count > 1 && order < 6)
            {
                Collections.reverse(fragments);
            }
            final int at = random.nextInt(packets.size() + 1);
            for (int f = 0; f < fragments.size(); f++)
            {
                packets.add(Math.min(packets.size(), at + f), fragments.get(f));
            }
            packets.add(random.nextInt(packets.size() + 1),
                frame(builder.reset().ipv4(src, dst).ipId(random.nextInt(1, 1 << 16)).udp(sport, 53).payload(32, (byte)0)));
        }
        return DpdkTestSupport.writePcap(file, packets, 1_500);
    }

    private static byte[] frame(final FrameBuilder builder)
    {
        final byte[] bytes = new byte[builder.length()];
        builder.write(bytes, 0);
        return bytes;
    }
}
