package io.transnfv.vnf.builtin.trojan;

import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.Ipv4;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TrojanDetectorTest
{
    private static final long S = 1_000_000_000L;

    private static List<String> connect(final VnfHarness td, final String host, final int port, final long timeNs)
    {
        return td.offer(Frames.tcp(host, 40000 + port % 1000, "198.51.100.7", port, TCP_SYN, 0), timeNs).alerts();
    }

    private static String alertFor(final String host)
    {
        return "trojan:" + (Ipv4.parse(host) & 0xFFFF_FFFFL);
    }

    @Test
    void shouldAlertOnceWhenThePatternHappensInOrderWithinTheWindow()
    {
        final VnfHarness td = VnfHarness.of(new TrojanDetectorFactory(), Map.of());
        assertEquals(List.of(), connect(td, "10.0.0.1", 22, S));
        td.offer(Frames.tcp("10.0.0.1", 40022, "198.51.100.7", 22, TCP_ACK, 500), 2 * S);
        assertEquals(List.of(), connect(td, "10.0.0.1", 21, 3 * S));
        assertEquals(List.of(alertFor("10.0.0.1")), connect(td, "10.0.0.1", 6667, 4 * S));
        assertEquals(List.of(), connect(td, "10.0.0.1", 6667, 5 * S));
        assertEquals(1, td.counter("alerts").get());
        assertEquals(0, td.size("progress"));
    }

    @Test
    void shouldNotAlertWhenEventsComeOutOfOrder()
    {
        final VnfHarness td = VnfHarness.of(new TrojanDetectorFactory(), Map.of());
        assertEquals(List.of(), connect(td, "10.0.0.1", 21, S));
        assertEquals(List.of(), connect(td, "10.0.0.1", 22, 2 * S));
        assertEquals(List.of(), connect(td, "10.0.0.1", 6667, 3 * S));
        assertEquals(0, td.counter("alerts").get());
    }

    @Test
    void shouldNotAlertWhenThePatternTakesLongerThanTheWindow()
    {
        final VnfHarness td = VnfHarness.of(new TrojanDetectorFactory(), Map.of("window", "60s"));
        connect(td, "10.0.0.1", 22, S);
        connect(td, "10.0.0.1", 21, 10 * S);
        assertEquals(List.of(), connect(td, "10.0.0.1", 6667, 100 * S));
        assertEquals(0, td.size("progress"));
    }

    @Test
    void shouldTrackEachSourceHostIndependently()
    {
        final VnfHarness td = VnfHarness.of(new TrojanDetectorFactory(), Map.of());
        connect(td, "10.0.0.1", 22, S);
        connect(td, "10.0.0.2", 21, S);
        connect(td, "10.0.0.1", 21, 2 * S);
        assertEquals(List.of(), connect(td, "10.0.0.2", 6667, 3 * S));
        assertEquals(List.of(alertFor("10.0.0.1")), connect(td, "10.0.0.1", 6667, 4 * S));
    }

    @Test
    void shouldCountUdpDatagramsAsEventsAndIgnoreOtherPackets()
    {
        final VnfHarness td = VnfHarness.of(new TrojanDetectorFactory(), Map.of("pattern", List.of(53, 6667)));
        td.offer(Frames.udp("10.0.0.1", 5353, "9.9.9.9", 53, 20), S);
        td.offer(Frames.tcp("10.0.0.1", 5000, "9.9.9.9", 443, TCP_SYN, 0), S);
        assertEquals(List.of(alertFor("10.0.0.1")),
            td.offer(Frames.udp("10.0.0.1", 5353, "9.9.9.9", 6667, 20), 2 * S).alerts());
        assertEquals(2, td.counter("events").get());
    }

    @Test
    void shouldRejectBadParametersNamingTheParameter()
    {
        assertEquals("pattern", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new TrojanDetectorFactory(), Map.of("pattern", List.of()))).param());
        assertEquals("pattern", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new TrojanDetectorFactory(), Map.of("pattern", List.of(22, 70000)))).param());
        assertEquals("window", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new TrojanDetectorFactory(), Map.of("window", "soon"))).param());
    }
}
