package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.checkpoint.CheckpointException;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.executor.TpgBatchExecutor;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parameter changes survive a kill. A run changes its VNFs' parameters while it goes (the
 * firewall's rules, the load balancer's candidate count, each changed at a packet position, as
 * {@code POST /params/<vnf>} does), is killed after checkpoints later than every change, and is
 * resumed with no change given: the resumed run must go on with the parameters in force at the
 * cut, not the chain's, and so end with the final state and records of the oracle that applied
 * the same changes at the same packets. The oracle without the changes differs after the cut, so
 * a resume that started from the chain's parameters fails here.
 */
class ParamChangeResumeTest
{
    private static final String CHAIN = """
        name: param-resumed
        vnfs:
          - name: fw
            type: firewall
            params: { internal_net: [0.0.0.0/0], default_action: allow }
          - name: lb
            type: load-balancer
            params: { servers: 16, candidates: 3 }
        edges:
          - { from: fw, to: lb }
        settings:
          executor_threads: 2
          punctuation: { transactions: 64 }
          traffic:
            generate: { packets: 12000, flows: 3000, new_conn_ratio: 0.3, tcp_ratio: 0.7, seed: 17 }
        """;
    private static final long LAST_CHANGE_AT = 5_000;
    private static final long KILL_AFTER = 8_000;

    @TempDir
    Path dir;

    /** The changes: the last at {@link #LAST_CHANGE_AT}, and one VNF changed twice. */
    private static void script(final ChainExecutor executor)
    {
        final ParamChanges changes = executor.paramChanges().orElseThrow();
        changes.schedule(1_500, "lb", Map.of("candidates", 1));
        changes.schedule(3_000, "fw", Map.of("rules", List.of("deny udp any any")));
        changes.schedule(LAST_CHANGE_AT, "lb", Map.of("candidates", 2));
    }

    static Stream<Arguments> cases()
    {
        return Stream.of(Arguments.of("tpg", "tpg"), Arguments.of("serial", "serial"), Arguments.of("tpg", "serial"),
            Arguments.of("serial", "tpg"));
    }

    @ParameterizedTest(name = "killed on {0}, resumed on {1}")
    @MethodSource("cases")
    void shouldGoOnWithTheParametersInForceAtTheCutWhenResumed(final String killed, final String resumedBy) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(CHAIN, "param-resumed.yaml");
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 7, 0, 3);
        final AtomicLong egressed = new AtomicLong();
        try (ChainExecutor first = executor(killed).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            script(first);
            final Checkpointer checkpointer = Checkpointer.start(checkpoints, chain, first.runtime().catalog());
            first.checkpointWith(checkpointer);
            try
            {
                first.run(source, (record, buffer, packet) ->
                {
                    if (egressed.incrementAndGet() == KILL_AFTER)
                    {
                        throw new UncheckedIOException(new IOException("simulated crash"));
                    }
                });
            }
            catch (final IOException | UncheckedIOException e)
            {
                // the run died: what it left is its checkpoint directory
            }
        }
        assertTrue(egressed.get() >= KILL_AFTER, "the run died where it was meant to");

        final List<String> resumedRecords = new ArrayList<>();
        final String resumedState;
        final long cut;
        final List<ParamChanges.Applied> resumedApplied;
        try (ChainExecutor resumed = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final List<CheckpointException> refused = new ArrayList<>();
            final Checkpointer checkpointer = Checkpointer.resume(checkpoints, chain, resumed.runtime().catalog(), refused::add);
            assertEquals(List.of(), refused);
            final Checkpoint from = checkpointer.resumedFrom();
            assertTrue(from != null && from.inputPackets() > LAST_CHANGE_AT, "resumes after the last change: " + from);
            assertEquals(3, from.paramChanges().size(), "the checkpoint lists the changes: " + from.paramChanges());
            cut = checkpointer.resumeInputPackets();
            resumed.checkpointWith(checkpointer);
            resumed.run(source, (record, buffer, packet) -> resumedRecords.add(record.format(new StringBuilder(), resumed.runtime(), packet)
                .toString()));
            resumedState = resumed.dumpState();
            resumedApplied = resumed.paramChanges().orElseThrow().applied();
        }

        final Oracle changed = oracle(chain, ParamChangeResumeTest::script);
        assertEquals(changed.state, resumedState, "final state");
        assertEquals(changed.records.subList((int)cut, changed.records.size()), resumedRecords, "records after the cut at packet " + cut);
        assertEquals(changed.applied, resumedApplied, "the resumed run lists the changes carried, as the uninterrupted run does");

        final Oracle unchanged = oracle(chain, executor -> { });
        assertNotEquals(unchanged.records.subList((int)cut, unchanged.records.size()), resumedRecords,
            "the changes change the records after the cut, so carrying them is what this test checks");
    }

    private record Oracle(List<String> records, String state, List<ParamChanges.Applied> applied)
    {
    }

    private static Oracle oracle(final ChainSpec chain, final Consumer<ChainExecutor> changes) throws IOException
    {
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            changes.accept(oracle);
            oracle.run(source, (record, buffer, packet) -> records.add(record.format(new StringBuilder(), oracle.runtime(), packet)
                .toString()));
            return new Oracle(records, oracle.dumpState(), oracle.paramChanges().orElseThrow().applied());
        }
    }

    private static Function<ChainSpec, ChainExecutor> executor(final String kind)
    {
        return kind.equals("serial") ? SerialChainExecutor::new
            : spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, TpgBatchExecutor.DEFAULT_STRATEGY), kind);
    }
}
