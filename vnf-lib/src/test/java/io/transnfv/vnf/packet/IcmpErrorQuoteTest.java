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
    void shouldKeepTheChecksumOfAnErrorThatCameInFragmentsRightOverTheWholeMessage()
    {
        final byte[] error = Frames.icmpError("8.8.8.8", "203.0.113.1", 3, 3, Frames.udp("203.0.113.1", 40000, "8.8.8.8", 53, 40));
        final int l3 = 14;
        final int icmp = l3 + 20;
        final int messageLength = error.length - icmp;
        final int firstPart = 32;   // the ICMP header and 24 bytes of the quote; the rest in a later fragment
        final byte[] first = java.util.Arrays.copyOf(error, icmp + firstPart);
        PacketFlyweight.putU16(first, l3 + 2, 20 + firstPart);
        PacketFlyweight.putU16(first, l3 + 6, 0x2000);
        PacketFlyweight.putU16(first, l3 + 10, 0);
        PacketFlyweight.putU16(first, l3 + 10, Checksums.ipv4Header(first, l3));
        assertTrue(wrap(first));
        assertTrue(packet.isFirstFragment());

        quote.setSrcIpv4(packet, Ipv4.parse("10.0.0.5"), 5353);

        final byte[] message = new byte[messageLength];
        System.arraycopy(first, icmp, message, 0, firstPart);
        System.arraycopy(error, icmp + firstPart, message, firstPart, messageLength - firstPart);
        final int written = ((message[2] & 0xFF) << 8) | (message[3] & 0xFF);
        message[2] = 0;
        message[3] = 0;
        assertEquals(~Checksums.fold(Checksums.sum(message, 0, messageLength, 0)) & 0xFFFF, written,
            "the ICMP checksum covers the later fragment too, so only an incremental update is right");
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
