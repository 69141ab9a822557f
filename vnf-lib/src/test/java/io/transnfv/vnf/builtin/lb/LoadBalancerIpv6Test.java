package io.transnfv.vnf.builtin.lb;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.Ipv6;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadBalancerIpv6Test
{
    private static final long S = 1_000_000_000L;
    private static final String CLIENT = "2001:db8:c::7";
    private static final String VIP = "2001:db8:100::80";

    private static byte[] tcp(final int clientPort, final int flags, final int payload)
    {
        return Frames.tcp(CLIENT, clientPort, VIP, 80, flags, payload);
    }

    private static PacketFlyweight parsed(final Outcome outcome)
    {
        final byte[] frame = outcome.frame();
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    @Test
    void shouldBalanceIpv6ConnectionsAndRewriteTheDestinationToTheServersIpv6Address()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4, "server_net_v6", "2001:db8:5::/64"));
        final long network = Ipv6.parse("2001:db8:5::")[0];
        for (int i = 0; i < 8; i++)
        {
            final Outcome o = lb.offer(tcp(5000 + i, TCP_SYN, 0), S);
            assertEquals(i % 4, o.tag("server"), "least loaded, ties to the lowest index, as for IPv4");
            final PacketFlyweight p = parsed(o);
            assertEquals(network, p.dstIpv6High());
            assertEquals(i % 4 + 1, p.dstIpv6Low());
            assertEquals(Checksums.transport(p), p.getU16(p.l4Offset() + 16), "the TCP checksum follows the rewrite");
        }
        for (int s = 0; s < 4; s++)
        {
            assertEquals(2, lb.state("active", s));
        }
        final Outcome later = lb.offer(tcp(5002, TCP_ACK, 100), 2 * S);
        assertEquals(2, later.tag("server"), "later packets follow their connection");
        lb.offer(tcp(5002, TCP_FIN | TCP_ACK, 0), 3 * S);
        assertEquals(1, lb.state("active", 2));
    }

    @Test
    void shouldBalanceIpv4AndIpv6ConnectionsOverTheSameServerLoads()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2));
        assertEquals(0, lb.offer(Frames.tcp("1.2.3.4", 5000, "100.0.0.1", 80, TCP_SYN, 0), S).tag("server"));
        final Outcome v6 = lb.offer(tcp(5000, TCP_SYN, 0), S);
        assertEquals(1, v6.tag("server"), "server 0 already holds the IPv4 connection");
        assertEquals(Ipv6.parse("fd00:0:0:1::2")[1], parsed(v6).dstIpv6Low(), "the default server_net_v6");
        final Outcome udp = lb.offer(Frames.udp(CLIENT, 6000, VIP, 53, 20), S);
        final PacketFlyweight p = parsed(udp);
        assertEquals(Checksums.transport(p), p.getU16(p.l4Offset() + 6), "the UDP checksum follows the rewrite");
    }

    @Test
    void shouldBalanceOnlyTheFamilyOfAnIpv6Vip()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2, "vip", VIP));
        assertEquals(0, lb.offer(tcp(5000, TCP_SYN, 0), S).tag("server"));
        assertNull(lb.offer(Frames.tcp(CLIENT, 5000, "2001:db8:100::81", 80, TCP_SYN, 0), S).tag("server"),
            "another IPv6 destination passes");
        assertNull(lb.offer(Frames.tcp("1.2.3.4", 5000, "100.0.0.1", 80, TCP_SYN, 0), S).tag("server"),
            "IPv4 passes when the vip is IPv6");
        assertEquals(2, lb.counter("passthrough").get());

        final VnfHarness v4 = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2, "vip", "100.0.0.1"));
        assertNull(v4.offer(tcp(5000, TCP_SYN, 0), S).tag("server"), "IPv6 passes when the vip is IPv4");
        assertEquals(0, v4.offer(Frames.tcp("1.2.3.4", 5000, "100.0.0.1", 80, TCP_SYN, 0), S).tag("server"));
    }

    @Test
    void shouldRefuseABadIpv6ServerPrefixOrVip()
    {
        final VnfConfigException prefix = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("server_net_v6", "fd00::1/64")));
        assertEquals("server_net_v6", prefix.param());
        assertTrue(prefix.getMessage().contains("has host bits set"), prefix.getMessage());
        final VnfConfigException small = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 8, "server_net_v6", "fd00::/126")));
        assertEquals("servers", small.param());
        final VnfConfigException vip = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("vip", "2001:db8::g")));
        assertTrue(vip.getMessage().endsWith("write an IPv4 or IPv6 address, or any"), vip.getMessage());
    }
}
