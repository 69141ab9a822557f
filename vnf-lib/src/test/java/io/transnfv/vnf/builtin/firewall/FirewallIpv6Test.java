package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.TraceFrames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.Ipv6;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_RST;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FirewallIpv6Test
{
    private static final long S = 1_000_000_000L;
    private static final String INSIDE = "2001:db8:1::5";
    private static final String SERVER = "2001:4860::8888";
    private static final Map<String, Object> DUAL_STACK = Map.of("internal_net", List.of("10.0.0.0/8", "2001:db8:1::/48"));

    private static byte[] inbound(final int flags)
    {
        return Frames.tcp(SERVER, 443, INSIDE, 4000, flags, 10);
    }

    private static byte[] outbound(final int flags)
    {
        return Frames.tcp(INSIDE, 4000, SERVER, 443, flags, 10);
    }

    @Test
    void shouldBlockInboundIpv6UntilAnOutboundPacketOpenedTheConnection()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), DUAL_STACK);
        assertEquals("not-established", fw.offer(inbound(TCP_SYN | TCP_ACK), S).dropReason(),
            "IPv6 no longer passes unexamined");
        assertEquals("out", fw.offer(outbound(TCP_SYN), 2 * S).output());
        assertEquals("out", fw.offer(inbound(TCP_SYN | TCP_ACK), 3 * S).output());
        assertEquals(1, fw.size("connections-v6"));
        assertEquals(0, fw.size("connections"), "IPv6 connections never share the IPv4 table");

        assertTrue(fw.offer(outbound(TCP_FIN | TCP_ACK), 4 * S).forwarded());
        assertEquals("not-established", fw.offer(inbound(TCP_ACK), 5 * S).dropReason());
        assertEquals(0, fw.counter("passthrough").get(), "no IP packet passes unexamined");
    }

    @Test
    void shouldTreatIpv6SourcesOutsideEveryIpv6PrefixAsInbound()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of("internal_net", List.of("10.0.0.0/8")));
        assertEquals("not-established", fw.offer(outbound(TCP_SYN), S).dropReason(),
            "with no IPv6 prefix inside, every IPv6 source is outside");
        assertEquals("not-established", fw.offer(inbound(TCP_SYN | TCP_ACK), 2 * S).dropReason());
    }

    @Test
    void shouldTreatUniqueLocalAddressesAsInsideByDefault()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of());
        assertEquals("out", fw.offer(Frames.tcp("fd12:3456::7", 5000, SERVER, 443, TCP_SYN, 0), S).output());
        assertEquals("out", fw.offer(Frames.tcp(SERVER, 443, "fd12:3456::7", 5000, TCP_SYN | TCP_ACK, 0), 2 * S).output());
    }

    @Test
    void shouldExpireIdleIpv6ConnectionsAndTheirEndpoints()
    {
        final Map<String, Object> params = Map.of("internal_net", List.of("2001:db8:1::/48"), "idle_timeout", "10s",
            "expiry_interval", "1s");
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), params);
        fw.offer(outbound(TCP_SYN), S);
        assertEquals(1, fw.size("v6-a-low"));
        fw.advanceTo(30 * S);
        assertEquals(0, fw.size("connections-v6"));
        assertEquals(0, fw.size("v6-a-low"), "the sweep clears the stored endpoints with the stamp");
        assertEquals("not-established", fw.offer(inbound(TCP_ACK), 31 * S).dropReason());
    }

    @Test
    void shouldClearTheEndpointsOfAClosedIpv6ConnectionAtTheNextSweep()
    {
        final Map<String, Object> params = Map.of("internal_net", List.of("2001:db8:1::/48"), "expiry_interval", "1s");
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), params);
        fw.offer(outbound(TCP_SYN), S);
        fw.offer(outbound(TCP_RST), S + 1);
        assertEquals(0, fw.size("connections-v6"));
        assertEquals(1, fw.size("v6-ports"), "closed, its endpoints wait for the sweep");
        fw.advanceTo(3 * S);
        assertEquals(0, fw.size("v6-ports"));
        assertEquals(0, fw.size("v6-a-high") + fw.size("v6-a-low") + fw.size("v6-b-high") + fw.size("v6-b-low"));
        assertEquals(0, fw.counter("expired").get(), "a closed connection does not count as expired");
    }

    @Test
    void shouldApplyIpv6RulesToIpv6PacketsAndIpv4RulesToIpv4Packets()
    {
        final Map<String, Object> params = Map.of("internal_net", List.of("10.0.0.0/8", "2001:db8:1::/48"), "rules", List.of(
            "deny tcp 2001:db8:1::/48 any 23",
            "deny tcp 10.0.0.0/8 any 25",
            "deny udp any any 9",
            "allow tcp any 2001:db8:1::5 22",
            "deny icmpv6 2001:db8:bad::/48 any"));
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), params);
        assertEquals("acl", fw.offer(Frames.tcp(INSIDE, 4000, SERVER, 23, TCP_SYN, 0), S).dropReason());
        assertEquals("out", fw.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 23, TCP_SYN, 0), S).output(),
            "an IPv6 rule does not match IPv4");
        assertEquals("acl", fw.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 25, TCP_SYN, 0), S).dropReason());
        assertEquals("out", fw.offer(Frames.tcp(INSIDE, 4000, SERVER, 25, TCP_SYN, 0), S).output(),
            "an IPv4 rule does not match IPv6");
        assertEquals("acl", fw.offer(Frames.udp(INSIDE, 4000, SERVER, 9, 0), S).dropReason(), "any/any matches IPv6");
        assertEquals("acl", fw.offer(Frames.udp("10.0.0.5", 4000, "8.8.8.8", 9, 0), S).dropReason(), "and IPv4");
        assertEquals("out", fw.offer(Frames.tcp(SERVER, 5000, INSIDE, 22, TCP_SYN, 0), S).output(),
            "an IPv6 allow rule lets an inbound packet in");
        assertEquals("not-established", fw.offer(Frames.tcp(SERVER, 5000, "2001:db8:1::6", 22, TCP_SYN, 0), S).dropReason(),
            "a /128 in a rule is that one host");
        assertEquals("acl", fw.offer(Frames.icmpEcho("2001:db8:bad::1", INSIDE), S).dropReason());
        assertEquals(5, fw.counter("acl").get());
    }

    @Test
    void shouldRefuseRulesThatMixIpVersions()
    {
        final VnfConfigException mixed = assertThrows(VnfConfigException.class, () -> VnfHarness.of(new FirewallFactory(),
            Map.of("rules", List.of("deny tcp 10.0.0.0/8 2001:db8::/32"))));
        assertEquals("rules", mixed.param());
        assertTrue(mixed.getMessage().contains("rules[0] 'deny tcp 10.0.0.0/8 2001:db8::/32': source 10.0.0.0/8 and "
            + "destination 2001:db8::/32 are of different IP versions"), mixed.getMessage());

        final VnfConfigException icmp = assertThrows(VnfConfigException.class, () -> VnfHarness.of(new FirewallFactory(),
            Map.of("rules", List.of("deny icmp 2001:db8::/32 any"))));
        assertTrue(icmp.getMessage().contains("protocol icmp never occurs with IPv6 addresses; write icmpv6"), icmp.getMessage());

        final VnfConfigException hostBits = assertThrows(VnfConfigException.class, () -> VnfHarness.of(new FirewallFactory(),
            Map.of("internal_net", List.of("2001:db8:1::/32"))));
        assertEquals("internal_net", hostBits.param());
        assertTrue(hostBits.getMessage().contains("has host bits set; did you mean 2001:db8::/32?"), hostBits.getMessage());
    }

    @Test
    void shouldDropAnIpv6PacketWhoseKeyCollidesWithALiveConnectionAndLeaveTheConnectionAlone()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), DUAL_STACK);
        assertEquals("out", fw.offer(outbound(TCP_SYN), S).output());
        final PacketFlyweight victim = new PacketFlyweight();
        final byte[] victimFrame = outbound(TCP_ACK);
        final long target = FlowKeys.biflow(victim.wrap(victimFrame, 0, victimFrame.length));

        // an outsider owning 2001:db8::/64 solves for the low half of an address whose key equals the victim's
        final long attackerHigh = Ipv6.parse("2001:db8::")[0];
        final long[] inside = Ipv6.parse(INSIDE);
        final int attackerPort = 40000;
        final int insidePort = 22;
        final String attacker = Ipv6.format(attackerHigh,
            solveLowHalf(target, attackerHigh, attackerPort, inside[0], inside[1], insidePort));
        final byte[] forged = Frames.tcp(attacker, attackerPort, INSIDE, insidePort, TCP_ACK, 10);
        assertEquals(target, FlowKeys.biflow(new PacketFlyweight().wrap(forged, 0, forged.length)),
            "precondition: the forged packet's bi-flow key is the live connection's");

        assertEquals("not-established", fw.offer(forged, 2 * S).dropReason(), "a colliding key does not let a stranger in");
        assertEquals("not-established", fw.offer(Frames.tcp(attacker, attackerPort, INSIDE, insidePort, TCP_RST, 0), 3 * S)
            .dropReason());
        assertEquals("out", fw.offer(inbound(TCP_SYN | TCP_ACK), 4 * S).output(),
            "the forged RST did not close the real connection");
    }

    @Test
    void shouldPassAnInboundIcmpErrorAboutALiveConnectionQuotingEitherDirection()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), DUAL_STACK);
        final byte[] tooBig = Frames.icmpError("2001:db8:ffff::1", INSIDE, 2, 0, outbound(TCP_ACK));
        final byte[] aboutReply = Frames.icmpError("2001:db8:ffff::1", SERVER, 1, 4, inbound(TCP_ACK));
        final byte[] unreachable = Frames.icmpError("192.0.2.1", "10.0.0.5", 3, 1,
            Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0));
        assertEquals("not-established", fw.offer(tooBig, S).dropReason(), "no connection yet");
        assertEquals("not-established", fw.offer(unreachable, S).dropReason());

        fw.offer(outbound(TCP_SYN), 2 * S);
        fw.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0), 2 * S);
        assertEquals("out", fw.offer(tooBig, 3 * S).output(), "packet too big about our own packet");
        assertEquals("out", fw.offer(aboutReply, 3 * S).output(),
            "an error quoting the connection's other direction is about the same connection");
        assertEquals("out", fw.offer(unreachable, 3 * S).output(), "ICMP errors are matched for IPv4 too");
        assertEquals(3, fw.counter("related").get());

        final byte[] otherFlow = Frames.icmpError("192.0.2.1", "10.0.0.5", 3, 1,
            Frames.tcp("10.0.0.5", 4001, "8.8.8.8", 80, TCP_SYN, 0));
        assertEquals("not-established", fw.offer(otherFlow, 3 * S).dropReason(), "an error about another flow");

        fw.offer(outbound(TCP_RST), 4 * S);
        assertEquals("not-established", fw.offer(tooBig, 5 * S).dropReason(), "the connection is closed");
    }

    @Test
    void shouldNeitherOpenNorRefreshAConnectionWithAnIcmpError()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of("internal_net", List.of("10.0.0.0/8"),
            "idle_timeout", "10s", "expiry_interval", "1h"));
        final byte[] syn = Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0);
        final byte[] error = Frames.icmpError("192.0.2.1", "10.0.0.5", 11, 0, syn);
        fw.offer(syn, S);
        assertEquals("out", fw.offer(error, 8 * S).output());
        assertEquals("not-established", fw.offer(error, 12 * S).dropReason(),
            "the error at 8 s did not refresh the connection opened at 1 s");
        assertEquals("out", fw.offer(Frames.icmpError("10.0.0.5", "8.8.8.8", 3, 3,
            Frames.udp("8.8.8.8", 53, "10.0.0.5", 5353, 0)), 13 * S).output(), "an outbound error passes");
        assertEquals(1, fw.size("connections"), "the SYN's connection; the errors opened none");
    }

    @Test
    void shouldLetNeighbourDiscoveryFromTheLinkIn()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), DUAL_STACK);
        final byte[] solicitation = Frames.icmpEcho("fe80::1", INSIDE);
        solicitation[14 + 40] = (byte)135;
        solicitation[14 + 7] = (byte)255;
        assertEquals("out", fw.offer(solicitation, S).output());
        solicitation[14 + 7] = (byte)64;
        assertFalse(fw.offer(solicitation, S).forwarded(), "a hop limit below 255 did not come from the link");
    }

    @Test
    void shouldPassTheIpv6CaptureOnlyWhereItsHostIsInside()
    {
        final List<TraceFrames.Frame> trace = TraceFrames.read("/traces/http_ipv6.pcap");
        assertEquals(193, trace.size());
        final VnfHarness inside = VnfHarness.of(new FirewallFactory(), Map.of("internal_net", List.of("2a00:d40:1:3::/64")));
        final VnfHarness outside = VnfHarness.of(new FirewallFactory(), Map.of("internal_net", List.of("10.0.0.0/8")));
        int insideDrops = 0;
        int outsideDrops = 0;
        for (final TraceFrames.Frame frame : trace)
        {
            insideDrops += inside.offer(frame.bytes(), frame.timestampNs()).dropped() ? 1 : 0;
            outsideDrops += outside.offer(frame.bytes(), frame.timestampNs()).dropped() ? 1 : 0;
        }
        // every flow starts outbound; 3 inbound packets arrive after their connection was closed by a FIN or RST
        assertEquals(3, insideDrops);
        assertEquals(193, outsideDrops, "with its host outside, no packet of the capture is let through");
    }

    private static long solveLowHalf(
        final long target, final long attackerHigh, final int attackerPort, final long insideHigh, final long insideLow,
        final int insidePort)
    {
        // FlowKeys.biflowIpv6 with the attacker's endpoint first (it sorts lower):
        // target = mix(h ^ ports), h = mix(mix(mix(mix(SEED ^ ah) ^ al) ^ ih) ^ il)
        final long seed = 0xC2B2AE3D27D4EB4FL;
        final long ports = ((long)attackerPort << 24) | ((long)insidePort << 8) | PacketFlyweight.PROTO_TCP;
        final long h = unmix64(target) ^ ports;
        final long z = unmix64(unmix64(h) ^ insideLow) ^ insideHigh;
        return unmix64(z) ^ FlowKeys.mix64(seed ^ attackerHigh);
    }

    private static long unmix64(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 33)) * inverse(0xC4CEB9FE1A85EC53L);
        z = (z ^ (z >>> 33)) * inverse(0xFF51AFD7ED558CCDL);
        return z ^ (z >>> 33);
    }

    private static long inverse(final long odd)
    {
        long x = odd;
        for (int i = 0; i < 6; i++)
        {
            x *= 2 - odd * x;
        }
        return x;
    }
}
