package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.instance.VnfInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fault injection: a VNF that throws an exception, throws an error or never returns on chosen
 * packets, in each of its callbacks, on the serial oracle and on the engine. A run completes
 * with the faulty packets counted as {@code faulty:vnf-error} drops and every record and the
 * final state equal to the oracle's; past the error bound it stops cleanly; a function that
 * never returns fails the run within the batch deadline, naming the VNF and the packet.
 */
class FaultIsolationTest
{
    private static final long PACKETS = 3_000;
    private static final long EVERY = 97;
    private static final String FAULTY = "faulty";

    static Stream<Arguments> faults()
    {
        return Stream.of(FaultyVnf.Where.PRE_PROCESS, FaultyVnf.Where.STATE_FUNCTION, FaultyVnf.Where.POST_PROCESS)
            .flatMap(where -> Stream.of(FaultyVnf.How.EXCEPTION, FaultyVnf.How.ERROR).map(how -> Arguments.of(where, how)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("faults")
    void shouldDropOnlyTheFaultyPacketsAndStillEqualTheOracle(final FaultyVnf.Where where, final FaultyVnf.How how)
        throws IOException
    {
        final ChainSpec chain = chain(where, how, FaultSettings.defaults().withErrorBound(1.0), null);
        final long expected = chosenPackets(chain);
        assertTrue(expected > 10, "the traffic must hit the fault: " + expected);

        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
        {
            final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
                spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, strategy), strategy));
            assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
                + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
            assertEquals(PACKETS, result.packets());
        }
        for (final Function<ChainSpec, ChainExecutor> executor : executors())
        {
            try (ChainExecutor run = executor.apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                final RunStats stats = run.run(source, null);
                final VnfInstance faulty = run.runtime().instance(0);
                assertEquals(PACKETS, stats.packetsFinished(), run.describe());
                assertEquals(expected, stats.drops(0, faulty.vnfErrorReason()), run.describe() + ": vnf-error drops");
                final List<FaultLog.Fault> faults = run.faults().faults();
                assertEquals(1, faults.size(), () -> run.describe() + ": " + faults);
                final FaultLog.Fault fault = faults.get(0);
                assertEquals(FAULTY, fault.vnf());
                assertEquals(expected, fault.packets());
                assertEquals(how == FaultyVnf.How.ERROR ? AssertionError.class.getName() : IllegalStateException.class.getName(),
                    fault.exception());
                assertEquals(RunControl.StopCause.NONE, run.control().stopCause());
            }
        }
    }

    @Test
    void shouldGoOnAfterHousekeepingThrowsAndStillEqualTheOracle() throws IOException
    {
        final ChainSpec chain = chain(FaultyVnf.Where.EXPIRE, FaultyVnf.How.EXCEPTION, FaultSettings.defaults(), null);
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg"));
        assertTrue(result.equivalent(), () -> "first diverging packet #" + result.divergingSequence() + " state "
            + result.stateDifference());
        for (final Function<ChainSpec, ChainExecutor> executor : executors())
        {
            try (ChainExecutor run = executor.apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                assertEquals(PACKETS, run.run(source, null).packetsFinished());
                final List<FaultLog.Fault> faults = run.faults().faults();
                assertEquals(1, faults.size(), faults::toString);
                assertEquals("expire", faults.get(0).callback());
            }
        }
    }

    @Test
    void shouldStopCleanlyPastTheErrorBound() throws IOException
    {
        // about 1 % of the packets fail; a bound of 0.5 % stops the run, a bound of 2 % does not
        final ChainSpec stopping = chain(FaultyVnf.Where.PRE_PROCESS, FaultyVnf.How.EXCEPTION,
            FaultSettings.defaults().withErrorBound(0.005), null);
        final ChainSpec going = chain(FaultyVnf.Where.PRE_PROCESS, FaultyVnf.How.EXCEPTION,
            FaultSettings.defaults().withErrorBound(0.02), null);
        for (final Function<ChainSpec, ChainExecutor> executor : executors())
        {
            try (ChainExecutor run = executor.apply(stopping); PacketSource source = PacketSources.open(stopping.settings().traffic()))
            {
                final RunStats stats = run.run(source, null);
                assertEquals(RunControl.StopCause.ERROR_BOUND, run.control().stopCause(), run.describe());
                assertTrue(stats.packetsFinished() < PACKETS, run.describe() + " finished " + stats.packetsFinished());
                assertTrue(run.control().message().contains("above the error bound of 0.5 %"), run.control().message());
            }
            try (ChainExecutor run = executor.apply(going); PacketSource source = PacketSources.open(going.settings().traffic()))
            {
                assertEquals(PACKETS, run.run(source, null).packetsFinished());
                assertEquals(RunControl.StopCause.NONE, run.control().stopCause());
            }
        }
    }

