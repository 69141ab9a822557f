package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live port that goes quiet still expires idle state: packet time follows the wall clock once
 * the source has been quiet for a tick interval, and the housekeeping ticks it crosses run, on
 * the serial oracle and on the engine alike. A replayable source with the very same packets and
 * pauses gets no such ticks. The wall clock is the test's: it moves only when the source says it
 * has nothing, one millisecond per poll, so both executors see the same times whatever their
 * threads do, and nothing sleeps.
 */
class LiveIdleExpiryTest
{
    private static final String CHAIN = """
        name: live-lb
        vnfs:
          - name: lb
            type: load-balancer
            params:
              servers: 8
              idle_timeout: 20ms
              expiry_interval: 10ms
        settings:
          punctuation: { transactions: 4, interval: 1ms }
          executor_threads: 2
        """;

    private static final int FLOWS = 8;
    private static final int PACKETS_PER_FLOW = 3;
    private static final long FIRST_NS = 1_000_000_000L;
    private static final long GAP_NS = 100_000L;
    private static final int BEFORE_PAUSE = FLOWS * PACKETS_PER_FLOW;
    /** The last packet before the pause: 1.0023 s. */
    private static final long LAST_NS = FIRST_NS + (BEFORE_PAUSE - 1) * GAP_NS;
    /** The packet after the pause is stamped behind the last one before it, as a port's clock may be. */
    private static final long LATE_NS = FIRST_NS;
    private static final long WALL_STEP_NS = 1_000_000L;

    private final ChainSpec chain = new ChainLoader().parse(CHAIN, "live-lb.yaml");

    @Test
    void shouldExpireIdleFlowsOfAQuietLivePortOnBothExecutors() throws IOException
    {
        // 60 empty polls: quiet from the first, packet time moves from the 11th (10 ms), up to 59 ms past the last packet
        final Run oracle = run(true, 60, SerialChainExecutor::new);
        final Run engine = run(true, 60, LiveIdleExpiryTest::engine);

        assertEquals(oracle.records, engine.records);
        assertEquals(oracle.state, engine.state);
        assertEquals(FLOWS, oracle.expired, "every flow of before the pause expired");
        assertEquals(FLOWS, engine.expired);
        assertEquals(1, oracle.connections, "only the flow that came after the pause is left:\n" + oracle.state);
        assertEquals(1, engine.connections, engine.state);
        // the late packet is clamped to where packet time went during the pause, not to the last packet's time
        assertEquals(LAST_NS + 59 * WALL_STEP_NS, oracle.lastTimeNs);
        assertEquals(LAST_NS + 59 * WALL_STEP_NS, engine.lastTimeNs);
    }

    @Test
    void shouldKeepPacketTimeTicksOnlyForAReplayableSourceThatPauses() throws IOException
    {
        final Run oracle = run(false, 60, SerialChainExecutor::new);
        final Run engine = run(false, 60, LiveIdleExpiryTest::engine);

        assertEquals(oracle.records, engine.records);
        assertEquals(oracle.state, engine.state);
        assertEquals(0, oracle.expired, "a replay's packet time is its packets': no tick fell");
        assertEquals(0, engine.expired);
        assertEquals(FLOWS + 1, oracle.connections, oracle.state);
        assertEquals(FLOWS + 1, engine.connections, engine.state);
        assertEquals(LAST_NS, oracle.lastTimeNs, "the late packet takes the last packet's time, as always");
        assertEquals(LAST_NS, engine.lastTimeNs);
    }

    @Test
    void shouldLeavePacketTimeAloneWhenALivePortIsQuietForLessThanATickInterval() throws IOException
    {
        // 10 empty polls: quiet for 9 ms, under the 10 ms interval
        final Run live = run(true, 10, LiveIdleExpiryTest::engine);
        final Run replayed = run(false, 10, LiveIdleExpiryTest::engine);

        assertEquals(replayed.records, live.records);
        assertEquals(replayed.state, live.state);
        assertEquals(0, live.expired);
        assertEquals(LAST_NS, live.lastTimeNs);
    }

    @Test
    void shouldNameAFailingQuietTickAfterTheLastPacketBeforeItOnBothExecutors() throws IOException
    {
        // housekeeping every 1 ms that throws on odd milliseconds; packets 10 us apart cross no tick
        final ChainSpec faulty = FaultIsolationTest.chain(FaultyVnf.Where.EXPIRE, FaultyVnf.How.EXCEPTION, FaultSettings.defaults(), null);
        final Run oracle = run(faulty, true, 60, 10_000L, SerialChainExecutor::new);
        final Run engine = run(faulty, true, 60, 10_000L, LiveIdleExpiryTest::engine);

        assertEquals(oracle.records, engine.records);
        assertEquals(oracle.state, engine.state);
        assertEquals(1, oracle.faults.size(), oracle.faults::toString);
        assertEquals(oracle.faults, engine.faults);
        final FaultLog.Fault fault = oracle.faults.get(0);
        assertEquals("expire", fault.callback());
        assertEquals(BEFORE_PAUSE - 1, fault.firstSequence(), "named after the last packet before the quiet tick");

        final Run replayed = run(faulty, false, 60, 10_000L, LiveIdleExpiryTest::engine);
        assertTrue(replayed.faults.isEmpty(), "no tick on a replay whose packets cross none: " + replayed.faults);
    }

