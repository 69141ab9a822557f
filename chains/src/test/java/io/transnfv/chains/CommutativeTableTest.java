package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.instance.VnfInstance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables a chain makes {@code consistency: commutative}: the flow monitor's host counters, run as
 * ADDs that the graph does not order. The engine equals the serial oracle with every strategy on
 * one and two threads, on generated traffic with hot hosts and on real traces; under a SYN flood
 * a commutative host table with a capacity refuses exactly the packets the oracle refuses, and
 * the same packets as the same table left serializable, beside a table that evicts.
 */
class CommutativeTableTest
{
    private static final Set<String> HOST_COUNTERS = Set.of("host-packets", "host-bytes");
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    /** The bundled security chain with its monitor's host counters commutative. */
    static ChainSpec commutativeMonitor(final ChainSpec chain)
    {
        final List<VnfNode> nodes = new ArrayList<>();
        for (final VnfNode node : chain.vnfs())
        {
            nodes.add(node.type().equals("flow-monitor")
                ? new VnfNode(node.name(), node.factory(), node.config(), node.tables(), node.stores(), node.distributions(), HOST_COUNTERS)
                : node);
        }
        return new ChainSpec(chain.name(), chain.description(), nodes, chain.edges(), chain.settings());
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithEveryStrategyOnOneAndTwoThreads()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final ChainSpec bundled = commutativeMonitor(new ChainLoader().loadBundled("fw-portscan-monitor"));
        final String[] traffic = {
            "packets=6000,flows=800,hosts=40,host_skew=1.5,new_conn_ratio=0.2,tcp_ratio=0.7,seed=11",
            "packets=6000,flows=3000,hosts=3,host_skew=3.0,new_conn_ratio=0.5,tcp_ratio=0.9,seed=12"};
        for (final int threads : new int[] {1, 2})
        {
            for (final String strategy : TpgBatchExecutor.strategyNames())
            {
                final String generate = traffic[tests.size() % traffic.length];
                tests.add(DynamicTest.dynamicTest(threads + " threads, " + strategy + ", " + generate, () ->
                {
                    final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.generate(GeneratorConfig.parse(generate)))
                        .withPunctuation(strategy.hashCode() % 2 == 0 ? 64 : 512, 1_000_000).withExecutorThreads(threads));
                    assertEquivalent(chain, strategy, generate);
                }));
            }
        }
        return tests.stream();
    }

    @ParameterizedTest
    @ValueSource(strings = {"synscan.pcap", "http_ipv6.pcap", "badpackets.pcap", "webattack-sll-snap96.pcap"})
    void shouldEqualTheOracleOnTraces(final String trace) throws IOException
    {
        final ChainSpec bundled = commutativeMonitor(new ChainLoader().loadBundled("fw-portscan-monitor"));
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.pcap(TRACES.resolve(trace), 2)).withPunctuation(64, 1_000_000).withExecutorThreads(2));
        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
        {
            assertEquivalent(chain, strategy, trace);
        }
    }

    private static void assertEquivalent(final ChainSpec chain, final String strategy, final String what) throws IOException
    {
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
        assertTrue(result.equivalent(), () -> what + ", " + strategy + ": first diverging packet #" + result.divergingSequence()
            + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
        assertTrue(result.checkersHeld(), () -> what + ", " + strategy + ": checkers violated: oracle " + result.oracleCheckers()
            + ", engine " + result.candidateCheckers());
        assertTrue(result.checkersAgree(), () -> what + ", " + strategy + ": the checkers found different violations");
    }

    private static final String FLOOD = """
        name: flooded-monitor
        vnfs:
          - name: monitor
            type: flow-monitor
            params: { idle_timeout: 2ms, expiry_interval: 1ms }
            tables:
              flow-last-seen: { capacity: 1000, when_full: evict }
              host-packets: { capacity: %d, consistency: %s }
              host-bytes: { capacity: %d, consistency: %s }
        settings:
          executor_threads: %d
          punctuation: { transactions: %d }
          traffic:
            generate: { packets: 30000, flows: 20000, new_conn_ratio: %s, tcp_ratio: 1.0, hosts: %d, seed: %d }
        """;

    /**
     * A SYN-flood-like workload (new connections from up to millions of sources) fills the host
     * tables; while a table is closed an add to a new host aborts its transaction as state-full,
     * adds to known hosts go on. Every executor refuses the same packets, the table stays within
     * its capacity plus one check period, and the serializable table refuses the very same
     * packets, since a host counter only grows.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldRefuseNewHostsOfAFullCommutativeTableAsTheOracleAndAsSerializable(final int seed) throws IOException
    {
        final int capacity = 400 * seed;
        final int threads = 1 + seed % 2;
        final int batch = new int[] {32, 256, 1024}[seed - 1];
        final String ratio = new String[] {"1.0", "0.6", "0.9"}[seed - 1];
        final int hosts = new int[] {16_000_000, 5000, 100_000}[seed - 1];
        long refusedBefore = -1;
        long evictedBefore = -1;
        for (final String consistency : List.of("commutative", "serializable"))
        {
            final ChainSpec chain = new ChainLoader().parse(String.format(FLOOD, capacity, consistency, capacity * 2, consistency, threads,
                batch, ratio, hosts, seed), "flood.yaml");
            assertEquals(consistency.equals("commutative") ? HOST_COUNTERS : Set.of(), chain.vnfs().get(0).commutative());
            for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
            {
                assertEquivalent(chain, strategy, consistency + " seed " + seed);
            }
            final List<Function<ChainSpec, ChainExecutor>> executors = List.of(SerialChainExecutor::new,
                spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, "adaptive"), "tpg adaptive"));
            for (final Function<ChainSpec, ChainExecutor> executor : executors)
            {
                try (ChainExecutor run = executor.apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
                {
                    final RunStats stats = run.run(source, null);
                    final ChainRuntime runtime = run.runtime();
                    final VnfInstance monitor = runtime.instance(0);
                    final long refused = stats.drops(0, monitor.stateFullReason());
                    final long evicted = runtime.capacities().evicted(runtime.catalog().find("monitor", "flow-last-seen"));
                    assertTrue(refused > 0, run.describe() + ": the flood must fill a host table");
                    assertTrue(evicted > 0, run.describe() + ": the flood must fill flow-last-seen");
                    for (final String table : HOST_COUNTERS)
                    {
                        final int t = runtime.catalog().find("monitor", table);
                        final long entries = run.committedState().orElseThrow().size(t);
                        assertTrue(entries <= runtime.capacities().capacity(t) + runtime.capacities().checkEveryPackets(),
                            () -> run.describe() + ": " + table + " holds " + entries + " of " + runtime.capacities().capacity(t));
                    }
                    assertTrue(run.finalCheck().orElseThrow().violations().isEmpty(), run.describe() + ": the monitor's checkers hold");
                    if (refusedBefore >= 0)
                    {
                        assertEquals(refusedBefore, refused, run.describe() + " " + consistency + ": the same packets refused");
                        assertEquals(evictedBefore, evicted, run.describe() + " " + consistency + ": the same flows evicted");
                    }
                    refusedBefore = refused;
                    evictedBefore = evicted;
                }
            }
        }
    }
}
