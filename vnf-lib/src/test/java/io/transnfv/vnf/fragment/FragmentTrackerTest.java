package io.transnfv.vnf.fragment;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void shouldGiveLaterFragmentsOfAnIcmpEchoTheTypeOfTheirFirst()
    {
        final Recording recording = new Recording(new FragmentTracker(1_000 * MS, 4));
        final VnfHarness tracker = VnfHarness.of("ingress", recording);
        tracker.offer(icmpFragment(21, 0, true, 8), T0);
        tracker.offer(icmpFragment(21, 1480, false, 8), T0 + MS);
        assertEquals(List.of("8", "8 recovered"), recording.seen, "a later fragment of an echo request is an echo request");
        assertEquals(8, tracker.state("datagrams", icmpDatagram(21)) & 0xFFFF_FFFFL, "the type is remembered");
        assertEquals(1, tracker.counter("recovered").get());
        assertEquals(0, tracker.size("quote-transport"), "an echo quotes nothing");
    }

    @Test
    void shouldGiveLaterFragmentsOfAnIcmpErrorTheQuoteOfTheirFirstHeldOrNot()
    {
        final Recording recording = new Recording(new FragmentTracker(1_000 * MS, 4));
        final VnfHarness tracker = VnfHarness.of("ingress", recording);
        final byte[] quoted = Frames.udp("203.0.113.1", 40000, "8.8.8.8", 53, 20);
        tracker.offer(icmpFragment(31, 1480, false, 0), T0);
        assertEquals(1, tracker.counter("held").get(), "an ICMP fragment before its first is held like a UDP one");
        tracker.offer(icmpErrorFirstFragment(31, quoted), T0 + MS);
        assertEquals(1, tracker.counter("released").get());
        tracker.offer(icmpFragment(31, 2960, false, 0), T0 + 2 * MS);
        final String quote = "quote 17 203.0.113.1:40000>8.8.8.8:53";
        assertEquals(List.of("-", "3 " + quote, "3 recovered " + quote), recording.seen,
            "held: nothing yet; the first reads its own quote; a later one gets it");
        final long datagram = icmpDatagram(31);
        assertEquals(Integer.toUnsignedLong(Ipv4.parse("203.0.113.1")), tracker.state("quote-src-low", datagram));
        assertEquals(Integer.toUnsignedLong(Ipv4.parse("8.8.8.8")), tracker.state("quote-dst-low", datagram));
        assertEquals((1L << 40) | (17L << 32) | (40000L << 16) | 53, tracker.state("quote-transport", datagram));

        final PacketFlyweight released = new PacketFlyweight();
        final byte[] held = icmpFragment(31, 1480, false, 0);
        released.wrap(held, 0, held.length);
        final FirstFragmentFields fields = new FirstFragmentFields();
        fields.transport = 3;
        fields.quoteTransport = tracker.state("quote-transport", datagram);
        fields.quoteSrcLow = tracker.state("quote-src-low", datagram);
        fields.quoteDstLow = tracker.state("quote-dst-low", datagram);
        fields.giveTo(released);
        assertEquals(quote, Recording.describeQuote(released), "a released fragment is given the same");

        tracker.advanceTo(T0 + 3_000 * MS);
        assertEquals(0, tracker.size("quote-transport"), "the sweep forgets the quote with its datagram");
        assertEquals(0, tracker.size("quote-src-low"));
    }

    @Test
    void shouldTrackFragmentsOfAnyOtherProtocolWithNothingToRecover()
    {
        final Recording recording = new Recording(new FragmentTracker(1_000 * MS, 4));
        final VnfHarness tracker = VnfHarness.of("ingress", recording);
        tracker.offer(greFragment(41, 1480, false), T0);
        tracker.offer(greFragment(41, 0, true), T0 + MS);
        assertEquals(1, tracker.counter("held").get(), "a GRE fragment before its first waits for it");
        assertEquals(1, tracker.counter("released").get());
        assertEquals(1, tracker.counter("first-fragments").get());
        assertFalse(FragmentTracker.tracks(parse(Frames.icmpEcho("10.0.0.5", "8.8.8.8"))), "a whole datagram is not tracked");
        assertTrue(FragmentTracker.tracks(parse(greFragment(41, 0, true))));
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

    private byte[] icmpFragment(final int id, final int offset, final boolean more, final int type)
    {
        final int n = builder.reset().ipv4(0x08080808, 0xCB007101).ipId(id).icmp(type, 0).fragment(offset, more)
            .payload(32, (byte)1).write(buffer, 0);
        return Arrays.copyOf(buffer, n);
    }

    /** A destination unreachable from 8.8.8.8 to 203.0.113.1 quoting {@code quoted}, as the first of its fragments. */
    private byte[] icmpErrorFirstFragment(final int id, final byte[] quoted)
    {
        final byte[] error = Frames.icmpError("8.8.8.8", "203.0.113.1", 3, 3, quoted);
        final int n = builder.reset().ipv4(0x08080808, 0xCB007101).ipId(id).icmp(3, 3).fragment(0, true)
            .payload(error.length - 14 - 28, (byte)0).write(buffer, 0);
        System.arraycopy(error, 14 + 28, buffer, 14 + 28, error.length - 14 - 28);
        return Arrays.copyOf(buffer, n);
    }

    private byte[] greFragment(final int id, final int offset, final boolean more)
    {
        final int n = builder.reset().ipv4(0x0A000005, 0x08080808).ipId(id).ipProtocol(47).fragment(offset, more)
            .payload(32, (byte)1).write(buffer, 0);
        return Arrays.copyOf(buffer, n);
    }

    private long icmpDatagram(final int id)
    {
        return FlowKeys.datagram(parse(icmpFragment(id, 1480, false, 0)));
    }

    private static PacketFlyweight parse(final byte[] frame)
    {
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    /** The tracker, then a note of how each packet it passed on reads: its ICMP type and quote. */
    private static final class Recording implements Vnf
    {
        private final FragmentTracker tracker;
        private final List<String> seen = new ArrayList<>();

        Recording(final FragmentTracker tracker)
        {
            this.tracker = tracker;
        }

        @Override
        public void setup(final VnfSetup setup)
        {
            tracker.setup(setup);
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
            tracker.preProcess(packet, txn);
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            tracker.postProcess(packet, result, actions);
            final int outcome = tracker.outcome(result);
            if (outcome == FragmentTracker.HELD || outcome == FragmentTracker.OVERFLOW)
            {
                seen.add("-");
                return;
            }
            final String quote = describeQuote(packet);
            seen.add(packet.icmpType() + (packet.icmpTypeRecovered() ? " recovered" : "") + (quote.isEmpty() ? "" : " " + quote));
        }

        @Override
        public void expire(final long nowNs, final StateMaintenance state)
        {
            tracker.expire(nowNs, state);
        }

        static String describeQuote(final PacketFlyweight packet)
        {
            final IcmpErrorQuote quote = new IcmpErrorQuote();
            if (!quote.wrap(packet))
            {
                return "";
            }
            return "quote " + quote.protocol() + " " + Ipv4.format(quote.srcIpv4()) + ":" + quote.srcPort() + ">"
                + Ipv4.format(quote.dstIpv4()) + ":" + quote.dstPort();
        }
    }

    private long datagram(final int id)
    {
        final PacketFlyweight packet = new PacketFlyweight();
        final byte[] frame = fragment(id, 40, false);
        packet.wrap(frame, 0, frame.length);
        return FlowKeys.datagram(packet);
    }
}
