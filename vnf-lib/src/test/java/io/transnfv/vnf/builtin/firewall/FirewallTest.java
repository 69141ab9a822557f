package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.api.LiveChange;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FirewallTest
{
    private static final long S = 1_000_000_000L;

    private static byte[] inbound(final int flags)
    {
        return Frames.tcp("8.8.8.8", 80, "10.0.0.5", 4000, flags, 10);
    }

    private static byte[] outbound(final int flags)
    {
        return Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, flags, 10);
    }

    @Test
    void shouldTreatEveryListedPrefixAsInside()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of("internal_net", List.of("10.0.0.0/8", "172.16.0.0/12")));
        assertEquals("out", fw.offer(Frames.tcp("172.16.0.8", 5000, "8.8.8.8", 443, TCP_SYN, 0), S).output(),
            "a source in the second prefix is outbound");
        assertEquals("out", fw.offer(Frames.tcp("8.8.8.8", 443, "172.16.0.8", 5000, TCP_SYN | TCP_ACK, 0), 2 * S).output(),
            "and its connection lets the reply in");
        assertEquals("not-established", fw.offer(Frames.tcp("8.8.8.8", 443, "192.168.1.1", 5000, TCP_SYN, 0), 3 * S).dropReason());
    }

    @Test
    void shouldBlockInboundUntilAnOutboundPacketOpenedTheConnection()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of());
        assertEquals("not-established", fw.offer(inbound(TCP_SYN | TCP_ACK), S).dropReason());
        assertEquals("out", fw.offer(outbound(TCP_SYN), 2 * S).output());
        assertEquals("out", fw.offer(inbound(TCP_SYN | TCP_ACK), 3 * S).output());
        assertEquals(1, fw.size("connections"));

        assertTrue(fw.offer(outbound(TCP_FIN | TCP_ACK), 4 * S).forwarded());
        assertEquals("not-established", fw.offer(inbound(TCP_ACK), 5 * S).dropReason());
        assertEquals(2, fw.counter("not-established").get());
    }

    @Test
    void shouldBlockInboundAgainOnceTheConnectionIsIdle()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of("idle_timeout", "10s", "expiry_interval", "1h"));
        fw.offer(outbound(TCP_SYN), S);
        assertEquals("not-established", fw.offer(inbound(TCP_ACK), 20 * S).dropReason());
        assertEquals(0, fw.size("connections"));
    }

    @Test
    void shouldDropPacketsAnAclRuleDeniesWithoutTouchingState()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of("rules",
            List.of("deny tcp any any 23", "allow tcp any 10.0.0.0/8 22", "deny udp 10.0.0.0/24 any 1000-2000")));
        assertEquals("acl", fw.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 23, TCP_SYN, 0), S).dropReason());
        assertEquals("acl", fw.offer(Frames.udp("10.0.0.5", 4000, "8.8.8.8", 1500, 0), S).dropReason());
        assertEquals("out", fw.offer(Frames.udp("10.0.0.5", 4000, "8.8.8.8", 2001, 0), S).output());
        assertEquals("out", fw.offer(Frames.tcp("8.8.8.8", 5000, "10.0.0.5", 22, TCP_SYN, 0), S).output());
        assertEquals(1, fw.size("connections"));
        assertEquals(2, fw.counter("acl").get());
    }

    @Test
    void shouldDenyUnmatchedOutboundPacketsWhenTheDefaultIsDeny()
    {
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(),
            Map.of("default_action", "deny", "rules", List.of("allow tcp any any 443")));
        assertEquals("acl", fw.offer(outbound(TCP_SYN), S).dropReason());
        assertEquals("out", fw.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 443, TCP_SYN, 0), S).output());
        assertEquals("out", fw.offer(Frames.nonIp(), S).output());
    }

    @Test
    void shouldJudgePacketsByTheNewRulesOnlyOnceALiveChangeIsApplied()
    {
        final FirewallFactory factory = new FirewallFactory();
        final VnfConfig config = VnfConfig.defaults(factory.params());
        final Vnf vnf = factory.create(config);
        final VnfHarness fw = VnfHarness.of("fw", vnf);
        assertEquals("out", fw.offer(outbound(TCP_SYN), S).output());
        final LiveChange change = vnf.prepareChange(config.with(factory.params(),
            Map.of("rules", List.of("deny tcp any any"))));
        assertEquals("out", fw.offer(outbound(TCP_SYN), S).output(), "prepared, not applied: the old rules still hold");
        change.apply();
        assertEquals("acl", fw.offer(outbound(TCP_SYN), S).dropReason());
        final VnfConfigException bad = assertThrows(VnfConfigException.class,
            () -> vnf.prepareChange(config.with(factory.params(), Map.of("default_action", "reject"))));
        assertEquals("default_action", bad.param());
        assertEquals("acl", fw.offer(outbound(TCP_SYN), S).dropReason(), "a refused change changes nothing");
    }

    @Test
    void shouldRejectMalformedRulesNamingTheirIndexAndTheExpectedForm()
    {
        final VnfConfigException e = assertThrows(VnfConfigException.class, () -> VnfHarness.of(new FirewallFactory(),
            Map.of("rules", List.of("allow tcp any any", "permit tcp any any"))));
        assertEquals("rules", e.param());
        assertTrue(e.getMessage().contains("rules[1]"), e.getMessage());
        assertTrue(e.getMessage().contains(Acl.FORM), e.getMessage());
        for (final String bad : List.of("allow icmp any any 80", "deny tcp 10.0.0.0/33 any", "allow tcp any any 9-1",
            "allow tcp any any 70000", "allow gre any any", "allow"))
        {
            final VnfConfigException each = assertThrows(VnfConfigException.class,
                () -> VnfHarness.of(new FirewallFactory(), Map.of("rules", List.of(bad))), bad);
            assertTrue(each.getMessage().contains("rules[0]"), each.getMessage());
        }
        assertEquals("default_action", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new FirewallFactory(), Map.of("default_action", "reject"))).param());
        assertEquals("internal_net", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new FirewallFactory(), Map.of("internal_net", "10.0.0.1/8"))).param());
    }
}
