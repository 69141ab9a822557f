package io.transnfv.dpdk;

import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The front end's own promises: backpressure instead of loss, bursts, no allocation and no copy per packet. */
class DpdkFrontEndTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @Test
    void shouldHoldBackTheReceiverInsteadOfDroppingWhenTheEngineIsSlow() throws IOException
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS)
            .withAttach("net_pcap_slow,rx_pcap=" + DpdkTestSupport.trace("WebattackXSS.pcap") + ",tx_pcap=" + dir.resolve("out.pcap"))
            .withRing(128)
            .withIdleTimeoutNs(300_000_000L);
        final PacketBuffer buffer = new PacketBuffer();
        final PacketRecord record = new PacketRecord();
        long maxInFlight = 0;
        try (DpdkFrontEnd dpdk = DpdkFrontEnd.open(config))
        {
            final DpdkSource source = dpdk.source();
            while (source.next(buffer))
            {
                if (buffer.sequence() % 500 == 0)
                {
                    LockSupport.parkNanos(2_000_000); // the engine falls behind now and then
                }
                maxInFlight = Math.max(maxInFlight, dpdk.port().counters().rxPackets() - dpdk.sink().forwarded());
                record.reset(buffer.sequence(), buffer.timestampNs());
                dpdk.sink().onPacket(record, buffer, null);
            }
            assertEquals(9374, source.delivered());
            dpdk.close();
            assertEquals(9374, dpdk.port().counters().txPackets());
            assertEquals(0, dpdk.port().counters().portRxLosses());
        }
        assertTrue(maxInFlight <= 128, "packets in flight stay within the ring: " + maxInFlight);
        assertEquals(9374, DpdkTestSupport.pcapFrames(dir.resolve("out.pcap")).size());
    }

    @Test
    void shouldCrossIntoNativeCodeOncePerBurstAndAllocateNothingPerPacket() throws IOException
    {
        final long packets = 300_000;
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS)
            .withAttach("net_null_alloc,size=64")
            .withMaxPackets(packets);
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long self = Thread.currentThread().getId();
        final PacketBuffer buffer = new PacketBuffer();
        final PacketRecord record = new PacketRecord();
        try (DpdkFrontEnd dpdk = DpdkFrontEnd.open(config))
        {
            final DpdkSource source = dpdk.source();
            final DpdkSink sink = dpdk.sink();
            long startBytes = 0;
            while (source.next(buffer))
            {
                if (buffer.sequence() == 50_000)
                {
                    startBytes = threads.getThreadAllocatedBytes(self);
                }
                record.reset(buffer.sequence(), buffer.timestampNs());
                if ((buffer.sequence() & 1) == 0)
                {
                    record.dropAtIngress(1);
                }
                sink.onPacket(record, buffer, null);
            }
            final long allocated = threads.getThreadAllocatedBytes(self) - startBytes;
            assertEquals(packets, source.delivered());
            assertTrue(allocated < 1024, "bytes allocated by the engine's thread over 250,000 packets: " + allocated);
            assertTrue(buffer.isAttached(), "the engine sees the mbuf in place");
            assertEquals(0, dpdk.framesCopiedIn(), "frames copied out of mbufs");
            assertEquals(0, dpdk.framesCopiedOut(), "frames copied back into mbufs");
            dpdk.close();
            final NativeCounters counters = dpdk.port().counters();
            assertEquals(packets / 2, counters.droppedByVerdict());
            assertEquals(packets / 2, counters.txPackets());
            assertTrue(counters.rxBursts() <= packets / config.burstPackets() + 1, "rx crossings " + counters.rxBursts());
            assertTrue(counters.txBursts() <= packets / config.burstPackets() + 2, "tx crossings " + counters.txBursts());
        }
    }
}
