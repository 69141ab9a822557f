package io.transnfv.engine.pipeline;

import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunStats;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerialChainExecutorTest
{
    @Test
    void shouldRunEachPacketThroughItsPathAndRecordVerdicts() throws IOException
    {
        final TestChains.ListSource source = new TestChains.ListSource()
            .tcp("10.0.0.1", 80)
            .udp("10.0.0.1", 53)
            .tcp("10.0.0.1", 443)
            .tcp("10.0.0.2", 22)
            .raw(new byte[] {1, 2, 3});
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(TestChains.quotaThenRewrite()))
        {
            final RunStats stats = oracle.run(source, (record, buffer, packet) ->
                records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));

            assertEquals(List.of(
                "0 1000000000 FORWARD quota>rewrite tcp 10.0.0.1:1000>192.0.2.1:8080 rewrite.port=80",
                "1 1000400000 FORWARD quota udp 10.0.0.1:1000>192.0.2.1:53",
                "2 1000800000 DROP quota:quota quota tcp 10.0.0.1:1000>192.0.2.1:443 alert=quota:third:3",
                "3 1001200000 FORWARD quota>rewrite tcp 10.0.0.2:1000>192.0.2.1:8080 rewrite.port=22",
                "4 1001600000 DROP ingress:truncated-l2 - -"), records);
            assertEquals(5, stats.packetsFinished());
            assertEquals(3, stats.forwarded());
            assertEquals(1, stats.drops(0, 1));
            assertEquals(2, stats.visits(1));
            // the expiry tick at 1.001 s reset host 10.0.0.1's count; 10.0.0.2 came after it
            assertEquals("quota.counts 10.0.0.2 1\n", oracle.dumpState());

            final RunReport report = RunReport.of(oracle.describe(), source.describe(), source.stats(), stats, 1_000_000);
            final String text = report.toText();
            assertTrue(text.contains("quota:quota"), text);
            assertTrue(text.contains("ingress:truncated-l2"), text);
        }
    }
}
