package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            }
        }
        final EquivalenceCheck.Result serializable = compare(chain("serializable", 2, 256), "adaptive");
        assertTrue(serializable.equivalent(), "without the hint the same chain equals the oracle");
        assertEquals(0, serializable.differingPackets());
    }
}
