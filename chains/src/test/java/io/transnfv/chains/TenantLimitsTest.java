package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.vnf.harness.Frames;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tenant over its rate and its state limit drops exactly the packets a model predicts from
 * packet time and its own packets alone, on the serial oracle and on the engine at 1 and 2
 * threads with any batch size. The model is written apart from the code it checks: the rate as
 * a classic token bucket (credit in nanoseconds, refilled by elapsed packet time, capped at
 * {@code burst} tokens; the limiter keeps the equivalent theoretical arrival time), the state as
 * the capacity rule of docs/tenants.md (a table at its capacity at a check is closed to new
 * entries until a later check finds it under; a tenant's checks fall before its first packet at
 * or after each multiple of its VNF's expiry period, and before every 1,024th packet of its own).
 * Two tenants with different periods and limits share the trace; each one's verdicts are
 * predicted from its own packets only, so what the other sends cannot move them.
 */
class TenantLimitsTest
{
    private static final long START_NS = 1_700_000_000_000_000_000L;
    /**
     * Tenant b's monitor expires every 4 ms; a's every 10 ms (the chain ticks every 2 ms) or, for
     * one seed in four, every second, longer than the trace: then only a's own packets place its checks.
     */
    private static final long TICK_B_NS = 4_000_000L;
    /** Packets of a tenant between two of its checks: an eighth of an entries limit under 8,192 is below the least, 1,024. */
    private static final int CHECK_EVERY = 1024;

    @TempDir
    Path directory;

    @TestFactory
    Stream<DynamicTest> shouldDropExactlyWhatTheTokenBucketAndTheCapacityPredict()
    {
        return LongStream.range(0, 12).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    private void check(final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long pps = 200 + random.nextInt(20_000);
        final long burst = 1 + random.nextInt(20);
        final int entriesA = 2 + random.nextInt(40);
        final int entriesB = 2 + random.nextInt(40);
        // every other seed sends more than 1,024 packets of a tenant, so its checks by packet count come too
        final boolean countChecksOnly = seed % 4 == 1;
        final int packets = seed % 2 == 0 ? 200 + random.nextInt(700) : countChecksOnly ? 3_600 + random.nextInt(1_000) : 2_200 + random.nextInt(1_500);
        final long spanNs = 20_000_000L + random.nextInt(200_000_000);
        // a's share of the trace varies by seed, and the other tenant's traffic must not move a's verdicts; when
        // a's checks come only by its packet count, b sends more and reaches its own 1,024th packet long before a
        final double shareOfA = countChecksOnly ? 0.4 : 0.5 + random.nextDouble() * 0.4;
        final long tickANs = countChecksOnly ? 1_000_000_000L : 10_000_000L;

        final List<TenantRuns.Packet> trace = new ArrayList<>();
        final List<Boolean> ofA = new ArrayList<>();
        final List<Long> timesA = new ArrayList<>();
        final List<Integer> flowsA = new ArrayList<>();
        final List<Long> timesB = new ArrayList<>();
        final List<Integer> flowsB = new ArrayList<>();
        final long[] times = new long[packets];
        for (int i = 0; i < packets; i++)
        {
            times[i] = START_NS + (long)(random.nextDouble() * spanNs);
        }
        Arrays.sort(times);
        int newFlowsA = 0;
        for (int i = 0; i < packets; i++)
        {
            final boolean a = random.nextDouble() < shareOfA;
            final int flow;
            if (a)
            {
                flow = newFlowsA == 0 || random.nextInt(3) == 0 ? newFlowsA++ : random.nextInt(newFlowsA);
                timesA.add(times[i]);
                flowsA.add(flow);
            }
            else
            {
                flow = random.nextInt(80);
                timesB.add(times[i]);
                flowsB.add(flow);
            }
            ofA.add(a);
            trace.add(new TenantRuns.Packet(times[i], Frames.tcp(a ? "10.0.0.7" : "10.0.1.7", 1000 + flow, "172.16.0.1", 80,
                flow == 0 && a ? TCP_SYN : TCP_ACK, 0)));
        }
        final String verdictsA = predict(timesA, flowsA, pps, burst, entriesA, tickANs);
        final String verdictsB = predict(timesB, flowsB, 0, 0, entriesB, TICK_B_NS);
        assertTrue(verdictsA.contains("R") || verdictsA.contains("S"), "the seed puts the tenant over a limit: " + verdictsA);
        final StringBuilder merged = new StringBuilder();
        int nextA = 0;
        int nextB = 0;
        for (final boolean a : ofA)
        {
            merged.append(a ? verdictsA.charAt(nextA++) : verdictsB.charAt(nextB++));
        }
        final String expected = merged.toString();

        final String monitor = "chain: { vnfs: [ { name: m, type: flow-monitor, params: { idle_timeout: 60s, host_idle_timeout: 0s,"
            + " expiry_interval: %s } } ] }";
        final String yaml = "name: limits\ntenants:\n"
            + "  - name: a\n    match: { src_net: 10.0.0.0/24 }\n    " + monitor.formatted(tickANs / 1_000_000 + "ms") + "\n    limits: { pps: " + pps + ", burst: "
            + burst + ", entries: " + entriesA + " }\n"
            + "  - name: b\n    match: { src_net: 10.0.1.0/24 }\n    " + monitor.formatted("4ms") + "\n    limits: { entries: " + entriesB
            + " }\n";
        final Path file = TenantRuns.pcap(directory, trace);
        final String describe = "seed " + seed + ": a's period " + tickANs + " ns, pps " + pps + ", burst " + burst + ", entries " + entriesA + " and " + entriesB + ", "
            + timesA.size() + " packets of a, " + timesB.size() + " of b";
        final ChainSpec serial = TenantRuns.chain(yaml, file, 64, 1_000_000_000L, 1);
        final ChainRuntime runtime = new ChainRuntime(serial);
        for (int tenant = 0; tenant < 2; tenant++)
        {
            assertEquals(CHECK_EVERY, runtime.capacities().checkEveryPackets(tenant), "the model's check period");
        }
        assertEquals(expected, verdicts(TenantRuns.run(new SerialChainExecutor(serial), serial), ofA), describe + ", serial oracle");
        for (final int threads : new int[] {1, 2})
        {
            for (final int batch : new int[] {1, 16, 256})
            {
                final ChainSpec chain = TenantRuns.chain(yaml, file, batch, 1_000_000_000L, threads);
                final String strategy = TpgBatchExecutor.strategyNames().get(random.nextInt(TpgBatchExecutor.strategyNames().size()));
                assertEquals(expected, verdicts(TenantRuns.run(new BatchedChainExecutor(chain, n -> TpgBatchExecutor.create(n, strategy), strategy),
                    chain), ofA), describe + ", " + threads + " threads, batches of " + batch + ", " + strategy);
            }
        }
    }

    /**
     * One tenant's verdicts from its own packets alone.
     *
     * @param pps     the tenant's rate limit, 0 for none.
     * @param tickNs  its flow monitor's expiry period.
     * @return per packet of the tenant: P (passed), R (dropped as rate-limit) or S (dropped as state-full).
     */
    private static String predict(final List<Long> times, final List<Integer> flowOf, final long pps, final long burst, final int entries,
        final long tickNs)
    {
        final long tokenNs = pps == 0 ? 0 : 1_000_000_000L / pps;
        final long capNs = burst * tokenNs;
        long creditNs = capNs;
        long lastNs = times.isEmpty() ? 0 : times.get(0);
        boolean closed = false;
        final Set<Integer> flows = new HashSet<>();
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < times.size(); i++)
        {
            final long now = times.get(i);
            // a check before this packet: a multiple of the period since the tenant's packet before, or its 1,024th, 2,048th, ... packet
            final boolean tick = i > 0 && Math.floorDiv(now, tickNs) > Math.floorDiv(lastNs, tickNs);
            if (tick || (i + 1) % CHECK_EVERY == 0)
            {
                closed = flows.size() >= entries;
            }
            if (pps > 0)
            {
                creditNs = Math.min(capNs, creditNs + (now - lastNs));
            }
            lastNs = now;
            if (pps > 0 && creditNs < tokenNs)
            {
                out.append('R');
                continue;
            }
            creditNs -= tokenNs;
            final int flow = flowOf.get(i);
            if (!flows.contains(flow) && closed)
            {
                out.append('S');
                continue;
            }
            flows.add(flow);
            out.append('P');
        }
        return out.toString();
    }

    private static String verdicts(final TenantRuns.Run run, final List<Boolean> ofA)
    {
        final StringBuilder out = new StringBuilder();
        for (long i = 0; i < ofA.size(); i++)
        {
            final String record = run.outputs().get(i);
            final String tenant = ofA.get((int)i) ? "a" : "b";
            out.append(record.contains(" DROP " + tenant + ":rate-limit ") ? 'R' : record.contains(" DROP " + tenant + "-m:state-full ") ? 'S'
                : record.contains(" FORWARD ") ? 'P' : '?');
        }
        return out.toString();
    }
}
