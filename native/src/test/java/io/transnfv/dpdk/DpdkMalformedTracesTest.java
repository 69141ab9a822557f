package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.ForwardingPacketSource;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every readable test trace, the damaged and malformed ones among them, through DPDK's pcap
 * vdev and nat-lb-td: nothing crashes, every packet DPDK delivered reaches a verdict and its
 * mbuf is either transmitted or freed, and every packet's record (the malformed ones dropped
 * at ingress, by reason) equals the pure-Java path's. The packet view is the only parser on
 * both paths, so the report counts malformed frames once, as the chain's ingress drops; the
 * front end adds no warning of its own about them. A file libpcap cannot open is a
 * {@link DpdkException} carrying DPDK's error text. All vdevs are hot-plugged into the one
 * EAL this JVM may start.
 *
 * <p>The pcap vdev hands a record's captured bytes over as the whole frame: the mbuf's packet
 * length is the captured length, and the wire length of a record cut by a snap length is lost.
 * The pure-Java side is read the same way ({@link CapturedLengthOnly}), so both judge such a
 * frame on the bytes they have; without DPDK the reader keeps the wire length and the frame is
 * processed on its headers (see {@code SnapLengthRunTest}).
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
        "ip_fragmented_garbage.pcap", "big-endian.pcap", "alexa-app.pcapng", "4in4tunnel.pcap", "6in4tunnel.pcap",
        "http_ipv6.pcap", "synscan.pcap", "WebattackXSS.pcap"})
    void shouldDropTheSameMalformedFramesAsThePureJavaPathWithoutLosingAnyMbuf(final String name) throws IOException
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = DpdkTestSupport.trace(name);

        final List<String> javaRecords = new ArrayList<>();
        final RunStats javaStats;
        try (ChainExecutor engine = DpdkTestSupport.engine(chain);
             PacketSource source = new CapturedLengthOnly(PcapSource.open(trace, 1)))
        {
            javaStats = engine.run(source, DpdkTestSupport.recorder(engine, javaRecords));
        }

        final List<String> dpdkRecords = new ArrayList<>();
        final DpdkFrontEnd dpdk;
        final RunStats dpdkStats;
        try (ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev(vdevName(name), trace, dir.resolve("out.pcap"), chain));
            try (DpdkSource source = dpdk.source())
            {
                dpdkStats = engine.run(source, DpdkTestSupport.both(DpdkTestSupport.recorder(engine, dpdkRecords), dpdk.sink()));
            }
        }

        final NativeCounters counters = dpdk.port().counters();
        final long delivered = dpdk.source().delivered();
        assertEquals(javaRecords.size(), delivered, name + ": DPDK delivers what the pure-Java reader reads");
        assertEquals(counters.rxPackets(), delivered, name + ": packets received = packets delivered to the engine");
        assertEquals(delivered, dpdkStats.packetsFinished(), name + ": every delivered packet got a verdict");
        // a held fragment's mbuf is freed early (released), and what is sent of it is a copy
        assertEquals(delivered, counters.txPackets() - counters.txCopied() + counters.droppedByVerdict() + counters.heldReleased(),
            name + ": every mbuf was transmitted or freed " + counters.toMap());
        assertEquals(0, counters.droppedTxFull(), name);
        for (int i = 0; i < javaRecords.size(); i++)
        {
            assertEquals(javaRecords.get(i), dpdkRecords.get(i), name + ": record of packet " + i);
        }
        for (int reason = 1; reason < PacketFlyweight.MALFORMED_REASON_COUNT; reason++)
        {
            assertEquals(javaStats.malformed(reason), dpdkStats.malformed(reason),
                name + ": ingress drops as " + PacketFlyweight.malformedReasonName(reason));
        }
        if (name.equals("badpackets.pcap"))
        {
            assertTrue(dpdkStats.malformed(PacketFlyweight.TRUNCATED_L3) > 0, "badpackets.pcap has malformed frames");
        }
        assertFalse(dpdk.source().stats().warnings().stream().anyMatch(w -> w.contains("malformed")),
            name + ": the report counts malformed frames once, as ingress drops " + dpdk.source().stats().warnings());
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

    /** A capture read as DPDK's pcap vdev reads it: each record's captured bytes are the frame, as long on the wire. */
    private static final class CapturedLengthOnly extends ForwardingPacketSource
    {
        CapturedLengthOnly(final PacketSource source)
        {
            super(source);
        }

        @Override
        public boolean next(final PacketBuffer dst) throws SourceException
        {
            if (!source.next(dst))
            {
                return false;
            }
            dst.commit(dst.length(), dst.length(), dst.timestampNs(), dst.sequence());
            return true;
        }



    }

    private static String vdevName(final String file)
    {
        return file.replaceAll("[^A-Za-z0-9]", "_");
    }
}
