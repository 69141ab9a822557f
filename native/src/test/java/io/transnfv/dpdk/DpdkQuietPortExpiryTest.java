package io.transnfv.dpdk;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * every flow still open, as it always did.
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
        final ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0xA1B2C3D4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65_535).putInt(1);
        for (int i = 0; i < FLOWS * PACKETS_PER_FLOW; i++)
        {
            final int flow = i % FLOWS;
            final FrameBuilder frame = new FrameBuilder().ipv4(Ipv4.parse("10.0.0." + (flow + 1)), Ipv4.parse("198.51.100.1"))
                .udp(5_000 + flow, 53);
            final byte[] bytes = new byte[frame.length()];
            frame.write(bytes, 0);
            out.putInt(1_700_000_000).putInt(i * 100).putInt(bytes.length).putInt(bytes.length).put(bytes);
        }
        Files.write(file, Arrays.copyOf(out.array(), out.position()));
        return file;
    }
}
