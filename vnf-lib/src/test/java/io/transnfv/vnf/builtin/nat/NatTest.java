package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Checksums;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NatTest
{
    private static final long S = 1_000_000_000L;
    private static final String EXTERNAL = "203.0.113.1";

    private static PacketFlyweight parse(final Outcome outcome)
    {
        final byte[] frame = outcome.frame();
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    private static void assertChecksumsValid(final PacketFlyweight p)
    {
        assertEquals(Checksums.ipv4Header(p), p.getU16(p.l3Offset() + 10), "IPv4 header checksum");
        final int at = p.l4Offset() + Checksums.checksumFieldOffset(p.ipProtocol());
        assertEquals(Checksums.transport(p), p.getU16(at), "transport checksum");
    }

    @Test
    void shouldTranslateOutboundAndReverseTranslateInboundWithValidChecksums()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final Outcome out = nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 10), S);
        assertEquals("out", out.output());
        final PacketFlyweight translated = parse(out);
        assertEquals(Ipv4.parse(EXTERNAL), translated.srcIpv4());
        final int port = translated.srcPort();
        assertTrue(port >= 1024 && port < 1024 + 4096, "port from the pool: " + port);
        assertChecksumsValid(translated);
        assertEquals(FlowKeys.endpoint(Ipv4.parse("10.0.0.5"), 4000, 6), nat.state("ports", port));
        assertEquals(1, nat.size("mappings"));

        final Outcome back = nat.offer(Frames.tcp("8.8.8.8", 80, EXTERNAL, port, TCP_SYN | TCP_ACK, 20), 2 * S);
        assertEquals("out", back.output());
        final PacketFlyweight restored = parse(back);
        assertEquals(Ipv4.parse("10.0.0.5"), restored.dstIpv4());
        assertEquals(4000, restored.dstPort());
        assertChecksumsValid(restored);
        assertEquals(2, nat.state("packets", 0));
    }

    @Test
    void shouldTranslateUdpDatagrams()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final PacketFlyweight p = parse(nat.offer(Frames.udp("10.1.2.3", 53000, "9.9.9.9", 53, 30), S));
        assertEquals(Ipv4.parse(EXTERNAL), p.srcIpv4());
        assertChecksumsValid(p);
    }

    @Test
    void shouldDropThirdEndpointAsPoolExhaustedWithoutChangingState()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("pool_size", 2));
        assertTrue(nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_SYN, 0), S).forwarded());
        assertTrue(nat.offer(Frames.tcp("10.0.0.2", 1000, "8.8.8.8", 80, TCP_SYN, 0), S).forwarded());
        final String before = nat.dump();

        final Outcome third = nat.offer(Frames.tcp("10.0.0.3", 1000, "8.8.8.8", 80, TCP_SYN, 0), S);

        assertEquals("pool-exhausted", third.dropReason());
        assertTrue(third.aborted());
        assertEquals(Nat.POOL_EXHAUSTED, third.abortReason());
        assertEquals(before, nat.dump());
        assertEquals(1, nat.counter("pool-exhausted").get());
    }

    @Test
    void shouldGiveTheSameEndpointTheSamePortForEveryDestination()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final int first = parse(nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0), S)).srcPort();
        final int second = parse(nat.offer(Frames.tcp("10.0.0.5", 4000, "1.1.1.1", 443, TCP_SYN, 0), 2 * S)).srcPort();
        final int data = parse(nat.offer(Frames.tcp("10.0.0.5", 4000, "1.1.1.1", 443, TCP_ACK, 100), 3 * S)).srcPort();
        assertEquals(first, second);
        assertEquals(first, data);
        assertEquals(1, nat.size("ports"));
    }

    @Test
    void shouldReuseThePortForAnotherEndpointAfterFin()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("pool_size", 1));
        final int port = parse(nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_SYN, 0), S)).srcPort();
        assertEquals("pool-exhausted", nat.offer(Frames.tcp("10.0.0.2", 1000, "8.8.8.8", 80, TCP_SYN, 0), S).dropReason());

        final Outcome fin = nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_FIN | TCP_ACK, 0), 2 * S);
        assertEquals(port, parse(fin).srcPort());
        assertEquals(0, nat.size("mappings"));
        assertEquals(-1, nat.state("ports", port));

        assertEquals(port, parse(nat.offer(Frames.tcp("10.0.0.2", 1000, "8.8.8.8", 80, TCP_SYN, 0), 3 * S)).srcPort());
    }

    @Test
    void shouldFreeThePortOfAnIdleMappingAtTheExpirySweep()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("pool_size", 1, "idle_timeout", "10s"));
        final int port = parse(nat.offer(Frames.udp("10.0.0.1", 1000, "8.8.8.8", 53, 0), S)).srcPort();
        assertEquals("pool-exhausted", nat.offer(Frames.udp("10.0.0.2", 1000, "8.8.8.8", 53, 0), 5 * S).dropReason());

        nat.advanceTo(12 * S);
        assertEquals(0, nat.size("mappings"));
        assertEquals(0, nat.size("ports"));
        assertEquals(1, nat.counter("expired").get());
        assertEquals(port, parse(nat.offer(Frames.udp("10.0.0.2", 1000, "8.8.8.8", 53, 0), 12 * S)).srcPort());
    }

    @Test
    void shouldTreatAnIdleMappingAsAbsentBeforeTheSweepRan()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("idle_timeout", "10s", "expiry_interval", "1h"));
        nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_SYN, 0), S);
        final Outcome late = nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 10), 20 * S);
        assertEquals("no-mapping", late.dropReason());

        final Outcome fin = nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_FIN, 0), 21 * S);
        assertEquals("no-mapping", fin.dropReason());
        assertEquals(0, nat.size("mappings"));
        assertEquals(0, nat.size("ports"));
    }

    @Test
    void shouldDropUnsolicitedInboundAndPassOtherTrafficUntouched()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        assertEquals("no-mapping", nat.offer(Frames.tcp("8.8.8.8", 80, EXTERNAL, 2000, TCP_SYN, 0), S).dropReason());
        assertEquals("no-mapping", nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 0), S).dropReason());
        final byte[] icmp = Frames.icmpEcho("10.0.0.1", "8.8.8.8");
        final Outcome pass = nat.offer(icmp, S);
        assertEquals("out", pass.output());
        assertTrue(Arrays.equals(icmp, pass.frame()));
        assertEquals(1, nat.counter("passthrough").get());
        assertEquals("", nat.dump());
    }

    @Test
    void shouldDropInboundWhosePortIsMappedForAnotherProtocol()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final int port = parse(nat.offer(Frames.udp("10.0.0.1", 1000, "8.8.8.8", 53, 0), S)).srcPort();
        assertEquals("no-mapping", nat.offer(Frames.tcp("8.8.8.8", 53, EXTERNAL, port, TCP_ACK, 0), S).dropReason());
        assertNull(nat.offer(Frames.udp("8.8.8.8", 53, EXTERNAL, port, 0), S).dropReason());
    }

    @Test
    void shouldRejectBadParametersNamingTheParameter()
    {
        final VnfConfigException cidr = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("internal_net", "10.0.0.0/33")));
        assertEquals("internal_net", cidr.param());
        assertEquals("pool_size", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("pool_size", 0))).param());
        assertEquals("pool_size", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("port_base", 60000, "pool_size", 10000))).param());
        assertEquals("external_ip", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ip", "10.0.0.1"))).param());
        assertFalse(cidr.getMessage().isEmpty());
    }
}
