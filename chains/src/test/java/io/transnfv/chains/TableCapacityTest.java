package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TableCapacities;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.instance.VnfInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables with a capacity ({@code tables: {t: {capacity: n}}}) refuse new entries once a capacity
 * check finds them full: the packets whose transactions would add one are dropped as
 * {@code <vnf>:state-full}; with {@code when_full: evict} they give up their least recently
 * active entries instead (the load balancer's server counts follow, its state checkers hold). Either
 * way the table stays within its capacity plus one check period's inserts, and every executor,
 * strategy and thread count refuses and evicts exactly what the oracle does (seeded).
 */
class TableCapacityTest
{
    private static final String CHAIN = """
        name: bounded
        vnfs:
          - name: fw
            type: firewall
            params: { internal_net: [10.0.0.0/8], default_action: allow, idle_timeout: 2ms, expiry_interval: 1ms }
            tables: { connections: { capacity: %d, when_full: %s } }
          - name: lb
            type: load-balancer
            params: { servers: 16, candidates: 3, idle_timeout: 3ms, expiry_interval: 1ms }
            tables: { connections: { capacity: %d, when_full: %s } }
        edges:
          - { from: fw, to: lb }
        settings:
          executor_threads: %d
          punctuation: { transactions: %d }
          traffic:
            generate: { packets: 40000, flows: 20000, new_conn_ratio: %s, fin_ratio: 0.3, seed: %d }
        """;

    static Stream<Arguments> cases()
    {
        return Stream.of(
            Arguments.of(1, 300, 200, 1, 64, "0.3", "reject"),
            Arguments.of(2, 500, 400, 2, 256, "0.5", "reject"),
            Arguments.of(3, 2000, 100, 2, 32, "0.2", "reject"),
            Arguments.of(4, 150, 5000, 1, 512, "0.8", "reject"),
            Arguments.of(5, 800, 800, 2, 128, "1.0", "reject"),
            Arguments.of(6, 300, 200, 2, 64, "0.3", "evict"),
            Arguments.of(7, 1500, 150, 1, 256, "0.6", "evict"),
            Arguments.of(8, 200, 2000, 2, 32, "1.0", "evict"));
    }

    @ParameterizedTest(name = "seed {0}: capacities {1}/{2}, {3} threads, batches of {4}, new {5}, {6}")
    @MethodSource("cases")
    void shouldRefuseOrEvictAsTheOracleAndStayWithinCapacity(final int seed, final int fwCapacity, final int lbCapacity, final int threads,
        final int batch, final String newRatio, final String whenFull) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, fwCapacity, whenFull, lbCapacity, whenFull, threads, batch,
            newRatio, seed), "bounded.yaml");
        final boolean evicting = whenFull.equals("evict");
        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
        {
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
                spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
            assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
                + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
        }
        final List<Function<ChainSpec, ChainExecutor>> executors = List.of(SerialChainExecutor::new,
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, "adaptive"), "tpg adaptive"));
        long refused = -1;
        long evictions = -1;
        for (final Function<ChainSpec, ChainExecutor> executor : executors)
        {
            try (ChainExecutor run = executor.apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                final RunStats stats = run.run(source, null);
                final ChainRuntime runtime = run.runtime();
                long drops = 0;
                long evicted = 0;
                for (int v = 0; v < 2; v++)
                {
                    final VnfInstance instance = runtime.instance(v);
                    drops += stats.drops(v, instance.stateFullReason());
                    final int table = runtime.catalog().find(instance.name(), "connections");
                    evicted += runtime.capacities().evicted(table);
                    assertEquals(evicting, runtime.capacities().evicts(table));
                    final long capacity = runtime.capacities().capacity(table);
                    final long entries = run.committedState().orElseThrow().size(table);
                    assertTrue(entries <= capacity + runtime.capacities().checkEveryPackets(),
                        () -> run.describe() + ": " + instance.name() + ".connections holds " + entries + " of " + capacity);
                }
                if (evicting)
                {
                    assertEquals(0, drops, run.describe() + ": a table that evicts refuses nothing");
                    assertTrue(evicted > 0, run.describe() + ": the traffic must fill a table");
                    assertTrue(run.finalCheck().orElseThrow().violations().isEmpty(), run.describe() + ": eviction keeps the checkers");
                }
                else
                {
                    assertTrue(drops > 0, run.describe() + ": the traffic must fill a table");
                }
                assertTrue(runtime.capacities().checks() >= 40_000 / runtime.capacities().checkEveryPackets(), run.describe() + ": checks");
                if (refused >= 0)
                {
                    assertEquals(refused, drops, run.describe() + ": the same packets refused");
                }
                if (evictions >= 0)
                {
                    assertEquals(evictions, evicted, run.describe() + ": the same entries evicted");
                }
                refused = drops;
                evictions = evicted;
            }
        }
    }

    private static final String MONITOR = """
        name: bounded-monitor
        vnfs:
          - name: monitor
            type: flow-monitor
            params: { host_idle_timeout: 2ms, expiry_interval: 1ms }
            tables:
              flow-last-seen: { capacity: 700, when_full: evict }
              host-last-seen: { capacity: 90, when_full: evict }
        settings:
          executor_threads: 2
          traffic:
            generate: { packets: 40000, flows: 20000, new_conn_ratio: 0.6, hosts: 2000, seed: 4 }
        """;

    @Test
    void shouldEvictTheMonitorsFlowsAndHostsWithTheirCountersAsTheOracleDoes() throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(MONITOR, "bounded-monitor.yaml");
        for (final String strategy : List.of("bfs/op/lazy", "dfs/group/eager", "adaptive"))
        {
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
                spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
            assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
                + "\n state: " + result.stateDifference());
        }
        try (ChainExecutor run = new BatchedChainExecutor(chain, n -> TpgBatchExecutor.create(n, "adaptive"), "tpg adaptive");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            run.run(source, null);
            final ChainRuntime runtime = run.runtime();
            for (final String table : List.of("flow-last-seen", "host-last-seen"))
            {
                final int t = runtime.catalog().find("monitor", table);
                assertTrue(runtime.capacities().evicted(t) > 0, table + " evicted");
                assertTrue(run.committedState().orElseThrow().size(t) <= runtime.capacities().capacity(t) + runtime.capacities().checkEveryPackets());
            }
            assertTrue(run.finalCheck().orElseThrow().violations().isEmpty(), "a flow's counters go with it: " + run.finalCheck());
        }
    }

    @Test
    void shouldBoundHeapTablesByTheHeapAndOffHeapTablesOnlyByTheirOwnCapacity()
    {
        final ChainSpec chain = new ChainLoader().parse("""
            name: stored
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { store: chronicle, expected_entries: 1000000 }
                  connection-bytes: { store: chronicle, expected_entries: 1000000, capacity: 2000000 }
              - name: fw
                type: firewall
            edges:
              - { from: lb, to: fw }
            """, "stored.yaml");
        final ChainRuntime runtime = new ChainRuntime(chain);
        final TableCapacities capacities = runtime.capacities();
        assertEquals(TableCapacities.UNBOUNDED, capacities.capacity(runtime.catalog().find("lb", "connections")),
            "an off-heap table is not held to the heap's share");
        assertEquals(2_000_000, capacities.capacity(runtime.catalog().find("lb", "connection-bytes")));
        assertEquals(TableCapacities.UNBOUNDED, capacities.capacity(runtime.catalog().find("lb", "active")), "index-keyed");
        assertEquals(TableCapacities.SHARED, capacities.capacity(runtime.catalog().find("fw", "connections")), "in the heap");
    }
}
