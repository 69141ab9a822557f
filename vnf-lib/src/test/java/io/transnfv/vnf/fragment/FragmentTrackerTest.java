package io.transnfv.vnf.fragment;

import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FragmentTrackerTest
{
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_700_000_000_000L * MS;

    private final FrameBuilder builder = new FrameBuilder();
    private final byte[] buffer = new byte[512];

    @Test
    void shouldRememberTheFirstFragmentsPortsForTheLaterOnes()
    {
        final VnfHarness tracker = VnfHarness.of("ingress", new FragmentTracker(1_000 * MS, 4));
        tracker.offer(fragment(7, 0, true), T0);
        tracker.offer(fragment(7, 40, false), T0 + MS);
        assertEquals(1, tracker.counter("first-fragments").get());
        assertEquals(1, tracker.counter("recovered").get());
        assertEquals(0, tracker.counter("held").get());
        final long entry = tracker.state("datagrams", datagram(7));
        assertEquals((5000L << 16) | 53, entry & 0xFFFF_FFFFL, "the ports, source high");
    }

    @Test
    void shouldHoldFragmentsBeforeTheirFirstUpToTheBoundThenOverflow()
    {
        final VnfHarness tracker = VnfHarness.of("ingress", new FragmentTracker(1_000 * MS, 2));
        tracker.offer(fragment(1, 40, false), T0);
        tracker.offer(fragment(1, 80, false), T0 + 1);
        tracker.offer(fragment(2, 40, false), T0 + 2);
        assertEquals(2, tracker.counter("held").get());
        assertEquals(1, tracker.counter("overflows").get());
        assertEquals(2, tracker.state("held", 0));
        tracker.offer(fragment(1, 0, true), T0 + 3);
        assertEquals(2, tracker.counter("released").get(), "the first fragment lets its datagram's two go");
        assertEquals(0, tracker.state("held", 0));
        tracker.offer(fragment(2, 80, false), T0 + 4);
        assertEquals(3, tracker.counter("held").get(), "room again");
    }

    @Test
    void shouldForgetADatagramThatHoldsNothingAtTheSweepAfterItsTimeoutAndTimeOutOnlyOnRequest()
    {
        final VnfHarness tracker = VnfHarness.of("ingress", new FragmentTracker(10 * MS, 4));
        tracker.offer(fragment(3, 0, true), T0);
        tracker.offer(fragment(4, 40, false), T0);
        tracker.advanceTo(T0 + 30 * MS);
        assertEquals(0, tracker.state("datagrams", datagram(3)), "first seen 30 ms ago, nothing held: forgotten");
        assertEquals(1, tracker.state("held", 0), "a datagram with held fragments waits for the executor");
        assertEquals(1, tracker.counter("held").get());
        assertEquals(0, tracker.counter("timeouts").get());
    }

    @Test
    void shouldRefuseANonPositiveTimeoutAndAHoldingBoundOutOfRange()
    {
        assertThrows(IllegalArgumentException.class, () -> new FragmentTracker(0, 4));
        assertThrows(IllegalArgumentException.class, () -> new FragmentTracker(MS, -1));
        assertThrows(IllegalArgumentException.class, () -> new FragmentTracker(MS, FragmentTracker.MAX_HELD_LIMIT + 1));
    }

    private byte[] fragment(final int id, final int offset, final boolean more)
    {
        final int n = builder.reset().ipv4(0x0A000005, 0x08080808).ipId(id).udp(5000, 53).fragment(offset, more)
            .payload(32, (byte)1).write(buffer, 0);
        return Arrays.copyOf(buffer, n);
    }

    private long datagram(final int id)
    {
        final PacketFlyweight packet = new PacketFlyweight();
        final byte[] frame = fragment(id, 40, false);
        packet.wrap(frame, 0, frame.length);
        return FlowKeys.datagram(packet);
    }
}
