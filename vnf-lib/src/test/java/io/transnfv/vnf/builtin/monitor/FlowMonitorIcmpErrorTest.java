package io.transnfv.vnf.builtin.monitor;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowMonitorIcmpErrorTest
{
    private static final long S = 1_000_000_000L;

    private static long fiveTuple(final byte[] frame)
    {
        return FlowKeys.fiveTuple(new PacketFlyweight().wrap(frame, 0, frame.length));
    }

    @Test
    void shouldMatchIcmpErrorsToTheLiveFlowTheyQuoteInEitherDirection()
    {
        matchErrors(VnfHarness.of(new FlowMonitorFactory(), Map.of()));
    }

    @Test
    void shouldMatchIcmpErrorsAlsoWhenHostsExpire()
    {
        // host expiry adds an operation before the error's: the error is still counted against its flow
        matchErrors(VnfHarness.of(new FlowMonitorFactory(), Map.of("host_idle_timeout", "30s")));
    }

    private static void matchErrors(final VnfHarness mon)
    {
        final byte[] out = Frames.tcp("2001:db8:1::5", 4000, "2001:4860::8888", 443, TCP_ACK, 1400);
        final byte[] back = Frames.tcp("2001:4860::8888", 443, "2001:db8:1::5", 4000, TCP_ACK, 100);
        mon.offer(out, S);
        mon.offer(back, S);

        assertTrue(mon.offer(Frames.icmpError("2001:db8:ffff::1", "2001:db8:1::5", 2, 0, out), 2 * S).forwarded());
        mon.offer(Frames.icmpError("2001:db8:ffff::1", "2001:db8:1::5", 2, 0, out), 3 * S);
        mon.offer(Frames.icmpError("2001:db8:eeee::1", "2001:4860::8888", 3, 0, back), 3 * S);
        assertEquals(2, mon.state("flow-errors", fiveTuple(out)) & 0xFFFFF, "two packet-too-big about the outbound flow");
        assertEquals(1, mon.state("flow-errors", fiveTuple(back)) & 0xFFFFF, "one time-exceeded about the reply flow");
        assertEquals(3, mon.counter("errors-matched").get());
        assertEquals(5, mon.counter("packets").get(), "each error is also a packet of its own");

        final byte[] v4 = Frames.udp("10.0.0.1", 5353, "8.8.8.8", 53, 20);
        mon.offer(Frames.icmpError("192.0.2.1", "10.0.0.1", 3, 3, v4), 4 * S);
        assertEquals(0, mon.state("flow-errors", fiveTuple(v4)), "an error about a flow never seen is matched to nothing");
        mon.offer(v4, 5 * S);
        mon.offer(Frames.icmpError("192.0.2.1", "10.0.0.1", 3, 3, v4), 6 * S);
        assertEquals(1, mon.state("flow-errors", fiveTuple(v4)) & 0xFFFFF, "IPv4 too");
    }

    @Test
    void shouldForgetErrorsAboutAFlowOnceTheyStopComing()
    {
        final VnfHarness mon = VnfHarness.of(new FlowMonitorFactory(), Map.of("idle_timeout", "10s", "expiry_interval", "1s"));
        final byte[] out = Frames.udp("10.0.0.1", 5353, "8.8.8.8", 53, 20);
        mon.offer(out, S);
        mon.offer(Frames.icmpError("192.0.2.1", "10.0.0.1", 3, 3, out), 2 * S);
        assertEquals(1, mon.size("flow-errors"));
        mon.advanceTo(30 * S);
        assertEquals(0, mon.size("flow-errors"));
    }
}
