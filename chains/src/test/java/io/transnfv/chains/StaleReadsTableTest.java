package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load balancer's server loads ({@code active}) with {@code consistency: {stale-reads: 1}}:
 * a new connection goes to the least loaded candidate as its batch started. Checked against the
 * bound: with batches of one packet the batch start is the packet's own point in the serial
 * order, so the engine equals the strict oracle; with larger batches packets differ from the
 * oracle, but only through the loads the choices saw: the engine's loads still count exactly the
 * connections that name each server (the load balancer's checker, so no delta is lost or
 * doubled), on every strategy and on one and two threads, and the same chain without the hint
 * equals the oracle. That the engine reads exactly the batch start's values, on every schedule,
 * is checked against the batched serial applier by {@code BatchExecutorContractTest}.
 */
class StaleReadsTableTest
{
    private static final String CHAIN = """
        name: stale-lb
        vnfs:
          - name: lb
            type: load-balancer
            params: { servers: 12, candidates: 3, idle_timeout: 5ms, expiry_interval: 1ms }
            tables:
              active: { consistency: %s }
        settings:
          executor_threads: %d
          punctuation: { transactions: %d, interval: 10s }   # batches cut by count only
          traffic:
            generate: { packets: 12000, flows: 3000, new_conn_ratio: 0.5, tcp_ratio: 0.8, seed: 5 }
        """;

    private static ChainSpec chain(final String consistency, final int threads, final int batch)
    {
        return new ChainLoader().parse(String.format(CHAIN, consistency, threads, batch), "stale-lb.yaml");
    }

