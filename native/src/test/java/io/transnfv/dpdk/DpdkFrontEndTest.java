package io.transnfv.dpdk;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The front end's own promises: backpressure instead of loss, bursts, no allocation and no copy per packet. */
class DpdkFrontEndTest
{
    private static final int JUMBO_FRAME_BYTES = 9000;
    private static final int SMALLEST_DATA_ROOM = 256;

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

    /**
     * 9000-byte frames in 256-byte mbufs take up to 36 mbufs each (net_pcap fills chained
     * mbufs headroom and all: 24), and the pool, sized for a ring of full-size frames (6 mbufs
     * each), runs low long before the ring is full. The receiver,
     * driven by hand here with the engine's part played in between, then asks the port for
     * no more packets than the free mbufs hold, counts it, and takes the rest once verdicts
     * have given mbufs back: net_pcap never reads a frame it has no mbufs for.
     */
    @Test
    void shouldHoldBackTheReceiverInsteadOfLosingFramesWhenTheMbufPoolIsLow() throws IOException
    {
        final List<byte[]> frames = jumboFrames(300);
        final Path trace = dir.resolve("jumbo.pcap");
        try (PcapWriter writer = PcapWriter.create(trace))
        {
            for (int i = 0; i < frames.size(); i++)
            {
                writer.write(frames.get(i), 0, JUMBO_FRAME_BYTES, 1_700_000_000_000_000_000L + i * 1_000L, JUMBO_FRAME_BYTES);
            }
        }
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS)
            .withAttach("net_pcap_pool_low,rx_pcap=" + trace + ",tx_pcap=" + dir.resolve("out.pcap"))
            .withDataRoom(SMALLEST_DATA_ROOM)
            .withRing(256);
        final int mbufsPerFrame = config.mbufsPerFrame(JUMBO_FRAME_BYTES);
        final PacketBuffer buffer = new PacketBuffer();
        final PacketRecord record = new PacketRecord();
        long heldBackWithRoomInTheRing = 0;
        try (DpdkPort port = DpdkPort.open(config))
        {
            final Sequence released = new Sequence(-1);
            final RingBuffer<RxEvent> ring = DpdkFrontEnd.ingressRing(config.ringPackets(), released);
            final DpdkReceiver receiver = new DpdkReceiver(port, ring);
            final DpdkSink sink = new DpdkSink(port, ring, released);
            long next = 0;
            boolean progress = true;
            while (next < frames.size() && progress)
            {
                while (receiver.doWork() > 0)
                {
                    final long held = ring.getCursor() + 1 - next;
                    final int segments = ring.get(ring.getCursor()).segments;
                    assertTrue(held * segments <= config.mbufs(), "never more frames held than the pool holds: "
                        + held + " of " + segments + " mbufs, " + config.mbufs() + " mbufs, " + port.counters().toMap());
                }
                if (receiver.heldBack() && ring.remainingCapacity() >= config.burstPackets())
                {
                    heldBackWithRoomInTheRing++;
                }
                final long cursor = ring.getCursor();
                progress = cursor >= next;
                for (; next <= cursor; next++)
                {
                    final RxEvent e = ring.get(next);
                    assertEquals(JUMBO_FRAME_BYTES, e.packetLength, "frame " + next);
                    assertTrue(e.segments > 1 && e.segments <= mbufsPerFrame, "frame " + next + ": " + e.segments + " mbufs");
                    buffer.commit(port.chains().copyOut(e.mbuf, buffer.data(), e.packetLength), e.packetLength, e.timestampNs, next);
                    record.reset(next, e.timestampNs);
                    sink.onPacket(record, buffer, null);
                }
                sink.flush();
            }
            final NativeCounters counters = port.refreshCounters();
            assertEquals(0, counters.portRxLosses(), "frames net_pcap read without an mbuf for them " + counters.toMap());
            assertEquals(frames.size(), next, "frames received, each once the engine had given mbufs back");
            assertTrue(heldBackWithRoomInTheRing > 0, "the pool, not the ring, held the receiver back");
            assertTrue(counters.rxHeldBackPoolLow() >= heldBackWithRoomInTheRing, counters.toMap().toString());
            assertEquals(frames.size(), counters.rxPackets());
            assertEquals(frames.size(), counters.txPackets());
        }
        final List<byte[]> transmitted = DpdkTestSupport.pcapFrames(dir.resolve("out.pcap"));
        assertEquals(frames.size(), transmitted.size(), "frames transmitted");
        for (int i = 0; i < frames.size(); i++)
        {
            assertArrayEquals(frames.get(i), transmitted.get(i), "frame " + i);
        }
    }

    /** Ethernet frames with a local experimental EtherType and a payload that differs per frame. */
    private static List<byte[]> jumboFrames(final int count)
    {
        final List<byte[]> frames = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final byte[] frame = new byte[JUMBO_FRAME_BYTES];
            for (int b = 14; b < frame.length; b++)
            {
                frame[b] = (byte)(i * 31 + b);
            }
            frame[12] = (byte)0x88;
            frame[13] = (byte)0xB5;
            frames.add(frame);
        }
        return frames;
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