    private static ChainExecutor engine(final ChainSpec spec, final LongSupplier wallClockNs)
    {
        return new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg", wallClockNs);
    }

    private Run run(final boolean live, final int quietPolls, final BiFunction<ChainSpec, LongSupplier, ChainExecutor> executors)
        throws IOException
    {
        return run(chain, live, quietPolls, GAP_NS, executors);
    }

    /** Runs {@code spec} over a pausing source, with the executor given the source's wall clock. */
    private static Run run(
        final ChainSpec spec, final boolean live, final int quietPolls, final long gapNs,
        final BiFunction<ChainSpec, LongSupplier, ChainExecutor> executors) throws IOException
    {
        final List<String> records = new ArrayList<>();
        final long[] lastTimeNs = new long[1];
        final PausingSource.Wall wall = new PausingSource.Wall();
        try (ChainExecutor executor = executors.apply(spec, wall);
             PacketSource source = new PausingSource(live, quietPolls, gapNs, wall))
        {
            final StringBuilder line = new StringBuilder();
            executor.run(source, (record, buffer, packet) ->
            {
                line.setLength(0);
                records.add(record.format(line, executor.runtime(), packet).toString());
                lastTimeNs[0] = record.timestampNs();
            });
            final String state = executor.dumpState();
            final long connections = state.lines().filter(l -> l.startsWith("lb.connections ")).count();
            final var expired = executor.runtime().instance(0).counters().get("lb.expired");
            return new Run(records, state, expired == null ? -1 : expired.get(), connections, lastTimeNs[0],
                executor.faults().faults());
        }
    }

    private record Run(
        List<String> records, String state, long expired, long connections, long lastTimeNs, List<FaultLog.Fault> faults)
    {
    }

    /**
     * Three packets of each of 8 UDP flows, {@code gapNs} apart; then {@code quietPolls} polls with
     * nothing, each moving the wall clock on by 1 ms; then one packet of a new flow stamped
     * behind the last one; then the end.
     */
    private static final class PausingSource implements PacketSource
    {
        private final boolean live;
        private final int quietPolls;
        private final long gapNs;
        private final Wall wall;
        private final SourceStats stats = new SourceStats();
        private int delivered;
        private int quiet;

        PausingSource(final boolean live, final int quietPolls, final long gapNs, final Wall wall)
        {
            this.live = live;
            this.quietPolls = quietPolls;
            this.gapNs = gapNs;
            this.wall = wall;
        }

        @Override
        public int poll(final PacketBuffer dst)
        {
            if (delivered < BEFORE_PAUSE)
            {
                final int flow = delivered % FLOWS;
                return deliver(dst, "10.0.0." + (flow + 1), 5_000 + flow, FIRST_NS + delivered * gapNs);
            }
            if (quiet < quietPolls)
            {
                quiet++;
                wall.nowNs += WALL_STEP_NS;
                return NOTHING_YET;
            }
            if (delivered == BEFORE_PAUSE)
            {
                return deliver(dst, "10.0.1.1", 6_000, LATE_NS);
            }
            return END;
        }

        private int deliver(final PacketBuffer dst, final String src, final int srcPort, final long timestampNs)
        {
            final FrameBuilder builder = new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse("198.51.100.1")).udp(srcPort, 53);
            final int length = builder.length();
            builder.write(dst.data(), 0);
            dst.commit(length, length, timestampNs, delivered);
            stats.onPacket(length);
            delivered++;
            return PACKET;
        }

        @Override
        public boolean next(final PacketBuffer dst)
        {
            int read;
            while ((read = poll(dst)) == NOTHING_YET)
            {
                Thread.onSpinWait();
            }
            return read == PACKET;
        }

        @Override
        public boolean live()
        {
            return live;
        }

        @Override
        public SourceStats stats()
        {
            return stats;
        }

        @Override
        public String describe()
        {
            return (live ? "live" : "replayable") + " test source that pauses";
        }

        @Override
        public void close()
        {
        }

        /** Wall time that moves only when the source has nothing. */
        static final class Wall implements LongSupplier
        {
            long nowNs = 7_000_000_000L;

            @Override
            public long getAsLong()
            {
                return nowNs;
            }
        }
    }
}
