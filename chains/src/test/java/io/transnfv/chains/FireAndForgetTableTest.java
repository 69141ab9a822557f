package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.GeneratorConfig;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables a chain makes {@code consistency: fire-and-forget}: the flow monitor's flow and host
 * counters, updated by DEFERs that take no part in the graph and are applied in serial order
 * once their batch commits. Nothing in a transaction reads these tables, so chain output
 * equivalence holds exactly: the engine equals the serial oracle (records, final state,
 * checkers) with every strategy on one and two threads, with and without host expiry (whose
 * updates read another table's result), on generated traffic with hot hosts and on real traces.
 */
class FireAndForgetTableTest
{
    private static final Set<String> COUNTERS = Set.of("flow-packets", "flow-bytes", "host-packets", "host-bytes");
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    /** The bundled security chain with its monitor's counters fire-and-forget. */
    static ChainSpec forgettingMonitor(final ChainSpec chain)
    {
        final List<VnfNode> nodes = new ArrayList<>();
        for (final VnfNode node : chain.vnfs())
        {
            nodes.add(node.type().equals("flow-monitor")
                ? new VnfNode(node.name(), node.factory(), node.config(), node.tables(), node.stores(), node.distributions(), Set.of(), COUNTERS)
                : node);
        }
        return new ChainSpec(chain.name(), chain.description(), nodes, chain.edges(), chain.settings());
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithEveryStrategyOnOneAndTwoThreads()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final ChainSpec bundled = forgettingMonitor(new ChainLoader().loadBundled("fw-portscan-monitor"));
        final String[] traffic = {
            "packets=6000,flows=800,hosts=40,host_skew=1.5,new_conn_ratio=0.2,tcp_ratio=0.7,seed=21",
            "packets=6000,flows=3000,hosts=3,host_skew=3.0,new_conn_ratio=0.5,tcp_ratio=0.9,seed=22"};
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

    private static final String EXPIRING = """
        name: expiring-monitor
        vnfs:
          - name: monitor
            type: flow-monitor
            params: { idle_timeout: 2ms, host_idle_timeout: 3ms, expiry_interval: 1ms }
            tables:
              flow-packets: { consistency: fire-and-forget }
              flow-bytes: { consistency: fire-and-forget }
              host-packets: { consistency: fire-and-forget }
              host-bytes: { consistency: fire-and-forget }
        settings:
          executor_threads: %d
          punctuation: { transactions: %d }
          traffic:
            generate: { packets: 20000, flows: 4000, new_conn_ratio: 0.3, tcp_ratio: 0.8, hosts: 30, host_skew: 2.0, seed: %d }
        """;

    /** With host expiry a host counter restarts by the result of another table's operation, read from the log at the batch end. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldEqualTheOracleWhenTheUpdatesReadEarlierResultsAndEntriesExpire(final int threads) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(EXPIRING, threads, threads == 1 ? 128 : 1024, 30 + threads), "expiring.yaml");
        assertEquals(COUNTERS, chain.vnfs().get(0).fireAndForget());
        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "random/op/lazy", "adaptive"))
        {
            assertEquivalent(chain, strategy, "host expiry, " + threads + " threads");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"synscan.pcap", "http_ipv6.pcap", "badpackets.pcap", "webattack-sll-snap96.pcap"})
    void shouldEqualTheOracleOnTraces(final String trace) throws IOException
    {
        final ChainSpec bundled = forgettingMonitor(new ChainLoader().loadBundled("fw-portscan-monitor"));
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
}
