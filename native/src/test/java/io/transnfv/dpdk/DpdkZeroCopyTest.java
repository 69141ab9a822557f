package io.transnfv.dpdk;

import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zero-copy from the port through the engine and back: the engine's buffer is a view of
 * the mbuf's data in the pool window, a rewrite through the packet view lands in the mbuf
 * itself, and the port transmits it without the sink copying anything.
 */
class DpdkZeroCopyTest
{
    private static final int REWRITTEN_DST = Ipv4.parse("198.51.100.7");
    /** Room for the trace's longest frames in one mbuf (with the default 2 KiB, a few arrive as chains and are copied). */
    private static final int JUMBO_DATA_ROOM = 9216;

    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @Test
    void shouldLetTheEngineRewriteTheMbufInPlaceAndTransmitItWithoutCopying() throws IOException
    {
        final Path trace = DpdkTestSupport.trace("WebattackXSS.pcap");
        final Path out = dir.resolve("out.pcap");
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS)
            .withAttach("net_pcap_in_place,rx_pcap=" + trace + ",tx_pcap=" + out)
            .withDataRoom(JUMBO_DATA_ROOM)
            .withIdleTimeoutNs(300_000_000L);
        final PacketBuffer buffer = new PacketBuffer();
        final PacketFlyweight packet = new PacketFlyweight();
        final PacketRecord record = new PacketRecord();
        long rewritten = 0;
        try (DpdkFrontEnd dpdk = DpdkFrontEnd.open(config))
        {
            final ByteBuffer mbufs = dpdk.port().frames();
            while (dpdk.source().next(buffer))
            {
                assertTrue(buffer.isAttached(), "packet " + buffer.sequence() + " is a view, not a copy");
                assertSame(mbufs, buffer.memory(), "a view of the pool window");
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length());
                if (packet.isValid() && packet.isIpv4())
                {
                    assertTrue(packet.setDstIpv4(REWRITTEN_DST));
                    assertEquals(REWRITTEN_DST, mbufs.getInt(packet.l3Offset() + 16),
                        "the rewrite is in the mbuf before the sink sees the packet");
                    rewritten++;
                }
                record.reset(buffer.sequence(), buffer.timestampNs());
                dpdk.sink().onPacket(record, buffer, packet);
            }
            assertEquals(9374, dpdk.source().delivered());
            assertEquals(0, dpdk.framesCopiedIn(), "frames copied out of mbufs");
            assertEquals(0, dpdk.framesCopiedOut(), "frames copied back into mbufs");
            assertTrue(dpdk.describe().endsWith("frames copied 0 in / 0 out"), dpdk.describe());
        }
        assertTrue(rewritten > 9000, "IPv4 packets rewritten: " + rewritten);

        final List<byte[]> expected = rewrittenInJava(trace);
        final List<byte[]> transmitted = DpdkTestSupport.pcapFrames(out);
        assertEquals(expected.size(), transmitted.size(), "frames transmitted");
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), transmitted.get(i), "frame " + i + " as transmitted");
        }
    }

    /** The trace's frames with the same rewrite applied to copies on the heap. */
    private static List<byte[]> rewrittenInJava(final Path trace) throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        final PacketBuffer buffer = new PacketBuffer();
        final PacketFlyweight packet = new PacketFlyweight();
        try (PacketSource source = PcapSource.open(trace, 1))
        {
            while (source.next(buffer))
            {
                final byte[] frame = new byte[buffer.length()];
                buffer.copyTo(frame, 0, frame.length);
                packet.wrap(frame, 0, frame.length);
                if (packet.isValid() && packet.isIpv4())
                {
                    packet.setDstIpv4(REWRITTEN_DST);
                }
                frames.add(frame);
            }
        }
        return frames;
    }
}
