package io.transnfv.vnf.builtin.lb;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.Ipv6;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadBalancerIcmpErrorTest
{
    private static final long S = 1_000_000_000L;
    private static final String CLIENT = "1.2.3.4";
    private static final String VIP = "100.0.0.1";
    private static final String ROUTER = "198.51.100.1";
    private static final String CLIENT6 = "2001:db8:c::7";
    private static final String VIP6 = "2001:db8:100::80";
    private static final String ROUTER6 = "2001:db8:ffff::1";

    private static PacketFlyweight parsed(final byte[] frame)
    {
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    /** A router on the client's path cannot forward the server's reply: fragmentation needed. */
    private static byte[] fragmentationNeeded(final int clientPort)
    {
        return Frames.icmpError(ROUTER, VIP, 3, 4, Frames.tcp(VIP, 80, CLIENT, clientPort, TCP_SYN | TCP_ACK, 0));
    }

    @Test
    void shouldSendAnErrorAboutAConnectionsReplyToTheConnectionsServer()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4));
        for (int port = 5000; port < 5003; port++)
        {
            lb.offer(Frames.tcp(CLIENT, port, VIP, 80, TCP_SYN, 0), S);
        }
        final String before = lb.dump();

        final byte[] error = fragmentationNeeded(5002);
        final Outcome outcome = lb.offer(error, 2 * S);
        assertTrue(outcome.forwarded(), outcome::toString);
        assertEquals(2L, outcome.tag("server"), "the server of connection 5002");
        final PacketFlyweight p = parsed(outcome.frame());
        assertEquals(Ipv4.parse("192.168.0.3"), p.dstIpv4(), "rewritten as the connection's packets are");
        assertEquals(Ipv4.parse(ROUTER), p.srcIpv4());
        assertEquals(Checksums.ipv4Header(p), p.getU16(p.l3Offset() + 10), "outer IPv4 header checksum");
        assertEquals(Checksums.icmpv4(p), p.getU16(p.l4Offset() + 2), "ICMP checksum");
        final PacketFlyweight original = parsed(error);
        assertArrayEquals(Arrays.copyOfRange(error, original.l4Offset(), error.length),
            Arrays.copyOfRange(outcome.frame(), p.l4Offset(), outcome.frame().length), "the ICMP message is untouched");

        assertEquals(before, lb.dump(), "an error opens, refreshes and counts nothing");
        assertEquals(1, lb.counter("errors-matched").get());
        assertEquals(3, lb.counter("new-connections").get());

        final Outcome udp = lb.offer(Frames.udp(CLIENT, 6000, VIP, 53, 20), 3 * S);
        final Outcome udpError = lb.offer(Frames.icmpError(ROUTER, VIP, 3, 1, Frames.udp(VIP, 53, CLIENT, 6000, 40)), 3 * S);
        assertEquals(udp.tag("server"), udpError.tag("server"), "UDP too");
    }

    @Test
    void shouldDropAnErrorAboutAConnectionItDoesNotKnowWithoutOpeningOne()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4));
        final String empty = lb.dump();
        assertEquals("no-connection", lb.offer(fragmentationNeeded(5000), S).dropReason());
        assertEquals(empty, lb.dump(), "no connection made, no server loaded");

        lb.offer(Frames.tcp(CLIENT, 5001, VIP, 80, TCP_SYN, 0), S);
        lb.offer(Frames.tcp(CLIENT, 5001, VIP, 80, TCP_FIN | TCP_ACK, 0), 2 * S);
        final String closed = lb.dump();
        assertEquals("no-connection", lb.offer(fragmentationNeeded(5001), 3 * S).dropReason(), "closed by its FIN");
        assertEquals(closed, lb.dump());

        lb.offer(Frames.tcp(CLIENT, 5002, VIP, 80, TCP_SYN, 0), 3 * S);
        assertEquals("no-connection", lb.offer(fragmentationNeeded(5002), 64 * S).dropReason(), "idle for more than 60 s");
        assertEquals(3, lb.counter("no-connection").get());
        assertEquals(0, lb.counter("errors-matched").get());
        assertEquals(0, lb.state("active", 0) + lb.state("active", 1) + lb.state("active", 2) + lb.state("active", 3));
    }

    @Test
    void shouldSendAnIpv6PacketTooBigToTheServerKeepingTheIcmpv6ChecksumRight()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4, "server_net_v6", "2001:db8:5::/64"));
        lb.offer(Frames.tcp(CLIENT6, 5000, VIP6, 443, TCP_SYN, 0), S);
        final Outcome connection = lb.offer(Frames.tcp(CLIENT6, 5001, VIP6, 443, TCP_SYN, 0), S);
        final byte[] reply = Frames.tcp(VIP6, 443, CLIENT6, 5001, TCP_ACK, 1200);
        final Outcome tooBig = lb.offer(Frames.icmpError(ROUTER6, VIP6, 2, 0, reply), 2 * S);
        assertTrue(tooBig.forwarded(), tooBig::toString);
        assertEquals(connection.tag("server"), tooBig.tag("server"));
        final PacketFlyweight p = parsed(tooBig.frame());
        assertEquals(Ipv6.parse("2001:db8:5::")[0], p.dstIpv6High());
        assertEquals(connection.tag("server") + 1, p.dstIpv6Low());
        assertEquals(Checksums.transport(p), p.getU16(p.l4Offset() + 2), "the ICMPv6 checksum covers the new destination");

        final byte[] stranger = Frames.tcp(VIP6, 443, CLIENT6, 5999, TCP_ACK, 0);
        assertEquals("no-connection", lb.offer(Frames.icmpError(ROUTER6, VIP6, 1, 4, stranger), 2 * S).dropReason());
    }

    @Test
    void shouldPassErrorsThatAreNotAboutAPacketFromABalancedAddress()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4, "vip", VIP));
        lb.offer(Frames.tcp(CLIENT, 5000, VIP, 80, TCP_SYN, 0), S);
        final String state = lb.dump();

        final Outcome toClient = lb.offer(Frames.icmpError(ROUTER, CLIENT, 3, 1, Frames.tcp(CLIENT, 5000, VIP, 80, TCP_ACK, 0)), S);
        assertTrue(toClient.forwarded());
        assertNull(toClient.tag("server"), "about the client's own packet, for the client");
        final Outcome otherAddress = lb.offer(Frames.icmpError(ROUTER, "100.0.0.2", 3, 4,
            Frames.tcp("100.0.0.2", 80, CLIENT, 5000, TCP_ACK, 0)), S);
        assertNull(otherAddress.tag("server"), "not the VIP");
        final Outcome echoQuote = lb.offer(Frames.icmpError(ROUTER, VIP, 3, 1, Frames.icmpEcho(VIP, CLIENT)), S);
        assertNull(echoQuote.tag("server"), "the load balancer balances TCP and UDP only");
        final Outcome v6 = lb.offer(Frames.icmpError(ROUTER6, VIP6, 2, 0, Frames.tcp(VIP6, 80, CLIENT6, 5000, TCP_ACK, 0)), S);
        assertNull(v6.tag("server"), "an IPv4 VIP balances no IPv6");
        assertEquals(4, lb.counter("passthrough").get());
        assertEquals(state, lb.dump());
    }
}