    static Stream<Arguments> hangs()
    {
        return Stream.of(FaultyVnf.Where.PRE_PROCESS, FaultyVnf.Where.STATE_FUNCTION, FaultyVnf.Where.POST_PROCESS)
            .flatMap(where -> Stream.of("serial", "tpg").map(executor -> Arguments.of(where, executor)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("hangs")
    @Timeout(60)
    void shouldFailWithinTheBatchDeadlineNamingTheVnfAndThePacketWhenCodeNeverReturns(
        final FaultyVnf.Where where, final String kind) throws IOException
    {
        final AtomicBoolean release = new AtomicBoolean();
        final ChainSpec chain = chain(where, FaultyVnf.How.HANG, FaultSettings.defaults().withBatchDeadline(300_000_000L), release);
        final long firstChosen = firstChosenSequence(chain);
        try (ChainExecutor run = "serial".equals(kind) ? new SerialChainExecutor(chain)
                : new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final long startNs = System.nanoTime();
            final RunFailedException failure = assertThrows(RunFailedException.class, () -> run.run(source, null));
            final long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            assertTrue(tookMs < 20_000, "took " + tookMs + " ms");
            final String message = failure.getMessage();
            assertTrue(message.contains("batch deadline"), message);
            assertTrue(message.contains("VNF '" + FAULTY + "'"), message);
            if (where != FaultyVnf.Where.STATE_FUNCTION || "serial".equals(kind))
            {
                assertTrue(message.contains(label(where) + " on packet #" + firstChosen), message);
            }
            else
            {
                assertTrue(message.contains("state function"), message);
            }
            assertTrue(message.contains("fix:"), message);
        }
        finally
        {
            release.set(true);
        }
    }

    private static String label(final FaultyVnf.Where where)
    {
        return switch (where)
        {
            case PRE_PROCESS -> "preProcess";
            case POST_PROCESS -> "postProcess";
            default -> "state function";
        };
    }

    private static List<Function<ChainSpec, ChainExecutor>> executors()
    {
        return List.of(SerialChainExecutor::new,
            spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, "adaptive"), "tpg adaptive"));
    }

    /** The faulty VNF, then the load balancer on its output: a fault must not disturb the next VNF's state either. */
    static ChainSpec chain(final FaultyVnf.Where where, final FaultyVnf.How how, final FaultSettings faults, final AtomicBoolean release)
    {
        final VnfFactory lb = VnfRegistry.load().find("load-balancer");
        final GeneratorConfig.Builder traffic = GeneratorConfig.builder();
        traffic.set("packets", Long.toString(PACKETS));
        traffic.set("flows", "200");
        traffic.set("new_conn_ratio", "0.3");
        traffic.set("seed", "11");
        final RunSettings settings = new RunSettings(64, 1_000_000L, 2, TrafficSpec.generate(traffic.build()), null)
            .withFaults(faults);
        return new ChainSpec("faulty", "", List.of(
            new VnfNode(FAULTY, FaultyVnf.factory(where, how, EVERY, release == null ? new AtomicBoolean(true) : release),
                VnfConfig.of(List.of(), Map.of())),
            new VnfNode("lb", lb, VnfConfig.of(lb.params(), Map.of("servers", 8, "candidates", 3)))),
            List.of(new EdgeSpec(FAULTY, "out", EdgeSpec.ALWAYS, "", "lb")), settings);
    }

    /** @return how many packets of the chain's traffic the faulty VNF fails on. */
    private static long chosenPackets(final ChainSpec chain) throws IOException
    {
        final FaultyVnf probe = new FaultyVnf(FaultyVnf.Where.NOWHERE, FaultyVnf.How.EXCEPTION, EVERY, new AtomicBoolean(true));
        long n = 0;
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final PacketBuffer buffer = new PacketBuffer();
            while (source.next(buffer))
            {
                n += probe.chosen(buffer.timestampNs()) ? 1 : 0;
            }
        }
        return n;
    }

    private static long firstChosenSequence(final ChainSpec chain) throws IOException
    {
        final FaultyVnf probe = new FaultyVnf(FaultyVnf.Where.NOWHERE, FaultyVnf.How.EXCEPTION, EVERY, new AtomicBoolean(true));
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final PacketBuffer buffer = new PacketBuffer();
            while (source.next(buffer))
            {
                if (probe.chosen(buffer.timestampNs()))
                {
                    return buffer.sequence();
                }
            }
        }
        throw new AssertionError("no packet is chosen");
    }
}
