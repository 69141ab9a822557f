package io.transnfv.engine.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;

import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunReport.ExecutorReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.packet.LinkType;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Linux cooked capture cut by a snap length through a chain that rewrites ports: every
 * packet is processed on its headers, the report counts the cut frames, and the output
 * pcap keeps the link type and both lengths of each record.
 */
class SnapLengthRunTest
{
    @TempDir
    Path tempDir;

    @Test
    void shouldRewriteAndForwardFramesCutBySnapLengthAndCountThemInTheReport() throws IOException, URISyntaxException
    {
        final Path input = Path.of(SnapLengthRunTest.class.getResource("/traces/webattack-sll-snap96.pcap").toURI());
        final Path output = tempDir.resolve("out.pcap");
        final RunStats stats;
        final RunReport report;
        try (SerialChainExecutor oracle = new SerialChainExecutor(TestChains.quotaThenRewrite());
             PcapSource source = PcapSource.open(input);
             PcapWriter writer = PcapWriter.create(output))
        {
            stats = oracle.run(source, (record, buffer, packet) ->
            {
                try
                {
                    if (!record.dropped())
                    {
                        writer.write(buffer);
                    }
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            });
            report = RunReport.builder().transnfvVersion("test").executor(ExecutorReport.serial(oracle.describe()))
                .source(source.describe()).measured(stats, source.stats(), 1_000_000).build();
        }

        assertEquals(400, stats.packetsFinished());
        assertTrue(report.drops().stream().noneMatch(d -> d.stage().equals("ingress")), report.drops().toString());
        final long cut = report.packets().truncatedFrames();
        assertTrue(cut > 50, "cut frames " + cut);
        assertTrue(report.toText().contains("truncated frames"), report.toText());

        final PacketBuffer buffer = new PacketBuffer();
        final PacketFlyweight packet = new PacketFlyweight();
        long rewritten = 0;
        long cutOut = 0;
        try (PcapSource written = PcapSource.open(output))
        {
            while (written.next(buffer))
            {
                assertEquals(LinkType.LINUX_SLL, buffer.linkType());
                assertTrue(buffer.length() <= 96, "snap length kept");
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                assertTrue(packet.isValid(), packet.toString());
                rewritten += packet.dstPort() == 8080 ? 1 : 0;
                cutOut += packet.isCutByCapture() ? 1 : 0;
            }
            assertEquals(stats.forwarded(), written.stats().packets());
            assertEquals(cutOut, written.stats().truncatedFrames());
        }
        assertTrue(rewritten > 0 && cutOut > 0, "rewritten " + rewritten + ", cut " + cutOut);
        assertFalse(stats.forwarded() == 0);
    }
}
