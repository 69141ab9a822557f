package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chain of tenants whose tables are judged only at their tenants' own checks by packet count
 * (their expiry periods are longer than the traffic) resumes where an uninterrupted run is: the
 * resumed run rebuilds each tenant's count from the packets it skips, so its tenants' tables
 * close and reopen before the same packets, and it ends with the oracle's records after the cut
 * and the oracle's final state, on either executor.
 */
class TenantCheckResumeTest
{
    private static final String CHAIN = """
        name: tenant-checks
        tenants:
          - name: a
            match: { src_net: 10.0.0.0/25 }
            chain: { vnfs: [ { name: m, type: flow-monitor, params: { idle_timeout: 60s, host_idle_timeout: 0s, expiry_interval: 10s } } ] }
            limits: { entries: 300 }
          - name: b
            chain: { vnfs: [ { name: lb, type: load-balancer, params: { servers: 8, idle_timeout: 60s, expiry_interval: 10s } } ] }
            limits: { entries: 200 }
        settings:
          executor_threads: 2
          punctuation: { transactions: 64 }
          traffic:
            generate: { packets: 30000, flows: 6000, hosts: 250, new_conn_ratio: 0.4, rate_pps: 100000, seed: %d }
        """;

    @TempDir
    Path dir;

    static Stream<Arguments> cases()
    {
        return Stream.of(
            Arguments.of("serial", "bfs/op/eager", 1, 11_000),
            Arguments.of("dfs/group/lazy", "serial", 2, 17_000),
            Arguments.of("adaptive", "adaptive", 3, 23_000));
    }

    @ParameterizedTest(name = "{0} killed after {3} records, resumed by {1}; seed {2}")
    @MethodSource("cases")
    void shouldCloseEachTenantsTablesBeforeTheSamePacketsWhenResumed(final String killed, final String resumedBy, final int seed,
        final long killAfter) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, seed), "tenant-checks.yaml");
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 7, 0, 3);
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
            cut = checkpointer.resumeInputPackets();
            assertTrue(cut > 2 * 1024, "the cut follows several checks of each tenant: " + cut);
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
            assertEquals(oracle.dumpState(), resumedState, "final state");
        }
        final List<String> after = oracleRecords.subList((int)cut, oracleRecords.size());
        for (final String stage : new String[] {"a-m", "b-lb"})
        {
            assertTrue(after.stream().anyMatch(r -> r.contains(" DROP " + stage + ":state-full ")), "tenant " + stage + " is full after the cut");
        }
        assertEquals(after, resumedRecords, "records after the cut at packet " + cut);
    }

    private static Function<ChainSpec, ChainExecutor> executor(final String kind)
    {
        return kind.equals("serial") ? SerialChainExecutor::new
            : spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, kind), kind);
    }
}
