package io.transnfv.vnf.builtin.portscan;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.TraceFrames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.Ipv6;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PortScanDetectorIpv6Test
{
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final String VICTIM = "2001:db8:1::5";

    private static List<String> syn(final VnfHarness ps, final String scanner, final int port, final long timeNs)
    {
        return ps.offer(Frames.tcp(scanner, 50000, VICTIM, port, TCP_SYN, 0), timeNs).alerts();
    }

    @Test
    void shouldAlertOnceWhenAnIpv6SourceCrossesTheThreshold()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3));
        final long network = Ipv6.parse("2001:db8:bad::")[0];
        assertEquals(List.of(), syn(ps, "2001:db8:bad::1", 1, S));
        assertEquals(List.of(), syn(ps, "2001:db8:bad::1", 1, S + MS), "the same target again");
        assertEquals(List.of(), syn(ps, "2001:db8:bad::1", 2, S + 2 * MS));
        assertEquals(List.of("port-scan:" + FlowKeys.ipv6Host(network, 0L)), syn(ps, "2001:db8:bad::1", 3, S + 3 * MS));
        assertEquals(List.of(), syn(ps, "2001:db8:bad::1", 4, S + 4 * MS));
        assertEquals(4, ps.state("sources-v6", network) & 0xFFFFF);
        assertEquals(0, ps.size("sources"), "IPv6 sources are not counted with IPv4 hosts");
    }

    @Test
    void shouldCountAScannerThatChangesItsAddressWithinItsSlash64AsOneSource()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3));
        assertEquals(List.of(), syn(ps, "2001:db8:bad::1", 1, S));
        assertEquals(List.of(), syn(ps, "2001:db8:bad::2:2", 2, S + MS));
        assertEquals(1, syn(ps, "2001:db8:bad:0:1234:5678:9abc:def0", 3, S + 2 * MS).size());
        assertEquals(List.of(), syn(ps, "2001:db8:bad:1::1", 4, S + 3 * MS), "another /64 is another source");
    }

    @Test
    void shouldNotCountIpv6TargetsWhoseHandshakeCompleted()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3));
        for (int port = 1; port <= 10; port++)
        {
            assertEquals(List.of(), syn(ps, "2001:db8:bad::1", port, port * S / 10));
            ps.offer(Frames.tcp("2001:db8:bad::1", 50000, VICTIM, port, TCP_ACK, 0), port * S / 10 + MS);
        }
        assertEquals(0, ps.size("probes"));
        assertEquals(0, ps.size("sources-v6"));
    }

    @Test
    void shouldSweepStaleIpv6Windows()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 3, "window", "10s"));
        syn(ps, "2001:db8:bad::1", 1, S);
        assertEquals(1, ps.size("sources-v6"));
        ps.advanceTo(30 * S);
        assertEquals(0, ps.size("sources-v6"));
        assertEquals(0, ps.size("probes"));
    }

    @Test
    void shouldRaiseNoAlertOnTheIpv6BrowsingCaptureEvenAtAThresholdOfTwo()
    {
        final VnfHarness ps = VnfHarness.of(new PortScanDetectorFactory(), Map.of("threshold", 2));
        final List<String> alerts = new ArrayList<>();
        for (final TraceFrames.Frame frame : TraceFrames.read("/traces/http_ipv6.pcap"))
        {
            alerts.addAll(ps.offer(frame.bytes(), frame.timestampNs()).alerts());
        }
        // the client opens several connections to port 443 within seconds; every handshake completes
        assertEquals(List.of(), alerts);
        assertEquals(4, ps.counter("probes").get(), "four of the capture's six SYNs found no half-open probe of their target");
        assertEquals(0, ps.size("sources-v6"), "and each was taken back by its handshake's ACK");
    }
}
