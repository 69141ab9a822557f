package io.transnfv.chains;

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
 * packet time alone, on the serial oracle and on the engine at 1 and 2 threads with any batch
 * size. The model is written apart from the code it checks: the rate as a classic token bucket
 * (credit in nanoseconds, refilled by elapsed packet time, capped at {@code burst} tokens; the
 * limiter keeps the equivalent theoretical arrival time), the state as the capacity rule of
 * docs/chain-yaml.md (a table at its capacity at a check is closed to new entries until a later
 * check finds it under; checks fall before the first packet at or after each multiple of the
 * chain's expiry interval). A neighbour tenant without limits sends its own flows in between
 * and loses nothing.
 */
class TenantLimitsTest
{
    private static final long START_NS = 1_700_000_000_000_000_000L;
    private static final long TICK_NS = 10_000_000L;

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
        final int entries = 2 + random.nextInt(40);
        // fewer than 1024 packets: the capacity checks that fall every so many packets (at least 1024) never come
        final int packets = 200 + random.nextInt(700);
        final long spanNs = 20_000_000L + random.nextInt(200_000_000);

        final List<TenantRuns.Packet> trace = new ArrayList<>();
        final List<Boolean> ofA = new ArrayList<>();
        final List<Integer> flowOfA = new ArrayList<>();
        final long[] times = new long[packets];
        for (int i = 0; i < packets; i++)
        {
            times[i] = START_NS + (long)(random.nextDouble() * spanNs);
        }
        Arrays.sort(times);
        int flowsOfA = 0;
        for (int i = 0; i < packets; i++)
        {
            final boolean a = random.nextInt(3) != 0;
            final int flow;
            if (a)
            {
                flow = flowsOfA == 0 || random.nextInt(3) == 0 ? flowsOfA++ : random.nextInt(flowsOfA);
                flowOfA.add(flow);
            }
            else
            {
                flow = random.nextInt(50);
                flowOfA.add(-1);
            }
            ofA.add(a);
            trace.add(new TenantRuns.Packet(times[i], Frames.tcp(a ? "10.0.0.7" : "10.0.1.7", 1000 + flow, "172.16.0.1", 80,
                flow == 0 && a ? TCP_SYN : TCP_ACK, 0)));
        }
        final String expected = predict(times, ofA, flowOfA, pps, burst, entries);
        assertTrue(expected.contains("R") || expected.contains("S"), "the seed puts the tenant over a limit: " + expected);

        final String monitor = "chain: { vnfs: [ { name: m, type: flow-monitor, params: { idle_timeout: 60s, host_idle_timeout: 0s,"
            + " expiry_interval: 10ms } } ] }";
        final String yaml = "name: limits\ntenants:\n"
            + "  - name: a\n    match: { src_net: 10.0.0.0/24 }\n    " + monitor + "\n    limits: { pps: " + pps + ", burst: " + burst
            + ", entries: " + entries + " }\n"
            + "  - name: b\n    match: { src_net: 10.0.1.0/24 }\n    " + monitor + "\n";
        final Path file = TenantRuns.pcap(directory, trace);
        final String describe = "seed " + seed + ": pps " + pps + ", burst " + burst + ", entries " + entries;
        final ChainSpec serial = TenantRuns.chain(yaml, file, 64, 1_000_000_000L, 1);
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
     * @return per packet: for tenant a, P (passed), R (dropped as a:rate-limit) or S (dropped as
     *         a-m:state-full); for tenant b, P.
     */
    private static String predict(final long[] times, final List<Boolean> ofA, final List<Integer> flowOfA, final long pps, final long burst,
        final int entries)
    {
        final long tokenNs = 1_000_000_000L / pps;
        final long capNs = burst * tokenNs;
        long creditNs = capNs;
        long lastNs = times[0];
        long nextTickNs = Math.floorDiv(times[0], TICK_NS) * TICK_NS + TICK_NS;
        boolean closed = false;
        final Set<Integer> flows = new HashSet<>();
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < times.length; i++)
        {
            final long now = times[i];
            if (now >= nextTickNs)
            {
                closed = flows.size() >= entries;
                nextTickNs = Math.floorDiv(now, TICK_NS) * TICK_NS + TICK_NS;
            }
            if (!ofA.get(i))
            {
                out.append('P');
                continue;
            }
            creditNs = Math.min(capNs, creditNs + (now - lastNs));
            lastNs = now;
            if (creditNs < tokenNs)
            {
                out.append('R');
                continue;
            }
            creditNs -= tokenNs;
            final int flow = flowOfA.get(i);
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
            out.append(record.contains(" DROP a:rate-limit ") ? 'R' : record.contains(" DROP a-m:state-full ") ? 'S'
                : record.contains(" FORWARD ") ? 'P' : '?');
        }
        return out.toString();
    }
}
