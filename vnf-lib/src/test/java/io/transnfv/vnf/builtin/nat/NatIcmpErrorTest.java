package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NatIcmpErrorTest
{
    private static final long S = 1_000_000_000L;
    private static final String EXTERNAL = "203.0.113.1";

    private static PacketFlyweight parse(final byte[] frame)
    {
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    /** The quoted IP header and 8 transport bytes of an error, and the same bytes of the packet it should quote. */
    private static void assertQuotes(final byte[] error, final byte[] original)
    {
        final PacketFlyweight e = parse(error);
        final PacketFlyweight o = parse(original);
        final int length = o.l4Offset() + 8 - o.l3Offset();
        assertArrayEquals(Arrays.copyOfRange(original, o.l3Offset(), o.l3Offset() + length),
            Arrays.copyOfRange(error, e.payloadOffset(), e.payloadOffset() + length),
            "the quote, checksums included, is the packet as the host saw it");
        assertEquals(Checksums.ipv4Header(e), e.getU16(e.l3Offset() + 10), "outer IPv4 header checksum");
        assertEquals(Checksums.icmpv4(e), e.getU16(e.l4Offset() + 2), "ICMP checksum over the rewritten quote");
    }

    @Test
    void shouldTranslateAnInboundErrorAboutATranslatedFlowBackToTheInternalHost()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final byte[] query = Frames.udp("10.0.0.5", 5353, "8.8.8.8", 53, 30);
        final byte[] translated = nat.offer(query, S).frame();
        final int port = parse(translated).srcPort();

        final Outcome error = nat.offer(Frames.icmpError("8.8.8.8", EXTERNAL, 3, 3, translated), 2 * S);
        assertTrue(error.forwarded());
        final PacketFlyweight p = parse(error.frame());
        assertEquals(Ipv4.parse("10.0.0.5"), p.dstIpv4(), "the error goes to the host whose packet it quotes");
        assertQuotes(error.frame(), query);

        final byte[] tcpOut = nat.offer(Frames.tcp("10.0.0.6", 4000, "8.8.8.8", 80, TCP_SYN, 0), 3 * S).frame();
        final Outcome tooBig = nat.offer(Frames.icmpError("192.0.2.1", EXTERNAL, 3, 4, tcpOut), 4 * S);
        assertEquals(Ipv4.parse("10.0.0.6"), parse(tooBig.frame()).dstIpv4(), "TCP too");
        assertQuotes(tooBig.frame(), Frames.tcp("10.0.0.6", 4000, "8.8.8.8", 80, TCP_SYN, 0));
        assertEquals(2, nat.counter("inbound").get());
        assertTrue(port >= 1024);
    }

    @Test
    void shouldDropAnInboundErrorAboutAPortNobodyOwns()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final byte[] stray = Frames.udp(EXTERNAL, 2000, "8.8.8.8", 53, 0);
        assertEquals("no-mapping", nat.offer(Frames.icmpError("8.8.8.8", EXTERNAL, 3, 3, stray), S).dropReason());
        final byte[] tcpOwned = nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0), S).frame();
        final PacketFlyweight owned = parse(tcpOwned);
        final byte[] udpSamePort = Frames.udp(EXTERNAL, owned.srcPort(), "8.8.8.8", 80, 0);
        assertEquals("no-mapping", nat.offer(Frames.icmpError("8.8.8.8", EXTERNAL, 3, 3, udpSamePort), S).dropReason(),
            "the port is owned by a TCP endpoint, the quote is UDP");
    }

    @Test
    void shouldTranslateAnOutboundErrorAboutAnInboundPacketOfAMappedEndpoint()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final int port = parse(nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0), S).frame()).srcPort();
        final byte[] reply = Frames.tcp("8.8.8.8", 80, EXTERNAL, port, TCP_SYN | TCP_ACK, 0);
        final byte[] delivered = nat.offer(reply, 2 * S).frame();
        assertEquals(Ipv4.parse("10.0.0.5"), parse(delivered).dstIpv4());

        final Outcome error = nat.offer(Frames.icmpError("10.0.0.5", "8.8.8.8", 3, 3, delivered), 3 * S);
        assertTrue(error.forwarded());
        assertEquals(Ipv4.parse(EXTERNAL), parse(error.frame()).srcIpv4(), "no internal address leaves");
        assertQuotes(error.frame(), reply);

        final Outcome unmapped = nat.offer(Frames.icmpError("10.0.0.5", "8.8.8.8", 3, 3,
            Frames.tcp("8.8.8.8", 80, "10.0.0.5", 4999, TCP_ACK, 0)), 3 * S);
        assertEquals(Ipv4.parse("10.0.0.5"), parse(unmapped.frame()).srcIpv4(), "an error about no mapping passes as before");
    }
}
