package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A pool of several external addresses ({@code external_ips}): addresses × ports slots. */
class NatAddressPoolTest
{
    private static final long S = 1_000_000_000L;

    private static PacketFlyweight parse(final Outcome outcome)
    {
        final byte[] frame = outcome.frame();
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    @Test
    void shouldGiveEveryEndpointItsOwnAddressAndPortUntilAddressesTimesPortsAreTaken()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(),
            Map.of("external_ips", "203.0.113.4/30", "pool_size", 2, "probes", 8));
        final Set<String> slots = new HashSet<>();
        for (int host = 1; host <= 8; host++)
        {
            final Outcome out = nat.offer(Frames.tcp("10.0.0." + host, 1000, "8.8.8.8", 80, TCP_SYN, 0), S);
            assertTrue(out.forwarded(), "endpoint " + host + " of 8 fits 4 addresses x 2 ports: " + out);
            final PacketFlyweight p = parse(out);
            final int address = p.srcIpv4();
            assertTrue(Integer.toUnsignedLong(address - Ipv4.parse("203.0.113.4")) < 4, Ipv4.format(address));
            assertTrue(slots.add(Ipv4.format(address) + ":" + p.srcPort()), "slot given twice: " + slots);

            final Outcome back = nat.offer(Frames.tcp("8.8.8.8", 80, Ipv4.format(address), p.srcPort(),
                TCP_SYN | TCP_ACK, 0), S);
            assertEquals(Ipv4.parse("10.0.0." + host), parse(back).dstIpv4(), "inbound to the mapped address");
        }
        assertEquals("pool-exhausted",
            nat.offer(Frames.tcp("10.0.0.9", 1000, "8.8.8.8", 80, TCP_SYN, 0), S).dropReason());
    }

    @Test
    void shouldDropInboundToAnotherAddressesSamePortAsNoMapping()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("external_ips", "203.0.113.4/31", "pool_size", 1));
        final PacketFlyweight p = parse(nat.offer(Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_SYN, 0), S));
        final int other = p.srcIpv4() ^ 1;
        final Outcome wrong = nat.offer(Frames.tcp("8.8.8.8", 80, Ipv4.format(other), p.srcPort(), TCP_ACK, 0), S);
        assertEquals("no-mapping", wrong.dropReason());
    }

    @Test
    void shouldRejectPrefixesTooLargeOverlappingOrNamedTwice()
    {
        final VnfConfigException large = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ips", "198.51.100.0/23")));
        assertEquals("external_ips", large.param());
        assertTrue(large.getMessage().contains("512 addresses"), large.getMessage());
        assertEquals("external_ips", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ips", "10.1.0.0/24"))).param());
        assertEquals("external_ips", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ips", "0.0.0.0/0"))).param());
        assertEquals("external_ips", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ips", "203.0.113.0/28", "external_ip", "198.51.100.1")))
            .param());
        assertEquals("external_ips", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("external_ips", "203.0.113.1/28"))).param());
    }
}
