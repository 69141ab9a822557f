package io.transnfv.vnf.builtin.monitor;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The monitor's host totals: kept for the run by default, ended when the host idles past host_idle_timeout. */
class FlowMonitorHostExpiryTest
{
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_700_000_000L * S;
    private static final byte[] FROM_A = Frames.udp("10.0.0.1", 1000, "10.0.0.2", 53, 100);
    private static final byte[] FROM_B = Frames.udp("10.0.0.9", 1000, "10.0.0.2", 53, 100);

    @Test
    void shouldEndAnIdleHostsTotalsAndStartThemAfreshWhenItComesBack()
    {
        final VnfHarness monitor = VnfHarness.of("monitor", new FlowMonitor(60 * S, 2 * S, S));
        monitor.offer(FROM_A, T0);
        monitor.offer(FROM_A, T0 + S / 2);
        assertEquals(1, monitor.size("host-packets"));
        // host A stays away for 3 s: the sweep at T0 + 3 s ends its totals
        monitor.offer(FROM_B, T0 + 3 * S + S / 2);
        assertEquals(1, monitor.size("host-packets"), "only host B left");
        assertEquals(1, monitor.size("host-last-seen"));
        assertEquals(1, monitor.counter("hosts-expired").get());
        assertEquals(2, monitor.size("flow-packets"), "the flows keep their own, longer timeout");
        // back: A's totals start afresh
        monitor.offer(FROM_A, T0 + 4 * S);
        assertEquals(2, monitor.size("host-packets"));
        assertEquals(T0 / 1_000_000 + 4_000 + 1, monitor.state("host-last-seen", hostOf()));
        assertEquals(1, monitor.state("host-packets", hostOf()));
    }

    @Test
    void shouldRestartAnIdleHostThatComesBackBeforeTheSweep()
    {
        // idle for 2.5 s, but the sweep runs every 10 s: the packet finds the host as the sweep would have left it
        final VnfHarness monitor = VnfHarness.of("monitor", new FlowMonitor(60 * S, 2 * S, 10 * S));
        monitor.offer(FROM_A, T0 + S);
        monitor.offer(FROM_A, T0 + 3 * S + S / 2);
        assertEquals(1, monitor.state("host-packets", hostOf()));
        assertEquals(FROM_A.length, monitor.state("host-bytes", hostOf()), "bytes restart with the packets");
    }

    @Test
    void shouldKeepHostsForTheRunByDefault()
    {
        final VnfHarness monitor = VnfHarness.of("monitor", new FlowMonitor(60 * S, S));
        monitor.offer(FROM_A, T0);
        monitor.offer(FROM_A, T0 + 100 * S);
        assertEquals(2, monitor.state("host-packets", hostOf()));
    }

    /** @return host A's key in the host tables. */
    private static long hostOf()
    {
        final PacketFlyweight packet = new PacketFlyweight();
        packet.wrap(FROM_A.clone(), 0, FROM_A.length);
        return FlowKeys.srcHost(packet);
    }
}
