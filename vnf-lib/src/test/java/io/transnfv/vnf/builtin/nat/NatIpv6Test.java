package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.Outcome;
import io.transnfv.vnf.harness.VnfHarness;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NatIpv6Test
{
    private static final long S = 1_000_000_000L;
    private static final byte[] OUTBOUND_V6 = Frames.tcp("2001:db8:1::5", 4000, "2001:4860::8888", 443, TCP_SYN, 0);
    private static final byte[] INBOUND_V6 = Frames.udp("2001:4860::8888", 53, "2001:db8:1::5", 4000, 20);

    @Test
    void shouldPassIpv6UnchangedByDefaultAndCountIt()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of());
        final Outcome out = nat.offer(OUTBOUND_V6, S);
        assertTrue(out.forwarded());
        assertArrayEquals(OUTBOUND_V6, out.frame(), "not a byte changed");
        assertTrue(nat.offer(INBOUND_V6, S).forwarded());
        assertEquals(2, nat.counter("ipv6").get());
        assertEquals(0, nat.counter("passthrough").get(), "IPv6 is counted as itself, not as passthrough");
        assertEquals(0, nat.size("mappings"));
    }

    @Test
    void shouldDropIpv6WhenAskedToWithItsOwnReason()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("ipv6", "drop"));
        assertEquals("ipv6", nat.offer(OUTBOUND_V6, S).dropReason());
        assertEquals("ipv6", nat.offer(INBOUND_V6, S).dropReason());
        assertEquals("ipv6", nat.offer(Frames.icmpEcho("2001:db8:1::5", "2001:4860::8888"), S).dropReason());
        assertTrue(nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 0), S).forwarded(), "IPv4 is translated");
        assertEquals(3, nat.counter("ipv6").get());
        assertEquals(1, nat.size("mappings"));
    }

    @Test
    void shouldRefuseAnUnknownIpv6Mode()
    {
        final VnfConfigException e = assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new NatFactory(), Map.of("ipv6", "nat66")));
        assertEquals("ipv6", e.param());
        assertEquals("ipv6 'nat66' is not a mode: write pass or drop", e.getMessage());
    }
}
