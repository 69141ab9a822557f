package io.transnfv.vnf.builtin.lb;

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
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_FIN;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadBalancerTest
{
    private static final long S = 1_000_000_000L;

    private static byte[] syn(final int clientPort)
    {
        return Frames.tcp("1.2.3.4", clientPort, "100.0.0.1", 80, TCP_SYN, 0);
    }

    private static byte[] data(final int clientPort, final int payload)
    {
        return Frames.tcp("1.2.3.4", clientPort, "100.0.0.1", 80, TCP_ACK, payload);
    }

    private static long server(final Outcome outcome)
    {
        return outcome.tag("server");
    }

    @Test
    void shouldSendNewConnectionsToTheLeastLoadedServerWithTiesToTheLowestIndex()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4));
        for (int i = 0; i < 8; i++)
        {
            final Outcome o = lb.offer(syn(5000 + i), S);
            assertEquals(i % 4, server(o));
            final byte[] frame = o.frame();
            assertEquals(Ipv4.parse("192.168.0.1") + i % 4, new PacketFlyweight().wrap(frame, 0, frame.length).dstIpv4());
        }
        for (int s = 0; s < 4; s++)
        {
            assertEquals(2, lb.state("active", s));
        }
    }

    @Test
    void shouldKeepEstablishedPacketsOnTheirServerTouchingOnlyPerFlowTables()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 4));
        final byte[] first = syn(5000);
        final long chosen = server(lb.offer(first, S));
        lb.offer(syn(5001), S);
        final long[] active = new long[4];
        for (int s = 0; s < 4; s++)
        {
            active[s] = lb.state("active", s);
        }

        for (int i = 0; i < 5; i++)
        {
            assertEquals(chosen, server(lb.offer(data(5000, 100), 2 * S)));
        }

        for (int s = 0; s < 4; s++)
        {
            assertEquals(active[s], lb.state("active", s));
        }
        assertEquals(0, lb.size("bytes"));
        assertEquals(2, lb.size("connection-bytes"));
    }

    @Test
    void shouldDecrementTheServerAndAccountBytesOnFin()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2));
        final byte[] synFrame = syn(5000);
        final byte[] dataFrame = data(5000, 100);
        final byte[] finFrame = Frames.tcp("1.2.3.4", 5000, "100.0.0.1", 80, TCP_FIN | TCP_ACK, 0);
        final long s = server(lb.offer(synFrame, S));
        lb.offer(dataFrame, 2 * S);
        assertEquals(s, server(lb.offer(finFrame, 3 * S)));

        assertEquals(0, lb.state("active", s));
        assertEquals(synFrame.length + dataFrame.length + finFrame.length, lb.state("bytes", s));
        assertEquals(0, lb.size("connections"));
        assertEquals(0, lb.size("connection-bytes"));
        assertEquals(1, lb.counter("closed-connections").get());
    }

    @Test
    void shouldReleaseIdleConnectionsAtTheExpirySweep()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2, "idle_timeout", "5s"));
        final byte[] synFrame = syn(5000);
        final long s = server(lb.offer(synFrame, S));
        assertEquals(1, lb.state("active", s));

        lb.advanceTo(10 * S);

        assertEquals(0, lb.state("active", s));
        assertEquals(synFrame.length, lb.state("bytes", s));
        assertEquals(0, lb.size("connections"));
        assertEquals(1, lb.counter("expired").get());
    }

    @Test
    void shouldReplaceAnIdleConnectionFoundBeforeTheSweepAsTheSweepWould()
    {
        final Map<String, Object> params = Map.of("servers", 2, "idle_timeout", "5s", "expiry_interval", "1h");
        final VnfHarness lazy = VnfHarness.of(new LoadBalancerFactory(), params);
        final VnfHarness swept = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 2, "idle_timeout", "5s"));
        for (final VnfHarness lb : new VnfHarness[] {lazy, swept})
        {
            lb.offer(syn(5000), S);
            lb.offer(data(5000, 100), 2 * S);
            lb.offer(syn(5000), 20 * S);
        }
        assertEquals(swept.dump(), lazy.dump());
    }

    @Test
    void shouldForwardMidConnectionPacketsStatelesslyAsUntracked()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 8));
        final long first = server(lb.offer(data(7000, 10), S));
        assertEquals(first, server(lb.offer(data(7000, 10), 2 * S)));
        assertEquals(2, lb.counter("untracked").get());
        assertEquals("", lb.dump());
    }

    @Test
    void shouldPassPacketsNotForTheVip()
    {
        final VnfHarness lb = VnfHarness.of(new LoadBalancerFactory(), Map.of("vip", "100.0.0.9"));
        final Outcome o = lb.offer(syn(5000), S);
        assertEquals(null, o.tag("server"));
        assertEquals(1, lb.counter("passthrough").get());
    }

    @Test
    void shouldSampleDDistinctCandidatesPerFlow()
    {
        final CandidateSampler sampler = new CandidateSampler(64, 5);
        final Set<Integer> seen = new HashSet<>();
        for (long key = 0; key < 1000; key++)
        {
            final int[] candidates = sampler.candidates(key * 0x9E3779B97F4A7C15L);
            final Set<Integer> distinct = new HashSet<>();
            for (int i = 0; i < sampler.count(); i++)
            {
                assertTrue(candidates[i] >= 0 && candidates[i] < 64);
                distinct.add(candidates[i]);
                seen.add(candidates[i]);
            }
            assertEquals(5, distinct.size());
        }
        assertEquals(64, seen.size());
        final CandidateSampler small = new CandidateSampler(6, 5);
        for (long key = 0; key < 100; key++)
        {
            final Set<Integer> distinct = new HashSet<>();
            for (int i = 0; i < 5; i++)
            {
                distinct.add(small.candidate(key, i));
            }
            assertEquals(5, distinct.size());
        }
    }

    @Test
    void shouldRejectBadParametersNamingTheParameter()
    {
        assertEquals("server_net", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("server_net", "192.168.0.0/40"))).param());
        assertEquals("servers", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("servers", 300, "server_net", "10.0.0.0/24"))).param());
        assertEquals("vip", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("vip", "everything"))).param());
        assertEquals("candidates", assertThrows(VnfConfigException.class,
            () -> VnfHarness.of(new LoadBalancerFactory(), Map.of("candidates", 65))).param());
    }
}
