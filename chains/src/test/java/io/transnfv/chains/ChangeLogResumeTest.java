package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.checkpoint.CheckpointException;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resume equivalence over chains of full and incremental checkpoints built from the tables'
 * change logs: a run that dies after many checkpoints (entries written, deleted on FIN, expired
 * by idle timeouts, evicted from full tables) and is resumed, possibly by the other executor,
 * ends with the oracle's final state and the oracle's records for every packet after the cut.
 * The engine runs fixed strategies (each batch through its graph and the collapse) and the
 * adaptive one (which runs most of these batches in serial order, through committed puts).
 * Whatever path changed an entry — a batch's collapse, a batch run in serial order, ADD commits,
 * housekeeping — the incremental checkpoints must hold it.
 */
class ChangeLogResumeTest
{
    private static final String CHAIN = """
        name: change-logged
        vnfs:
          - name: fw
            type: firewall
            params: { internal_net: [10.0.0.0/8], default_action: allow, idle_timeout: 2ms, expiry_interval: 1ms }
            tables: { connections: { capacity: 400, when_full: evict } }
          - name: lb
            type: load-balancer
            params: { servers: 16, candidates: 3, idle_timeout: 3ms, expiry_interval: 1ms }
            tables: { connections: { capacity: 300, when_full: evict } }
        edges:
          - { from: fw, to: lb }
        settings:
          executor_threads: 2
          punctuation: { transactions: %d }
          traffic:
            generate: { packets: 30000, flows: 5000, new_conn_ratio: 0.4, fin_ratio: 0.3, seed: %d }
        """;

    @TempDir
    Path dir;

    static Stream<Arguments> cases()
    {
        return Stream.of(
            Arguments.of("bfs/op/eager", "dfs/group/lazy", 64, 1, 11_000, 1000),
            Arguments.of("serial", "serial", 64, 2, 17_000, 1000),
            Arguments.of("adaptive", "serial", 128, 3, 23_000, 3),
            Arguments.of("serial", "bfs/group/lazy", 32, 4, 8_000, 3));
    }

    @ParameterizedTest(name = "{0} killed after {4} records, resumed by {1}; batches of {2}, seed {3}, every {5}th checkpoint full")
    @MethodSource("cases")
    void shouldEndAsTheOracleWhenResumedFromIncrementsWithDeletionsExpiryAndEvictions(
        final String killed, final String resumedBy, final int batch, final int seed, final long killAfter, final int fullEvery)
        throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, batch, seed), "change-logged.yaml");
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 7, 0, fullEvery);
        final AtomicLong egressed = new AtomicLong();
        try (ChainExecutor first = executor(killed).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            try
            {
                first.run(source, (record, buffer, packet) ->
                {
                    if (egressed.incrementAndGet() == killAfter)
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
        assertTrue(egressed.get() >= killAfter, "the run died where it was meant to");

        final List<String> resumedRecords = new ArrayList<>();
        final String resumedState;
        final long cut;
        try (ChainExecutor resumed = executor(resumedBy).apply(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final List<CheckpointException> refused = new ArrayList<>();
            final Checkpointer checkpointer = Checkpointer.resume(checkpoints, chain, resumed.runtime().catalog(), refused::add);
            assertEquals(List.of(), refused);
            final Checkpoint from = checkpointer.resumedFrom();
            assertTrue(from != null && from.id() > 4, "resumes from a late checkpoint: " + from);
            if (fullEvery > from.id())
            {
                assertFalse(from.full(), "resumes from the first full checkpoint and every increment since");
            }
            cut = checkpointer.resumeInputPackets();
            resumed.checkpointWith(checkpointer);
            resumed.run(source, (record, buffer, packet) -> resumedRecords.add(record.format(new StringBuilder(), resumed.runtime(), packet)
                .toString()));
            resumedState = resumed.dumpState();
        }

        final List<String> oracleRecords = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> oracleRecords.add(record.format(new StringBuilder(), oracle.runtime(), packet)
                .toString()));
            final long evicted = oracle.runtime().capacities().evicted(oracle.runtime().catalog().find("fw", "connections"))
                + oracle.runtime().capacities().evicted(oracle.runtime().catalog().find("lb", "connections"));
            assertTrue(evicted > 0, "the traffic must fill a table: " + evicted);
            assertFalse(oracle.dumpState().isEmpty());
            assertEquals(oracle.dumpState(), resumedState, "final state");
        }
        assertEquals(oracleRecords.subList((int)cut, oracleRecords.size()), resumedRecords, "records after the cut at packet " + cut);
    }

    private static Function<ChainSpec, ChainExecutor> executor(final String kind)
    {
        return kind.equals("serial") ? SerialChainExecutor::new
            : spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, kind), kind);
    }
}
