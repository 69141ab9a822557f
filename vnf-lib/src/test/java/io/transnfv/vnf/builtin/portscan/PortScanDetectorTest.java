package io.transnfv.vnf.builtin.portscan;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Ipv4;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PortScanDetectorTest
{
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final String SCANNER = "10.9.9.9";

    private static List<String> syn(final VnfHarness ps, final int port, final long timeNs)
    {
        return ps.offer(Frames.tcp(SCANNER, 50000, "10.0.0.1", port, TCP_SYN, 0), timeNs).alerts();
    }

    @Test
    void shouldAlertExactlyOnceWhenTheThresholdIsCrossed()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3));
        assertEquals(List.of(), syn(ps, 1, S));
        assertEquals(List.of(), syn(ps, 1, S + MS));
        assertEquals(List.of(), syn(ps, 2, S + 2 * MS));
        assertEquals(List.of("port-scan:" + (Ipv4.parse(SCANNER) & 0xFFFF_FFFFL)), syn(ps, 3, S + 3 * MS));
        assertEquals(List.of(), syn(ps, 4, S + 4 * MS));
        assertEquals(1, ps.counter("alerts").get());
        assertEquals(4, ps.state("sources", Ipv4.parse(SCANNER) & 0xFFFF_FFFFL) & 0xFFFFF);
    }

    @Test
    void shouldNotCountTargetsWhoseHandshakeCompleted()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3));
        for (int port = 1; port <= 10; port++)
        {
            assertEquals(List.of(), syn(ps, port, port * S / 10));
            ps.offer(Frames.tcp(SCANNER, 50000, "10.0.0.1", port, TCP_ACK, 0), port * S / 10 + MS);
        }
        assertEquals(0, ps.size("probes"));
        assertEquals(0, ps.size("sources"));
    }

    @Test
    void shouldRestartTheCountInANewWindowAndSweepStaleState()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3, "window", "10s"));
        syn(ps, 1, S);
        syn(ps, 2, 2 * S);
        assertEquals(List.of(), syn(ps, 3, 30 * S));
        assertEquals(1, ps.size("probes"));
        ps.advanceTo(60 * S);
        assertEquals("", ps.dump());
    }

    @Test
    void shouldRejectBadParametersNamingTheParameter()
    {
        assertEquals("threshold", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 0))).param());
        assertEquals("window", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new PortScanDetectorFactory(), Map.of("window", "0s"))).param());
    }
}
