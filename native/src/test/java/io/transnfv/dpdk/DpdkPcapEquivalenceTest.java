package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real trace through DPDK's pcap vdev, nat-lb-td on the engine, and back out through
 * the vdev's tx pcap: the frames DPDK writes equal, byte for byte and in order, the frames
 * the pure-Java path (PcapSource, the same executor, PcapWriter of forwarded packets)
 * writes; and every packet's record equals the serial oracle's. Timestamps in DPDK's
 * output file are its transmit times, so they are not compared; the timestamps the engine
 * saw are, inside the records.
 *
 * <p>With a 9 KiB data room every frame of the trace fits in one mbuf, and the engine reads
 * and rewrites each in place: nothing is copied either way. With the default 2 KiB data
 * room the trace's few longer frames arrive as chains of mbufs; exactly those are copied
 * in, and the forwarded ones copied back, and the output is still the same. With 512 and
 * 256 bytes (the smallest) a third of the frames and more are chains, of up to 32 mbufs:
 * the pool is sized per mbuf and the receiver waits for mbufs rather than let the port
 * read a frame it has none for, so every packet still comes through, none lost.
 */
class DpdkPcapEquivalenceTest
{
    private static final String TRACE = "WebattackXSS.pcap";

    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @ParameterizedTest(name = "mbuf data room {0}")
    @ValueSource(ints = {9216, DpdkConfig.DEFAULT_DATA_ROOM_BYTES, 512, 256})
    void shouldWriteTheSameFramesAsThePureJavaPathAndMatchTheOracleForEveryPacket(final int dataRoom) throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = DpdkTestSupport.trace(TRACE);

        final List<String> oracle = new ArrayList<>();
        try (SerialChainExecutor serial = new SerialChainExecutor(chain); PacketSource source = PcapSource.open(trace, 1))
        {
            serial.run(source, DpdkTestSupport.recorder(serial, oracle));
        }

        final Path javaOut = dir.resolve("java.pcap");
        final List<String> javaRecords = new ArrayList<>();
        final long[] longerThanAnMbuf = new long[2];
        try (ChainExecutor engine = DpdkTestSupport.engine(chain); PacketSource source = PcapSource.open(trace, 1);
             PcapWriter writer = PcapWriter.create(javaOut))
        {
            final PacketListener forward = DpdkTestSupport.forwardTo(writer);
            engine.run(source, DpdkTestSupport.both(DpdkTestSupport.recorder(engine, javaRecords), (record, buffer, packet) ->
            {
                forward.onPacket(record, buffer, packet);
                if (buffer.length() > dataRoom)
                {
                    longerThanAnMbuf[0]++;
                    longerThanAnMbuf[1] += record.dropped() ? 0 : 1;
                }
            }));
        }

        final Path dpdkOut = dir.resolve("dpdk.pcap");
        final List<String> dpdkRecords = new ArrayList<>();
        final DpdkFrontEnd dpdk;
        try (ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("equivalence" + dataRoom, trace, dpdkOut, chain)
                .withDataRoom(dataRoom));
            try (DpdkSource source = dpdk.source())
            {
                engine.run(source, DpdkTestSupport.both(DpdkTestSupport.recorder(engine, dpdkRecords), dpdk.sink()));
            }
        }

        assertEquals(9374, oracle.size(), "packets in " + TRACE);
        assertEquals(oracle, javaRecords, "the pure-Java path's records equal the oracle's");
        assertEquals(oracle.size(), dpdkRecords.size(), "packets through DPDK");
        for (int i = 0; i < oracle.size(); i++)
        {
            assertEquals(oracle.get(i), dpdkRecords.get(i), "record of packet " + i);
        }

        final List<byte[]> expected = DpdkTestSupport.pcapFrames(javaOut);
        final List<byte[]> actual = DpdkTestSupport.pcapFrames(dpdkOut);
        assertTrue(expected.size() > 9000, "most packets are forwarded: " + expected.size());
        assertEquals(expected.size(), actual.size(), "frames DPDK transmitted");
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), actual.get(i), "frame " + i + " of the output");
        }
        final NativeCounters counters = dpdk.port().counters();
        assertEquals(oracle.size(), counters.rxPackets());
        assertEquals(expected.size(), counters.txPackets());
        assertEquals(oracle.size() - expected.size(), counters.droppedByVerdict());
        assertEquals(0, counters.droppedTxFull());
        assertEquals(0, counters.portRxLosses(), "packets the port lost before rx " + counters.toMap());
        assertEquals(longerThanAnMbuf[0], counters.multiSegmentFrames(), "chains of mbufs");

        if (dataRoom >= 9216)
        {
            assertEquals(0, longerThanAnMbuf[0], "every frame of " + TRACE + " fits in one mbuf");
        }
        else
        {
            assertTrue(longerThanAnMbuf[1] > 0, "some forwarded frames of " + TRACE + " need a chain of mbufs");
        }
        assertEquals(longerThanAnMbuf[0], dpdk.framesCopiedIn(), "frames copied in: the chains of mbufs, nothing else");
        assertEquals(longerThanAnMbuf[1], dpdk.framesCopiedOut(), "frames copied back: the forwarded chains, nothing else");
        assertTrue(dpdk.describe().endsWith("frames copied " + longerThanAnMbuf[0] + " in / " + longerThanAnMbuf[1] + " out"),
            dpdk.describe());
    }
}
