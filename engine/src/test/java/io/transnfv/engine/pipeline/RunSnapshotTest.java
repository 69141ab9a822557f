package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SnapshotExchange;
import io.transnfv.engine.source.GatedPacketSource;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots for readers off the data path: the owner copies only when asked, a reader gets a
 * copy taken after its request, and once the run has ended every reader gets its final figures.
 */
class RunSnapshotTest
{
    private static final long PACKETS = 20_000;
    private static final long HELD_AT = 5_000;

    @Test
    void shouldServeAReaderOnlyWithACopyTakenAfterItsRequest()
    {
        final RunStats zero = new RunStats(new ChainRuntime(TestChains.quotaThenRewrite()));
        final SnapshotExchange exchange = new SnapshotExchange(RunSnapshot.empty(zero));
        assertEquals(SnapshotExchange.NONE, exchange.pending(), "nobody asked: the data path copies nothing");

        final long first = exchange.request();
        final long ticket = exchange.pending();
        assertEquals(first, ticket);
        // a request that comes while the owner copies is not answered by that copy
        final long second = exchange.request();
        final RunSnapshot copy = new RunSnapshot(1, false, zero, 0, new long[0], new long[0]);
        exchange.publish(ticket, copy);
        assertTrue(exchange.served() >= first);
        assertTrue(exchange.served() < second);
        assertSame(copy, exchange.latest());
        assertEquals(second, exchange.pending());

        final RunSnapshot last = new RunSnapshot(2, true, zero, 0, new long[0], new long[0]);
        exchange.publishLast(last);
        assertTrue(exchange.served() >= exchange.request(), "after the run every request is answered with the final figures");
        assertSame(last, exchange.await(TimeUnit.MINUTES.toNanos(1)));
    }

    @Test
    @Timeout(120)
    void shouldAnswerAReaderWhileTheSerialExecutorRunsAndPublishItsFinalFigures() throws Exception
    {
        answersWhileRunningAndPublishesTheEnd(SerialChainExecutor::new);
    }

    @Test
    @Timeout(120)
    void shouldAnswerAReaderWhileTheEngineRunsAndPublishItsFinalFigures() throws Exception
    {
        answersWhileRunningAndPublishesTheEnd(chain -> new BatchedChainExecutor(chain.withSettings(
            chain.settings().withExecutorThreads(2)), threads -> TpgBatchExecutor.create(threads, "adaptive"), "tpg adaptive"));
    }

    /**
     * The traffic is held at {@link #HELD_AT} until a reader has been answered with every packet
     * before it finished and the run not over: only a snapshot served during the run can say that.
     */
    private static void answersWhileRunningAndPublishesTheEnd(final Function<ChainSpec, ChainExecutor> create) throws Exception
    {
        final ChainSpec base = TestChains.quotaThenRewrite();
        final ChainSpec chain = base.withSettings(base.settings().withTraffic(
            TrafficSpec.generate(GeneratorConfig.builder().set("packets", Long.toString(PACKETS)).build())));
        final AtomicBoolean seenHeld = new AtomicBoolean();
        final AtomicReference<String> problem = new AtomicReference<>();
        try (ChainExecutor executor = create.apply(chain);
             PacketSource source = GatedPacketSource.heldAt(PacketSources.open(chain.settings().traffic()), HELD_AT, seenHeld::get))
        {
            final SnapshotExchange exchange = executor.snapshots().orElseThrow();
            final Thread reader = new Thread(() ->
            {
                long lastFinished = 0;
                while (true)
                {
                    final RunSnapshot snapshot = exchange.await(TimeUnit.MINUTES.toNanos(10));
                    final long finished = snapshot.stats().packetsFinished();
                    if (finished < lastFinished)
                    {
                        problem.set("finished went back from " + lastFinished + " to " + finished);
                    }
                    lastFinished = finished;
                    if (snapshot.last())
                    {
                        return;
                    }
                    if (finished == HELD_AT)
                    {
                        seenHeld.set(true);
                    }
                }
            }, "reader");
            reader.start();
            final RunStats stats = executor.run(source, null);
            reader.join();

            assertNull(problem.get());
            final RunSnapshot last = exchange.latest();
            assertTrue(last.last());
            assertEquals(PACKETS, stats.packetsFinished());
            assertArrayEquals(stats.counters(), last.stats().counters(), "the final figures are the run's own");
            assertEquals(stats.latencyNs().getTotalCount(), last.stats().latencyNs().getTotalCount());
        }
    }
}