    private static EquivalenceCheck.Result compare(final ChainSpec chain, final String strategy) throws IOException
    {
        return EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldEqualTheOracleWhenEveryBatchIsOnePacket(final int threads) throws IOException
    {
        final ChainSpec chain = chain("{ stale-reads: 1 }", threads, 1);
        assertEquals(Map.of("active", 1), chain.vnfs().get(0).staleReads());
        for (final String strategy : new String[] {"bfs/op/eager", "adaptive"})
        {
            final EquivalenceCheck.Result result = compare(chain, strategy);
            assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
                + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
        }
    }

    @Test
    void shouldDifferOnlyThroughTheStaleLoadsAndKeepEveryLoadCountingItsConnections() throws IOException
    {
        for (final int threads : new int[] {1, 2})
        {
            final ChainSpec chain = chain("{ stale-reads: 1 }", threads, 256);
            for (final String strategy : new String[] {"bfs/op/eager", "dfs/group/lazy", "random/op/lazy", "adaptive"})
            {
                final String what = threads + " threads, " + strategy;
                final EquivalenceCheck.Result result = compare(chain, strategy);
                assertTrue(result.differingPackets() > 0, what + ": choices by the batch start's loads must differ from the oracle's");
                assertTrue(result.checkersHeld(), () -> what + ": every server's load must count its connections: "
                    + result.candidateCheckers());
                assertTrue(result.differingPackets() < result.packets(), what + ": the stale loads change some choices, not every packet");
                assertTrue(result.withinStaleReads(), () -> what + ": every difference is one the stale loads allow: "
                    + result.misplacedPackets() + " misplaced, " + result.unexplainedPackets() + " unexplained packets, "
                    + result.unexplainedStateEntries() + " unexplained entries");
                assertEquals(0, result.misplacedPackets(), what);
                assertTrue(result.differingStateEntryCount() > 0, what + ": connections name other servers");
                assertTrue(result.differingStateEntries().keySet().stream().allMatch(t -> t.startsWith("lb.")),
                    () -> what + ": " + result.differingStateEntries());
            }
        }
        final EquivalenceCheck.Result serializable = compare(chain("serializable", 2, 256), "adaptive");
        assertTrue(serializable.equivalent(), "without the hint the same chain equals the oracle");
        assertEquals(0, serializable.differingPackets());
        assertEquals(Map.of(), serializable.differingStateEntries());
        assertFalse(serializable.withinStaleReads(), "equal runs are equivalent, not relaxed");
    }

    @Test
    void shouldFindADroppedOrDuplicatedRecordOutsideWhatStaleReadsAllow() throws IOException
    {
        final ChainSpec chain = chain("{ stale-reads: 1 }", 1, 256);
        for (final boolean duplicate : new boolean[] {false, true})
        {
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
                () -> PacketSources.open(chain.settings().traffic()),
                spec -> new RecordFaultExecutor(new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, "adaptive"),
                    "adaptive"), 5000, duplicate));
            assertTrue(result.misplacedPackets() > 0, "a record " + (duplicate ? "twice" : "missing") + " is misplaced");
            assertFalse(result.samePackets());
            assertFalse(result.withinStaleReads(), "no stale read explains a packet missing or output twice");
        }
    }

    @Test
    void shouldNotExplainTheSameDifferencesOnAChainWithoutAStaleReadsTable() throws IOException
    {
        // the engine runs the chain with the hint, judged as the chain without it: the records and
        // state that differ are the same, but no table of the judged chain allows them
        final ChainSpec stale = chain("{ stale-reads: 1 }", 1, 256);
        final ChainSpec serializable = chain("serializable", 1, 256);
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(serializable,
            () -> PacketSources.open(serializable.settings().traffic()),
            spec -> new BatchedChainExecutor(stale, n -> TpgBatchExecutor.create(n, "adaptive"), "adaptive"));
        assertTrue(result.differingPackets() > 0 && result.samePackets(), "contents differ, packets do not");
        assertEquals(result.differingPackets(), result.unexplainedPackets());
        assertEquals(result.differingStateEntryCount(), result.unexplainedStateEntries());
        assertFalse(result.withinStaleReads());
        assertEquals(Set.of(), EquivalenceCheck.staleReadReach(serializable));
        assertEquals(Set.of("lb"), EquivalenceCheck.staleReadReach(stale));
    }

    @Test
    void shouldExplainDifferencesDownstreamOfTheStaleTableAndFindNoneUpstream() throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse("""
            name: stale-chain
            vnfs:
              - name: nat
                type: nat
                params: { internal_net: 10.0.0.0/8, external_ips: 203.0.113.0/28, pool_size: 4096 }
              - name: lb
                type: load-balancer
                params: { servers: 12, candidates: 3 }
                tables:
                  active: { consistency: { stale-reads: 2 } }
              - name: td
                type: trojan-detector
            edges:
              - { from: nat, to: lb }
              - { from: lb, to: td }
            settings:
              executor_threads: 1
              punctuation: { transactions: 256, interval: 10s }
              traffic:
                generate: { packets: 8000, flows: 2000, new_conn_ratio: 0.5, tcp_ratio: 0.8, seed: 9 }
            """, "stale-chain.yaml");
        assertEquals(Set.of("lb", "td"), EquivalenceCheck.staleReadReach(chain));
        final EquivalenceCheck.Result result = compare(chain, "adaptive");
        assertTrue(result.differingPackets() > 0, "the stale loads change choices");
        assertTrue(result.withinStaleReads(), () -> result.unexplainedPackets() + " unexplained packets, "
            + result.unexplainedStateEntries() + " unexplained entries: " + result.differingStateEntries());
        assertTrue(result.differingStateEntries().keySet().stream().noneMatch(t -> t.startsWith("nat.")),
            () -> "the NAT before the load balancer sees the same packets: " + result.differingStateEntries());
    }

    /** Passes a chain executor's records on, but drops or repeats the one of output position {@code at}. */
    private static final class RecordFaultExecutor implements ChainExecutor
    {
        private final ChainExecutor inner;
        private final long at;
        private final boolean duplicate;

        RecordFaultExecutor(final ChainExecutor inner, final long at, final boolean duplicate)
        {
            this.inner = inner;
            this.at = at;
            this.duplicate = duplicate;
        }

        @Override
        public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
        {
            final long[] seen = new long[1];
            return inner.run(source, (record, buffer, packet) ->
            {
                final long position = seen[0]++;
                if (position != at || duplicate)
                {
                    listener.onPacket(record, buffer, packet);
                }
                if (position == at && duplicate)
                {
                    listener.onPacket(record, buffer, packet);
                }
            });
        }

        @Override
        public RunStats stats()
        {
            return inner.stats();
        }

        @Override
        public RunControl control()
        {
            return inner.control();
        }

        @Override
        public FaultLog faults()
        {
            return inner.faults();
        }

        @Override
        public ChainRuntime runtime()
        {
            return inner.runtime();
        }

        @Override
        public Optional<CheckerReport> finalCheck()
        {
            return inner.finalCheck();
        }

        @Override
        public String dumpState()
        {
            return inner.dumpState();
        }

        @Override
        public void writeState(final Writer out) throws IOException
        {
            inner.writeState(out);
        }

        @Override
        public String describe()
        {
            return inner.describe();
        }

        @Override
        public void close()
        {
            inner.close();
        }
    }
}
