package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.state.store.LocalRedisServer;
import io.transnfv.engine.state.store.StateStoreException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Redis server lost in the middle of a run stops the run with an error that names the store
 * and what to do: the engine never goes on with state the store does not hold.
 */
class RedisConnectionLossTest
{
    private static final String CHAIN = """
        name: lost
        vnfs:
          - name: lb
            type: load-balancer
            params: { servers: 64, candidates: 3 }
            tables:
              connections: { store: redis }
              active: { store: redis }
        settings:
          executor_threads: 2
          punctuation: { transactions: 64 }
          redis: { url: "%s" }
          traffic:
            generate: { packets: 100000, flows: 4000, new_conn_ratio: 0.2, seed: 8 }
        """;

    @Test
    void shouldStopTheRunWithTheStoresErrorWhenRedisIsLost() throws Exception
    {
        try (LocalRedisServer redis = LocalRedisServer.start())
        {
            final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, redis.url()), "lost.yaml");
            final AtomicLong egressed = new AtomicLong();
            try (BatchedChainExecutor engine = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
                 PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                final StateStoreException e = assertThrows(StateStoreException.class, () -> engine.run(source, (record, buffer, packet) ->
                {
                    if (egressed.incrementAndGet() == 5_000)
                    {
                        try
                        {
                            redis.kill();
                        }
                        catch (final InterruptedException interrupted)
                        {
                            Thread.currentThread().interrupt();
                        }
                    }
                }));
                assertTrue(e.getMessage().startsWith("the redis store at " + redis.url() + " failed while"), e.getMessage());
                assertTrue(e.getMessage().contains("fix: check that redis-server is running"), e.getMessage());
                assertTrue(egressed.get() < 100_000, "the run stopped: " + egressed.get() + " packets out");
            }
        }
    }
}
