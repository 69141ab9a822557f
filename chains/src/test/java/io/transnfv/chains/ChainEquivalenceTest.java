package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.ForwardingPacketSource;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The acceptance test of the transactional core: random chains of built-in VNFs on random
 * traffic (skew from uniform to one hot host, abort-heavy tiny NAT pools, timestamps that
 * go backwards, idle expiry), random punctuation from 1 to 10,000 transactions, 1 to 8
 * executor threads and any of the 14 scheduling strategies, the monitor's host counters
 * sometimes commutative: the engine's per-packet records and final state must equal the serial
 * oracle's. The default suite checks {@code transnfv.property.seeds} seeds (200); the
 * {@code stress} profile 5,000 more.
 */
class ChainEquivalenceTest
{
    private static final VnfRegistry REGISTRY = VnfRegistry.load();
    private static final List<String> BUILT_IN =
        List.of("nat", "load-balancer", "trojan-detector", "firewall", "port-scan-detector", "flow-monitor");
    private static final int[] THREADS = {1, 2, 4, 8};
    private static final int[] BATCHES = {1, 2, 7, 64, 256, 1024, 10_000};

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnRandomChains()
    {
        final int seeds = Integer.getInteger("transnfv.property.seeds", 200);
        return LongStream.range(0, seeds).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    @Tag("stress")
    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnManyMoreRandomChains()
    {
        final int seeds = Integer.getInteger("transnfv.property.seeds", 5000);
        return LongStream.range(1_000_000, 1_000_000 + seeds)
            .mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    private static void check(final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ChainSpec chain = randomChain(random);
        final double jitter = random.nextInt(3) == 0 ? 0.2 : 0.0;
        final long jitterSeed = random.nextLong();
        final List<String> strategies = TpgBatchExecutor.strategyNames();
        final String strategy = strategies.get(random.nextInt(strategies.size()));
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> new JitteredSource(PacketSources.open(chain.settings().traffic()), jitter, jitterSeed),
            spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, strategy), strategy));
        assertTrue(result.equivalent(), () -> "seed " + seed + " (rerun with -Dtest=ChainEquivalenceTest): strategy "
            + strategy + " " + describe(chain) + "\n  first diverging packet #" + result.divergingSequence()
            + "\n    oracle: " + result.oracleRecord() + "\n    engine: " + result.candidateRecord()
            + "\n  state: " + result.stateDifference());
        assertTrue(result.checkersHeld(), () -> "seed " + seed + ": strategy " + strategy + " " + describe(chain)
            + "\n  checkers violated: oracle " + result.oracleCheckers() + ", engine " + result.candidateCheckers());
        assertEquals(result.oracleCheckers().checks(), result.candidateCheckers().checks(),
            "the engine checks at the same punctuations as the oracle");
    }

    static ChainSpec randomChain(final SplittableRandom random)
    {
        final List<String> types = BUILT_IN;
        final int length = 1 + random.nextInt(4);
        final List<VnfNode> nodes = new ArrayList<>();
        final List<EdgeSpec> edges = new ArrayList<>();
        for (int i = 0; i < length; i++)
        {
            final String type = types.get(random.nextInt(types.size()));
            final VnfFactory factory = REGISTRY.find(type);
            final Map<String, Object> params = params(type, random);
            nodes.add(new VnfNode("v" + i + "-" + type, factory, VnfConfig.of(factory.params(), params), Map.of(), Map.of(), Map.of(),
                commutative(type, params, random)));
            if (i > 0)
            {
                final String from = nodes.get(random.nextInt(i)).name();
                if (random.nextBoolean())
                {
                    edges.add(new EdgeSpec(from, "out", p -> p.ipProtocol() == PacketFlyweight.PROTO_TCP, "proto: tcp",
                        nodes.get(i).name()));
                }
                else
                {
                    edges.add(new EdgeSpec(from, "out", EdgeSpec.ALWAYS, "", nodes.get(i).name()));
                }
            }
        }
        final GeneratorConfig.Builder traffic = GeneratorConfig.builder();
        traffic.set("packets", Integer.toString(200 + random.nextInt(2500)));
        traffic.set("flows", Integer.toString(1 + random.nextInt(2000)));
        traffic.set("new_conn_ratio", Double.toString(0.05 + random.nextDouble() * 0.55));
        traffic.set("tcp_ratio", Double.toString(random.nextDouble()));
        traffic.set("hosts", Integer.toString(1 + random.nextInt(500)));
        traffic.set("servers", Integer.toString(1 + random.nextInt(64)));
        traffic.set("host_skew", Double.toString(random.nextInt(4) == 0 ? 3.0 : random.nextDouble() * 1.5));
        traffic.set("server_skew", Double.toString(random.nextDouble() * 1.5));
        traffic.set("rate_pps", Integer.toString(random.nextBoolean() ? 100 + random.nextInt(1000) : 1_000_000));
        traffic.set("seed", Long.toString(random.nextLong() & Long.MAX_VALUE));
        final int batch = BATCHES[random.nextInt(BATCHES.length)];
        final long intervalNs = random.nextBoolean() ? 1_000_000_000L : 1_000L + random.nextInt(50_000_000);
        final RunSettings settings = new RunSettings(batch, intervalNs, THREADS[random.nextInt(THREADS.length)],
            TrafficSpec.generate(traffic.build()), null).withCheckers(randomCheckers(random));
        return new ChainSpec("random", "", nodes, edges, settings);
    }

    /** The monitor's host counters, without host expiry, are commutative (ADDs) in half the chains, one or both. */
    private static Set<String> commutative(final String type, final Map<String, Object> params, final SplittableRandom random)
    {
        if (!type.equals("flow-monitor") || !"0s".equals(params.get("host_idle_timeout")))
        {
            return Set.of();
        }
        return switch (random.nextInt(4))
        {
            case 0 -> Set.of("host-packets", "host-bytes");
            case 1 -> Set.of("host-bytes");
            default -> Set.of();
        };
    }

    /** The state checkers on the final state only, every few batches, or every so much packet time. */
    private static CheckerSettings randomCheckers(final SplittableRandom random)
    {
        return switch (random.nextInt(3))
        {
            case 0 -> CheckerSettings.defaults();
            case 1 -> new CheckerSettings(null, 0, 1 + random.nextInt(8));
            default -> new CheckerSettings(null, 1_000_000L + random.nextInt(500_000_000), 0);
        };
    }

    private static Map<String, Object> params(final String type, final SplittableRandom random)
    {
        final Map<String, Object> p = new LinkedHashMap<>();
        final String idle = (1 + random.nextInt(5)) + "s";
        final String tick = (100 + random.nextInt(900)) + "ms";
        switch (type)
        {
            case "nat" ->
            {
                p.put("pool_size", random.nextBoolean() ? 1 + random.nextInt(16) : 64 + random.nextInt(4000));
                p.put("probes", 1 + random.nextInt(8));
                switch (random.nextInt(3))
                {
                    case 0 -> p.put("external_ip", random.nextBoolean() ? "172.16.0.1" : "203.0.113.1");
                    // several addresses: the servers 172.16.0.1-3 are external, so inbound packets hit them
                    case 1 -> p.put("external_ips", random.nextBoolean() ? "172.16.0.0/30" : "203.0.113.0/29");
                    default -> p.put("external_ips", "203.0.113.7/32");
                }
                p.put("idle_timeout", idle);
                p.put("expiry_interval", tick);
            }
            case "load-balancer" ->
            {
                p.put("servers", 1 + random.nextInt(100));
                p.put("candidates", random.nextInt(9));
                p.put("idle_timeout", idle);
                p.put("expiry_interval", tick);
            }
            case "firewall" ->
            {
                p.put("internal_net", random.nextBoolean() ? "10.0.0.0/8" : "10.0.0.0/25");
                p.put("rules", random.nextBoolean() ? List.of() : List.of("deny tcp any any 22", "allow udp any any 53"));
                p.put("idle_timeout", idle);
                p.put("expiry_interval", tick);
            }
            case "port-scan-detector" ->
            {
                p.put("threshold", 1 + random.nextInt(30));
                p.put("window", idle);
                p.put("expiry_interval", tick);
            }
            case "trojan-detector" ->
            {
                p.put("window", idle);
                p.put("expiry_interval", tick);
            }
            case "flow-monitor" ->
            {
                p.put("idle_timeout", idle);
                p.put("expiry_interval", tick);
                // hosts kept for the run, or ending when idle (a host's counters then restart)
                p.put("host_idle_timeout", random.nextBoolean() ? "0s" : (1 + random.nextInt(3)) + "s");
            }
            default ->
            {
            }
        }
        return p;
    }

    static String describe(final ChainSpec chain)
    {
        final StringBuilder out = new StringBuilder("chain");
        for (final VnfNode node : chain.vnfs())
        {
            out.append(' ').append(node.name()).append(node.config().asMap());
            if (!node.commutative().isEmpty())
            {
                out.append(" commutative ").append(node.commutative());
            }
        }
        for (final EdgeSpec edge : chain.edges())
        {
            out.append(' ').append(edge.from()).append("->").append(edge.to()).append(edge.whenText().isEmpty() ? "" : "[tcp]");
        }
        final RunSettings s = chain.settings();
        return out.append(" batch=").append(s.punctuationTransactions()).append(" intervalNs=").append(s.punctuationIntervalNs())
            .append(" threads=").append(s.executorThreads()).append(" traffic=").append(s.traffic().generator()).toString();
    }

    /** Moves some timestamps backwards, as real captures do, deterministically. */
    static final class JitteredSource extends ForwardingPacketSource
    {
        private final double probability;
        private final SplittableRandom random;

        JitteredSource(final PacketSource source, final double probability, final long seed)
        {
            super(source);
            this.probability = probability;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public boolean next(final PacketBuffer dst) throws SourceException
        {
            if (!source.next(dst))
            {
                return false;
            }
            if (probability > 0 && random.nextDouble() < probability)
            {
                dst.commit(dst.length(), dst.originalLength(), dst.timestampNs() - random.nextInt(5_000_000), dst.sequence());
            }
            return true;
        }



    }
}
