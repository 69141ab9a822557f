package io.transnfv.dpdk;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DPDK port is a live source: when its traffic stops, the flows it brought still expire. A
 * capture of a few UDP flows goes through the pcap vdev to a load balancer with a 20 ms idle
 * timeout; the port then stays quiet for its 300 ms idle timeout before the stream ends, and in
 * that time packet time follows the wall clock, so every flow expires, on the engine and on the
 * serial executor. The same capture read by the pure-Java reader, a replayable source, ends with
 * every flow still open, as it always did. A held IP fragment times out there too.
 */
class DpdkQuietPortExpiryTest
{
    private static final String CHAIN = """
        name: quiet-port-lb
        vnfs:
          - name: lb
            type: load-balancer
            params:
              servers: 8
              idle_timeout: 20ms
              expiry_interval: 10ms
        settings:
          punctuation: { transactions: 16, interval: 1ms }
          executor_threads: 2
        """;
    private static final int FLOWS = 8;
    private static final int PACKETS_PER_FLOW = 3;

    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @Test
    void shouldExpireTheFlowsOfAPortThatWentQuietOnBothExecutors() throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(CHAIN, "quiet-port-lb.yaml");
        final Path capture = writeCapture(dir.resolve("flows.pcap"));

        final Outcome engine = throughDpdk(chain, capture, "engine", DpdkTestSupport::engine);
        final Outcome serial = throughDpdk(chain, capture, "serial", SerialChainExecutor::new);
        final Outcome replayed;
        try (ChainExecutor executor = DpdkTestSupport.engine(chain); PacketSource source = PcapSource.open(capture, 1))
        {
            executor.run(source, null);
            replayed = Outcome.of(executor);
        }

        for (final Outcome quiet : new Outcome[] {engine, serial})
        {
            assertEquals(FLOWS * PACKETS_PER_FLOW, quiet.packets);
            assertTrue(quiet.expired >= FLOWS, "the flows expired while the port was quiet: " + quiet.expired);
            assertEquals(0, quiet.connections, "no connection is left open");
        }
        assertEquals(FLOWS * PACKETS_PER_FLOW, replayed.packets);
        assertEquals(0, replayed.expired, "a capture read from the file gets no wall-time ticks");
        assertEquals(FLOWS, replayed.connections);
    }

    @Test
    void shouldTimeOutAHeldFragmentWhileThePortIsQuietOnBothExecutors() throws IOException
    {
        // a later fragment whose first never comes, the capture's last packet: held, and timed
        // out 20 ms of packet time later, which only the quiet port's wall-clock ticks reach
        final ChainSpec chain = new ChainLoader().parse(CHAIN + "  fragments: { timeout: 20ms }\n", "quiet-port-lb.yaml");
        final List<byte[]> frames = new ArrayList<>();
        frames.add(frame(new FrameBuilder().ipv4(Ipv4.parse("10.0.0.1"), Ipv4.parse("198.51.100.1")).udp(5_000, 53)));
        frames.add(frame(new FrameBuilder().ipv4(Ipv4.parse("10.0.0.2"), Ipv4.parse("198.51.100.1")).ipId(77)
            .fragment(1_480, false).udp(5_001, 53).payload(100, (byte)1)));
        final Path capture = DpdkTestSupport.writePcap(dir.resolve("fragment.pcap"), frames, 100);
        for (final String name : new String[] {"engine", "serial"})
        {
            final Function<ChainSpec, ChainExecutor> executors = "serial".equals(name) ? SerialChainExecutor::new : DpdkTestSupport::engine;
            final long[] timedOutAfterNs = {-1};
            final long[] lastPacketNs = {0};
            try (ChainExecutor executor = executors.apply(chain))
            {
                final DpdkFrontEnd dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("quiet_fragment_" + name, capture,
                    dir.resolve(name + "-fragment-out.pcap"), chain));
                try (DpdkSource source = dpdk.source())
                {
                    executor.run(source, DpdkTestSupport.both((record, buffer, packet) ->
                    {
                        if (record.sequence() == 0)
                        {
                            lastPacketNs[0] = record.timestampNs();
                        }
                        if (record.sequence() == 1)
                        {
                            assertEquals(PacketRecord.FRAGMENT_TIMEOUT, record.dropReason(), "the held fragment times out");
                            timedOutAfterNs[0] = record.timestampNs() - lastPacketNs[0];
                        }
                    }, dpdk.sink()));
                }
                assertEquals(1, executor.runtime().fragments().counters().get("ingress.held").get(), name + ": held");
            }
            // the port stays quiet for 300 ms before the stream ends: a fragment timed out only at the
            // end of the input would show that much; a tick every 10 ms times it out 20-40 ms after
            assertTrue(timedOutAfterNs[0] >= 20_000_000L && timedOutAfterNs[0] < 150_000_000L,
                name + ": timed out " + timedOutAfterNs[0] + " ns of packet time after the last packet");
        }
    }

    private Outcome throughDpdk(
        final ChainSpec chain, final Path capture, final String name, final Function<ChainSpec, ChainExecutor> executors)
        throws IOException
    {
        try (ChainExecutor executor = executors.apply(chain))
        {
            final DpdkFrontEnd dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("quiet_" + name, capture,
                dir.resolve(name + "-out.pcap"), chain));
            try (DpdkSource source = dpdk.source())
            {
                assertTrue(source.live());
                executor.run(source, dpdk.sink());
            }
            return Outcome.of(executor);
        }
    }

    private record Outcome(long packets, long expired, long connections)
    {
        static Outcome of(final ChainExecutor executor)
        {
            final long connections = executor.dumpState().lines().filter(l -> l.startsWith("lb.connections ")).count();
            return new Outcome(executor.stats().packetsFinished(),
                executor.runtime().instance(0).counters().get("lb.expired").get(), connections);
        }
    }

    /** Three packets of each of 8 UDP flows, 0.1 ms apart, in a classic microsecond pcap file. */
    private static Path writeCapture(final Path file) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < FLOWS * PACKETS_PER_FLOW; i++)
        {
            final int flow = i % FLOWS;
            frames.add(frame(new FrameBuilder().ipv4(Ipv4.parse("10.0.0." + (flow + 1)), Ipv4.parse("198.51.100.1"))
                .udp(5_000 + flow, 53)));
        }
        return DpdkTestSupport.writePcap(file, frames, 100);
    }

    private static byte[] frame(final FrameBuilder builder)
    {
        final byte[] bytes = new byte[builder.length()];
        builder.write(bytes, 0);
        return bytes;
    }
}
