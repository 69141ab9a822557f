package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The error bound's window travels with the checkpoints. A VNF fails on 10 of the first 100
 * packets (too few packets for the window to be judged) and then on packet 150 alone: counted
 * from the first packet, 11 of 151 packets failed, above a bound of 5 %, and the run stops there.
 * A run killed after a checkpoint between packets 51 and 150 (the serial oracle's is at 128, the
 * engine's where its batches closed) and resumed must stop at the same packet with the same
 * message; a window started afresh at the cut would hold fewer than 100 packets at packet 150,
 * too few to judge, and the resumed run would go on to the end.
 */
class ErrorWindowResumeTest
{
    private static final long PACKETS = 2_000;
    private static final int BATCH = 64;
    private static final int STOP_AT = 150;

    @TempDir
    Path dir;

    static Stream<Arguments> cases()
    {
        return Stream.of(Arguments.of("serial", "serial"), Arguments.of("tpg", "tpg"), Arguments.of("tpg", "serial"),
            Arguments.of("serial", "tpg"));
    }

    @ParameterizedTest(name = "killed on {0}, resumed on {1}")
    @MethodSource("cases")
    void shouldStopAResumedRunAtThePacketAndWithTheMessageOfAnUninterruptedOne(final String killed, final String resumedBy)
        throws IOException
    {
        final ChainSpec chain = chain(chosenTimes());
        final String uninterruptedMessage;
        final long uninterruptedFinished;
        try (ChainExecutor run = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            uninterruptedFinished = run.run(source, null).packetsFinished();
            assertEquals(RunControl.StopCause.ERROR_BOUND, run.control().stopCause(), run.describe());
            uninterruptedMessage = run.control().message();
        }
        assertTrue(uninterruptedMessage.startsWith("11 of 151 packets"), uninterruptedMessage);
        assertTrue(uninterruptedFinished < PACKETS, "stopped early: " + uninterruptedFinished);

        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 1, 0, 4);
        final AtomicLong egressed = new AtomicLong();
        try (ChainExecutor first = executor(killed).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            try
            {
                first.run(source, (record, buffer, packet) ->
                {
                    if (egressed.incrementAndGet() == 2 * BATCH + 10)
                    {
                        throw new UncheckedIOException(new IOException("simulated crash"));
                    }
                });
            }
            catch (final IOException | UncheckedIOException e)
            {
                // the run died between its checkpoint at packet 128 and the packet that crosses the bound
            }
        }

        // what the crash left: the killed engine's IO role may still be finishing a checkpoint in the directory
        final CheckpointSettings left = new CheckpointSettings(dir.resolve("left"), 1, 0, 4);
        Files.createDirectories(left.directory());
        try (Stream<Path> files = Files.list(checkpoints.directory()))
        {
            for (final Path file : files.filter(f -> !f.getFileName().toString().endsWith(".tmp")).toList())
            {
                try
                {
                    Files.copy(file, left.directory().resolve(file.getFileName()));
                }
                catch (final NoSuchFileException e)
                {
                    // deleted by the killed run's retention meanwhile: a crash could have left it either way
                }
            }
        }
        try (ChainExecutor resumed = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final Checkpointer checkpointer = Checkpointer.resume(left, chain, resumed.runtime().catalog(),
                e -> { throw new AssertionError(e); });
            final long cut = checkpointer.resumeInputPackets();
            // a window started afresh at the cut would hold fewer than 100 packets at packet 150
            assertTrue(cut > STOP_AT + 1 - FaultSettings.MIN_WINDOW_PACKETS && cut <= STOP_AT,
                "the cut is in the window, before the packet that crosses the bound: " + cut);
            resumed.checkpointWith(checkpointer);
            final long finished = resumed.run(source, null).packetsFinished();

            assertEquals(RunControl.StopCause.ERROR_BOUND, resumed.control().stopCause(), resumed.describe() + " finished " + finished);
            assertEquals(uninterruptedMessage, resumed.control().message());
            if (resumedBy.equals("serial"))
            {
                assertEquals(uninterruptedFinished, finished, "the oracle stops right after the packet that crossed the bound");
            }
            else
            {
                // the engine finishes the batches it had read when the bound was crossed: how many depends on its pipeline
                assertTrue(finished > STOP_AT && finished < PACKETS, "finished " + finished);
            }
        }
    }

    /** @return the times of packets 5, 15, ..., 95 and 150 of the chain's traffic. */
    private static Set<Long> chosenTimes() throws IOException
    {
        final List<Long> times = new ArrayList<>();
        try (PacketSource source = PacketSources.open(chain(Set.of()).settings().traffic()))
        {
            final PacketBuffer buffer = new PacketBuffer();
            while (times.size() <= STOP_AT && source.next(buffer))
            {
                times.add(buffer.timestampNs());
            }
        }
        final Set<Long> chosen = new HashSet<>();
        for (int i = 5; i < 100; i += 10)
        {
            chosen.add(times.get(i));
        }
        chosen.add(times.get(STOP_AT));
        assertEquals(11, chosen.size(), "the chosen packets have times of their own");
        assertEquals(11, times.stream().filter(chosen::contains).count(), "and no other packet up to 150 shares one");
        return chosen;
    }

    private static ChainSpec chain(final Set<Long> chosen)
    {
        final VnfFactory lb = VnfRegistry.load().find("load-balancer");
        final GeneratorConfig.Builder traffic = GeneratorConfig.builder();
        traffic.set("packets", Long.toString(PACKETS));
        traffic.set("flows", "200");
        traffic.set("new_conn_ratio", "0.3");
        traffic.set("seed", "23");
        final RunSettings settings = new RunSettings(BATCH, 1_000_000L, 2, TrafficSpec.generate(traffic.build()), null)
            .withFaults(FaultSettings.defaults().withErrorBound(0.05));
        return new ChainSpec("faulty-window", "", List.of(
            new VnfNode("faulty", FaultyVnf.factory(FaultyVnf.Where.PRE_PROCESS, FaultyVnf.How.EXCEPTION, chosen::contains,
                new AtomicBoolean(true)), VnfConfig.of(List.of(), Map.of())),
            new VnfNode("lb", lb, VnfConfig.of(lb.params(), Map.of("servers", 8, "candidates", 3)))),
            List.of(new EdgeSpec("faulty", "out", EdgeSpec.ALWAYS, "", "lb")), settings);
    }

    private static Function<ChainSpec, ChainExecutor> executor(final String kind)
    {
        return kind.equals("serial") ? SerialChainExecutor::new : spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg");
    }
}
