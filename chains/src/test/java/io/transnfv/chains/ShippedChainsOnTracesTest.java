package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped chains do what they say on real captures. */
class ShippedChainsOnTracesTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    @Test
    void shouldRaiseOnePortScanAlertForTheSynScanCapture() throws IOException
    {
        final RunStats stats = run("fw-portscan-monitor", "synscan.pcap");
        final int scan = stats.runtime().size() > 1 ? 1 : 0;
        assertEquals("scan", stats.runtime().instance(scan).name());
        assertEquals(1, stats.alerts(scan, 0), "one scanner, one alert when it crosses the threshold");
        assertEquals(2011, stats.forwarded(), "outbound probes and the replies to them pass the firewall");
    }

    @Test
    void shouldTranslateAndBalanceTheWebAttackCapture() throws IOException
    {
        final RunStats stats = run("nat-lb-td", "WebattackXSS.pcap");
        assertEquals(9374, stats.packetsFinished());
        assertTrue(stats.visits(1) > 0, "packets reach the load balancer");
    }

    private static RunStats run(final String chainName, final String trace) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
        final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(TRACES.resolve(trace), 1)));
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            return oracle.run(source, null);
        }
    }
}
