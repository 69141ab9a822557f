package io.transnfv.vnf.packet;

import io.transnfv.vnf.harness.Frames;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IcmpErrorQuoteTest
{
    private final PacketFlyweight packet = new PacketFlyweight();
    private final IcmpErrorQuote quote = new IcmpErrorQuote();

    private long biflow(final byte[] frame)
    {
        return FlowKeys.biflow(packet.wrap(frame, 0, frame.length));
    }

    private boolean wrap(final byte[] frame)
    {
        return quote.wrap(packet.wrap(frame, 0, frame.length));
    }

    @Test
    void shouldReadTheQuotedIpv4PacketOfADestinationUnreachable()
    {
        final byte[] original = Frames.udp("10.0.0.5", 5353, "8.8.8.8", 53, 40);
        final byte[] error = Frames.icmpError("192.0.2.1", "10.0.0.5", 3, 3, original);
        assertTrue(wrap(error));
        assertEquals(4, quote.ipVersion());
        assertEquals(PacketFlyweight.PROTO_UDP, quote.protocol());
        assertEquals(Ipv4.parse("10.0.0.5"), quote.srcIpv4());
        assertEquals(Ipv4.parse("8.8.8.8"), quote.dstIpv4());
        assertEquals(5353, quote.srcPort());
        assertEquals(53, quote.dstPort());
        assertEquals(biflow(original), quote.biflow());
        assertEquals(biflow(Frames.udp("8.8.8.8", 53, "10.0.0.5", 5353, 0)), quote.biflow(), "either direction");
        assertEquals(0, Checksums.icmpv4(packet.wrap(error, 0, error.length)) - packet.getU16(packet.l4Offset() + 2),
            "the test frame's checksum is right");
    }

    @Test
    void shouldReadTheQuotedIpv6PacketOfAPacketTooBig()
    {
        final byte[] original = Frames.tcp("2001:db8:1::5", 4000, "2001:4860::8888", 443, TCP_ACK, 1400);
        assertTrue(wrap(Frames.icmpError("2001:db8:ffff::1", "2001:db8:1::5", 2, 0, original)));
        assertEquals(6, quote.ipVersion());
        assertEquals(PacketFlyweight.PROTO_TCP, quote.protocol());
        assertEquals(Ipv6.parse("2001:db8:1::5")[1], quote.srcIpv6Low());
        assertEquals(Ipv6.parse("2001:4860::8888")[0], quote.dstIpv6High());
        assertEquals(4000, quote.srcPort());
        assertEquals(443, quote.dstPort());
        assertEquals(biflow(original), quote.biflow());
    }

    @Test
    void shouldSkipTheQuotedExtensionHeaders()
    {
        final byte[] original = new byte[200];
        final long[] a = Ipv6.parse("2001:db8::1");
        final long[] b = Ipv6.parse("2001:db8::2");
        final int length = new FrameBuilder().ipv6(a[0], a[1], b[0], b[1])
            .ipv6ExtensionHeader(PacketFlyweight.PROTO_HOPOPT).ipv6ExtensionHeader(PacketFlyweight.PROTO_IPV6_DSTOPTS)
            .udp(7000, 8000).write(original, 0);
        final byte[] frame = java.util.Arrays.copyOf(original, length);
        assertTrue(wrap(Frames.icmpError("2001:db8::ff", "2001:db8::1", 1, 0, frame)));
        assertEquals(PacketFlyweight.PROTO_UDP, quote.protocol());
        assertEquals(7000, quote.srcPort());
        assertEquals(8000, quote.dstPort());
    }

    @Test
    void shouldNotTakeQueriesOrMismatchedQuotesForErrors()
    {
        assertFalse(wrap(Frames.icmpEcho("10.0.0.5", "8.8.8.8")), "echo is not an error");
        assertFalse(wrap(Frames.icmpEcho("2001:db8::1", "2001:db8::2")), "nor is ICMPv6 echo");
        assertFalse(wrap(Frames.tcp("10.0.0.5", 1, "8.8.8.8", 2, TCP_SYN, 0)));
        assertFalse(wrap(Frames.icmpError("2001:db8::ff", "2001:db8::1", 1, 0, Frames.udp("10.0.0.5", 1, "8.8.8.8", 2, 0))),
            "an ICMPv6 error quoting IPv4");
        final byte[] truncated = Frames.icmpError("192.0.2.1", "10.0.0.5", 11, 0, Frames.udp("10.0.0.5", 1, "8.8.8.8", 2, 0));
        final byte[] cut = java.util.Arrays.copyOf(truncated, 14 + 20 + 8 + 12);
        cut[14 + 3] = (byte)(20 + 8 + 12);
        assertFalse(wrap(cut), "a quote shorter than an IPv4 header");
    }
}
