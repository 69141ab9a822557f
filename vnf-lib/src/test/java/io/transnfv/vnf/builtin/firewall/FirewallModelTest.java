package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_RST;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The firewall against a model that keys connections by their exact endpoints (strings, so
 * it cannot collide): on seeded random IPv4 and IPv6 traffic with ICMP errors, every verdict
 * agrees.
 */
class FirewallModelTest
{
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT_MS = 10_000;
    private static final String[][] INSIDE = {{"10.0.0.1", "10.0.0.2"}, {"fd00::1", "fd00::2"}};
    private static final String[][] OUTSIDE = {{"8.8.8.8", "1.1.1.1"}, {"2001:db8::1", "2001:db8::2"}};
    private static final int[] FLAGS = {TCP_SYN, TCP_ACK, TCP_ACK, TCP_ACK, TCP_FIN | TCP_ACK, TCP_RST};

    private record Sent(byte[] frame, String key, String source, int family)
    {
    }

    @Test
    void shouldAgreeWithAnExactModelOnRandomMixedTrafficForSeeds1To20()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            check(seed);
        }
    }

    private static void check(final long seed)
    {
        final Random random = new Random(seed);
        final VnfHarness fw = VnfHarness.of(new FirewallFactory(), Map.of(
            "internal_net", List.of("10.0.0.0/8", "fd00::/8"), "idle_timeout", "10s", "expiry_interval", "3s"));
        final Map<String, Long> lastSeenMs = new HashMap<>();
        final List<Sent> sent = new ArrayList<>();
        long nowMs = 1;
        int passedInbound = 0;
        int passedErrors = 0;
        for (int i = 0; i < 3_000; i++)
        {
            nowMs += random.nextInt(1_500);
            if (random.nextInt(8) == 0 && !sent.isEmpty())
            {
                final Sent quoted = sent.get(random.nextInt(sent.size()));
                final String router = quoted.family() == 0 ? "192.0.2.1" : "2001:db8:ffff::1";
                final byte[] error = Frames.icmpError(router, quoted.source(), quoted.family() == 0 ? 3 : 1, 1, quoted.frame());
                final boolean expected = live(lastSeenMs.get(quoted.key()), nowMs);
                final boolean passed = fw.offer(error, nowMs * MS).forwarded();
                assertEquals(expected, passed, () -> "seed " + seed + ": error about " + quoted.key());
                passedErrors += passed ? 1 : 0;
                continue;
            }
            final int family = random.nextInt(2);
            final String in = INSIDE[family][random.nextInt(2)];
            final String out = OUTSIDE[family][random.nextInt(2)];
            final int inPort = 1000 + random.nextInt(2);
            final int outPort = random.nextBoolean() ? 80 : 443;
            final boolean udp = random.nextInt(4) == 0;
            final int flags = FLAGS[random.nextInt(FLAGS.length)];
            final boolean outbound = random.nextBoolean();
            final String key = (udp ? "udp " : "tcp ") + in + "#" + inPort + " " + out + "#" + outPort;
            final byte[] frame = outbound
                ? (udp ? Frames.udp(in, inPort, out, outPort, 10) : Frames.tcp(in, inPort, out, outPort, flags, 10))
                : (udp ? Frames.udp(out, outPort, in, inPort, 10) : Frames.tcp(out, outPort, in, inPort, flags, 10));
            final boolean closing = !udp && (flags & (TCP_FIN | TCP_RST)) != 0;
            final boolean expected;
            if (outbound)
            {
                expected = true;
                lastSeenMs.put(key, closing ? null : nowMs);
            }
            else
            {
                expected = live(lastSeenMs.get(key), nowMs);
                lastSeenMs.put(key, expected && !closing ? Long.valueOf(nowMs) : null);
            }
            final boolean passed = fw.offer(frame, nowMs * MS).forwarded();
            final long atMs = nowMs;
            assertEquals(expected, passed, () -> "seed " + seed + " at " + atMs + " ms: " + (outbound ? "out " : "in ") + key);
            passedInbound += !outbound && passed ? 1 : 0;
            sent.add(new Sent(frame, key, outbound ? in : out, family));
        }
        final int inbound = passedInbound;
        final int errors = passedErrors;
        assertTrue(inbound > 50 && errors > 3,
            () -> "seed " + seed + ": the traffic exercised live connections: " + inbound + " inbound and " + errors + " errors passed");
    }

    private static boolean live(final Long lastSeenMs, final long nowMs)
    {
        return lastSeenMs != null && nowMs - lastSeenMs <= TIMEOUT_MS;
    }
}
