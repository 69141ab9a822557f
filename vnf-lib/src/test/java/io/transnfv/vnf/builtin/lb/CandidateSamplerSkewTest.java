package io.transnfv.vnf.builtin.lb;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CandidateSamplerSkewTest
{
    @Test
    void shouldFavourLowServerIndicesUnderZipfSkewAndStayDistinct()
    {
        final CandidateSampler uniform = new CandidateSampler(7200, 5, 0.0);
        final CandidateSampler skewed = new CandidateSampler(7200, 5, 1.0);
        long uniformLow = 0;
        long skewedLow = 0;
        final int[] out = new int[5];
        for (long key = 0; key < 20_000; key++)
        {
            uniform.fill(key * 0x9E3779B97F4A7C15L, out);
            uniformLow += countBelow(out, 72);
            skewed.fill(key * 0x9E3779B97F4A7C15L, out);
            skewedLow += countBelow(out, 72);
            final Set<Integer> distinct = new HashSet<>();
            for (final int s : out)
            {
                assertTrue(s >= 0 && s < 7200);
                distinct.add(s);
            }
            assertEquals(5, distinct.size(), "candidates of key " + key + " are distinct");
        }
        assertTrue(skewedLow > 5 * uniformLow, "the lowest 1 % of servers: skewed " + skewedLow + ", uniform " + uniformLow);
    }

    @Test
    void shouldBalanceOverMoreThanSixtyFiveThousandServers()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(),
            Map.of("servers", 72_000, "server_net", "10.0.0.0/8", "candidates", 5, "candidate_skew", 0.2));
        for (int i = 0; i < 200; i++)
        {
            final var outcome = lb.offer(Frames.tcp("172.16.0." + (i % 250 + 1), 10_000 + i, "198.51.100.10", 80,
                PacketFlyweight.TCP_SYN, 0), 1_000_000_000L + i);
            final long server = outcome.tags().get("server");
            assertTrue(server >= 0 && server < 72_000, "server " + server);
        }
    }

    private static int countBelow(final int[] servers, final int limit)
    {
        int n = 0;
        for (final int s : servers)
        {
            if (s < limit)
            {
                n++;
            }
        }
        return n;
    }
}
