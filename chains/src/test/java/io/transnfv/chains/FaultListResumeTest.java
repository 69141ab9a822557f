package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault list travels with the checkpoints: a run killed after VNF code threw on some
 * packets and resumed reports the same faults — per VNF, callback and exception class, the
 * packets and the first of them with its message and stack trace — as an uninterrupted run.
 */
class FaultListResumeTest
{
    @TempDir
    Path dir;

    static Stream<Arguments> cases()
    {
        return Stream.of(
            Arguments.of(FaultyVnf.Where.PRE_PROCESS, "serial", "serial"),
            Arguments.of(FaultyVnf.Where.STATE_FUNCTION, "tpg", "tpg"),
            Arguments.of(FaultyVnf.Where.POST_PROCESS, "tpg", "serial"));
    }

    @ParameterizedTest(name = "{0}: killed on {1}, resumed on {2}")
    @MethodSource("cases")
    void shouldReportTheFaultsOfAnUninterruptedRunAfterAResume(final FaultyVnf.Where where, final String killed, final String resumedBy)
        throws IOException
    {
        final ChainSpec chain = FaultIsolationTest.chain(where, FaultyVnf.How.EXCEPTION, FaultSettings.defaults().withErrorBound(1.0), null);
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 5, 0, 3);
        final List<FaultLog.Fault> uninterrupted;
        try (ChainExecutor run = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            run.run(source, null);
            uninterrupted = run.faults().faults();
        }
        assertEquals(1, uninterrupted.size(), uninterrupted::toString);
        assertTrue(uninterrupted.get(0).packets() > 20, uninterrupted::toString);

        final AtomicLong egressed = new AtomicLong();
        try (ChainExecutor first = executor(killed).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            try
            {
                first.run(source, (record, buffer, packet) ->
                {
                    if (egressed.incrementAndGet() == 2_000)
                    {
                        throw new UncheckedIOException(new IOException("simulated crash"));
                    }
                });
            }
            catch (final IOException | UncheckedIOException e)
            {
                // the run died after its faults were counted in some checkpoints
            }
        }
        try (ChainExecutor resumed = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final Checkpointer checkpointer = Checkpointer.resume(checkpoints, chain, resumed.runtime().catalog(), e -> { throw new AssertionError(e); });
            final long cut = checkpointer.resumeInputPackets();
            assertTrue(cut > uninterrupted.get(0).firstSequence() + 97 * 5, "the cut comes after several faults: " + cut);
            resumed.checkpointWith(checkpointer);
            resumed.run(source, null);

            assertEquals(uninterrupted, resumed.faults().faults(), "the resumed run's fault list");
            final String trace = resumed.faults().firstThrows().get(0).stackTrace();
            assertTrue(trace.startsWith(IllegalStateException.class.getName()) && trace.contains("\tat "), trace);
        }
    }

    private static Function<ChainSpec, ChainExecutor> executor(final String kind)
    {
        return kind.equals("serial") ? SerialChainExecutor::new : spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg");
    }
}
