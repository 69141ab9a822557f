package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.engine.source.SourceException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The damaged and malformed test traces through DPDK's pcap vdev
 * and nat-lb-td: nothing crashes, every packet DPDK delivered reaches a verdict and its
 * mbuf is either transmitted or freed, frames the packet view rejects are counted by
 * cause in C and dropped at ingress by the chain, and a file libpcap cannot open is a
 * {@link DpdkException} carrying DPDK's error text. All vdevs are hot-plugged into the one
 * EAL this JVM may start.
 */
class DpdkMalformedTracesTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @ParameterizedTest
    @ValueSource(strings = {"badpackets.pcap", "malformed_icmp.pcap", "truncated_dns_2.pcap", "test_damaged.pcap",
        "ip_fragmented_garbage.pcap", "big-endian.pcap", "alexa-app.pcapng"})
    void shouldCountAndReportMalformedFramesWithoutLosingAnyMbuf(final String name) throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = DpdkTestSupport.trace(name);
        final long[] ingressDrops = new long[1];
        final DpdkFrontEnd dpdk;
        final long finished;
        try (ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev(vdevName(name), trace, dir.resolve("out.pcap"), chain));
            try (DpdkSource source = dpdk.source())
            {
                engine.run(source, DpdkTestSupport.both((record, buffer, packet) ->
                {
                    if (record.dropped() && record.dropInstance() == PacketRecord.INGRESS)
                    {
                        ingressDrops[0]++;
                    }
                }, dpdk.sink()));
            }
            finished = engine.stats().packetsFinished();
        }
        final NativeCounters counters = dpdk.port().counters();
        final long delivered = dpdk.source().delivered();
        assertEquals(counters.rxPackets(), delivered, name + ": packets received = packets delivered to the engine");
        assertEquals(delivered, finished, name + ": every delivered packet got a verdict");
        assertEquals(delivered, counters.txPackets() + counters.droppedByVerdict(),
            name + ": every mbuf was transmitted or freed " + counters.toMap());
        assertEquals(0, counters.droppedTxFull(), name);
        final long malformed = counters.malformedByReason().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(ingressDrops[0], malformed,
            name + ": frames the C parser counts as malformed are the ones the chain drops at ingress " + counters.malformedByReason());
        if (malformed > 0)
        {
            assertTrue(dpdk.source().stats().warnings().stream().anyMatch(w -> w.contains("malformed")),
                name + ": the run report's warnings name the malformed frames " + dpdk.source().stats().warnings());
        }
        assertEquals(javaReaderPackets(trace), delivered, name + ": DPDK delivers what the pure-Java reader reads");
    }

    @ParameterizedTest
    @ValueSource(strings = {"test_without_pcap_header.pcap", "malformed-header.pcap"})
    void shouldRefuseAFileLibpcapCannotOpenWithDpdksErrorText(final String name) throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final DpdkConfig config = DpdkTestSupport.pcapVdev(vdevName(name), DpdkTestSupport.trace(name), dir.resolve("out.pcap"), chain);
        final DpdkException e = assertThrows(DpdkException.class, () -> DpdkFrontEnd.open(config));
        assertTrue(e.getMessage().startsWith("dpdk: rte_dev_probe(net_pcap_"), e.getMessage());
        assertTrue(e.errno() > 0, e.getMessage());
        assertTrue(e.getMessage().contains(Dpdk.strerror(e.errno())), e.getMessage());
    }

    @Test
    void shouldStillOpenAGoodTraceAfterARefusedOne() throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path bad = DpdkTestSupport.trace("malformed-header.pcap");
        assertThrows(DpdkException.class,
            () -> DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("again_bad", bad, dir.resolve("a.pcap"), chain)));
        try (DpdkFrontEnd dpdk = DpdkFrontEnd.open(
            DpdkTestSupport.pcapVdev("again_good", DpdkTestSupport.trace("big-endian.pcap"), dir.resolve("b.pcap"), chain));
             ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            engine.run(dpdk.source(), dpdk.sink());
            assertEquals(5, dpdk.source().delivered());
        }
    }

    private static long javaReaderPackets(final Path trace) throws SourceException
    {
        try (PacketSource source = PcapSource.open(trace, 1))
        {
            final PacketBuffer buffer = new PacketBuffer();
            long n = 0;
            while (source.next(buffer))
            {
                n++;
            }
            return n;
        }
    }

    private static String vdevName(final String file)
    {
        return file.replaceAll("[^A-Za-z0-9]", "_");
    }
}
