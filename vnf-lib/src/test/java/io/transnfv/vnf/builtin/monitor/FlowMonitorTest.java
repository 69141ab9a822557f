package io.transnfv.vnf.builtin.monitor;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowMonitorTest
{
    private static final long S = 1_000_000_000L;

    private static long flowKey(final byte[] frame)
    {
        return FlowKeys.fiveTuple(new PacketFlyweight().wrap(frame, 0, frame.length));
    }

    @Test
    void shouldCountPacketsAndBytesPerFlowAndPerHost()
    {
        final VnfHarness mon = VnfHarness.of(new FlowMonitorFactory(), Map.of());
        final byte[] a = Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 100);
        final byte[] b = Frames.udp("10.0.0.1", 2000, "8.8.4.4", 53, 40);
        for (int i = 0; i < 3; i++)
        {
            assertTrue(mon.offer(a, S + i).forwarded());
        }
        mon.offer(b, 2 * S);
        mon.offer(Frames.nonIp(), 2 * S);

        final long host = Ipv4.parse("10.0.0.1") & 0xFFFF_FFFFL;
        assertEquals(3, mon.state("flow-packets", flowKey(a)));
        assertEquals(3L * a.length, mon.state("flow-bytes", flowKey(a)));
        assertEquals(1, mon.state("flow-packets", flowKey(b)));
        assertEquals(4, mon.state("host-packets", host));
        assertEquals(3L * a.length + b.length, mon.state("host-bytes", host));
        assertEquals(4, mon.counter("packets").get());
        assertEquals(2, mon.counter("flows-started").get());
    }

    @Test
    void shouldEndFlowsOnFinAndWhenIdleButKeepHostTotals()
    {
        final VnfHarness mon = VnfHarness.of(new FlowMonitorFactory(), Map.of("idle_timeout", "5s"));
        final byte[] a = Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 100);
        final byte[] b = Frames.udp("10.0.0.1", 2000, "8.8.4.4", 53, 40);
        mon.offer(a, S);
        mon.offer(b, S);
        mon.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_FIN | TCP_ACK, 0), 2 * S);
        assertEquals(0, mon.state("flow-packets", flowKey(a)));
        assertEquals(1, mon.counter("flows-closed").get());

        mon.advanceTo(10 * S);
        assertEquals(0, mon.size("flow-packets"));
        assertEquals(0, mon.size("flow-last-seen"));
        assertEquals(1, mon.counter("flows-expired").get());
        assertEquals(3, mon.state("host-packets", Ipv4.parse("10.0.0.1") & 0xFFFF_FFFFL));
    }

    @Test
    void shouldRejectBadParametersNamingTheParameter()
    {
        assertEquals("idle_timeout", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new FlowMonitorFactory(), Map.of("idle_timeout", "fast"))).param());
        assertEquals("colour", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new FlowMonitorFactory(), Map.of("colour", "blue"))).param());
    }
}
