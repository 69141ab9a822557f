package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.checkpoint.CheckpointException;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Checkpoints are the source of truth, the Chronicle file a cache: a run that fails after its
 * last checkpoint leaves a file that holds more than the checkpoint, and the resumed run must
 * end with the oracle's final state all the same (the file is cleared before the checkpoint is
 * restored into it).
 */
class StoreResumeTest
{
    private static final String CHAIN = """
        name: resumed
        vnfs:
          - name: lb
            type: load-balancer
            params: { servers: 64, candidates: 3, idle_timeout: 2s }
            tables:
              connections: { store: chronicle, expected_entries: 50000 }
              connection-bytes: { store: chronicle, expected_entries: 50000 }
        settings:
          executor_threads: 2
          punctuation: { transactions: 128 }
          chronicle: { dir: "%s" }
          traffic:
            generate: { packets: 60000, flows: 3000, new_conn_ratio: 0.2, seed: 11 }
        """;

    @TempDir
    Path dir;

    @Test
    void shouldEndWithTheOraclesStateWhenResumedOverAFileAheadOfTheCheckpoint() throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, dir.resolve("state")), "resumed.yaml");
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 50, 0, 4);
        final AtomicLong egressed = new AtomicLong();
        try (BatchedChainExecutor first = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            assertThrows(IOException.class, () -> first.run(source, (record, buffer, packet) ->
            {
                if (egressed.incrementAndGet() == 40_000)
                {
                    // the run dies here: its Chronicle files hold the batches after the last checkpoint
                    throw new UncheckedIOException(new IOException("simulated crash"));
                }
            }));
        }
        final String resumedState;
        try (BatchedChainExecutor resumed = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final List<CheckpointException> refused = new ArrayList<>();
            resumed.checkpointWith(Checkpointer.resume(checkpoints, chain, resumed.runtime().catalog(), refused::add));
            assertEquals(List.of(), refused, "every checkpoint of the failed run is readable");
            resumed.run(source, null);
            resumedState = resumed.dumpState();
        }
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, null);
            assertEquals(oracle.dumpState(), resumedState);
        }
    }
}
