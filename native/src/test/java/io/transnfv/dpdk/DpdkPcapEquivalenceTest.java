package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
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

    @Test
    void shouldWriteTheSameFramesAsThePureJavaPathAndMatchTheOracleForEveryPacket() throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = DpdkTestSupport.trace(TRACE);

        final List<String> oracle = new ArrayList<>();
        try (SerialChainExecutor serial = new SerialChainExecutor(chain); PacketSource source = PcapSource.open(trace, 1))
        {
            serial.run(source, recorder(serial, oracle));
        }

        final Path javaOut = dir.resolve("java.pcap");
        final List<String> javaRecords = new ArrayList<>();
        try (ChainExecutor engine = DpdkTestSupport.engine(chain); PacketSource source = PcapSource.open(trace, 1);
             PcapWriter writer = PcapWriter.create(javaOut))
        {
            engine.run(source, DpdkTestSupport.both(recorder(engine, javaRecords), forwardTo(writer)));
        }

        final Path dpdkOut = dir.resolve("dpdk.pcap");
        final List<String> dpdkRecords = new ArrayList<>();
        final DpdkFrontEnd dpdk;
        try (ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("equivalence", trace, dpdkOut, chain));
            try (DpdkSource source = dpdk.source())
            {
                engine.run(source, DpdkTestSupport.both(dpdk.sink(), recorder(engine, dpdkRecords)));
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
    }

    private static PacketListener recorder(final ChainExecutor executor, final List<String> into)
    {
        final StringBuilder line = new StringBuilder();
        return (record, buffer, packet) ->
        {
            line.setLength(0);
            into.add(record.format(line, executor.runtime(), packet).toString());
        };
    }

    private static PacketListener forwardTo(final PcapWriter writer)
    {
        return (record, buffer, packet) ->
        {
            if (!record.dropped())
            {
                try
                {
                    writer.write(buffer);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }
}
