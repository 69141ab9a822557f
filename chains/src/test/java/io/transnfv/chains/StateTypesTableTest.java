package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.CheckpointException;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.ForwardingPacketSource;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.state.store.LocalRedisServer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Set, ring and struct tables ({@code type: set}, {@code ring}, {@code struct}) keep chain output
 * equivalence: {@link TestStateTypesFactory}'s set adds, removes, membership and size queries,
 * ring pushes and reads, and struct field updates that read other fields, with state-dependent aborts after them, equal the
 * serial oracle with every strategy on 1, 2, 4 and 8 executor threads (seeded traffic, few hosts so
 * that sets are shared and grow), in the heap, in Chronicle Map and in Redis, and across a
 * checkpoint and a resume.
 */
class StateTypesTableTest
{
    private static final String CHAIN = """
        name: port-sets
        vnfs:
          - name: ports
            type: test-state-types
            params: { threshold: 3, abort_every: 5 }
            tables:
              ports: { type: set%s }
              recent: { type: ring }
              hosts: { type: struct }
        settings:
          executor_threads: 2
          punctuation: { transactions: 128 }
          traffic:
            generate: { packets: 8000, flows: 600, hosts: 12, host_skew: 1.2, new_conn_ratio: 0.3, tcp_ratio: 0.8, seed: 5 }
        """;

    @TempDir
    Path dir;

    private static ChainSpec chain(final String tableSettings)
    {
        return new ChainLoader().parse(String.format(CHAIN, tableSettings), "port-sets.yaml");
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithEveryStrategyAndThreadCount()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final ChainSpec base = chain("");
        final String[] traffic = {
            "packets=8000,flows=600,hosts=12,host_skew=1.2,new_conn_ratio=0.3,tcp_ratio=0.8,seed=",
            "packets=8000,flows=3000,hosts=3,host_skew=2.0,new_conn_ratio=0.6,tcp_ratio=1.0,seed="};
        long seed = 1;
        for (final int threads : new int[] {1, 2, 4, 8})
        {
            for (final String strategy : TpgBatchExecutor.strategyNames())
            {
                final String generate = traffic[tests.size() % traffic.length] + seed++;
                final int batch = tests.size() % 3 == 0 ? 32 : 256;
                tests.add(DynamicTest.dynamicTest(threads + " threads, " + strategy + ", " + generate, () ->
                {
                    final ChainSpec spec = base.withSettings(base.settings().withTraffic(TrafficSpec.generate(GeneratorConfig.parse(generate)))
                        .withPunctuation(batch, 1_000_000).withExecutorThreads(threads));
                    assertEquivalent(spec, strategy, generate);
                }));
            }
        }
        return tests.stream();
    }

    @ParameterizedTest
    @ValueSource(strings = {"chronicle", "redis"})
    void shouldEqualTheOracleInEveryStore(final String store) throws IOException, InterruptedException
    {
        if (store.equals("redis"))
        {
            try (LocalRedisServer redis = LocalRedisServer.start())
            {
                final ChainSpec spec = new ChainLoader().parse(String.format(CHAIN, "").replace("settings:\n",
                    "settings:\n  store: redis\n  redis: { url: \"" + redis.url() + "\" }\n"), "port-sets.yaml");
                for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
                {
                    assertEquivalent(spec, strategy, store);
                }
            }
            return;
        }
        for (final String strategy : List.of("bfs/op/eager", "dfs/group/lazy", "adaptive"))
        {
            // a directory per run: a Chronicle file left by a run is a warm start for the next
            final ChainSpec spec = new ChainLoader().parse(String.format(CHAIN, ", store: chronicle, expected_entries: 20000")
                .replace("settings:\n", "settings:\n  chronicle: { dir: \"" + dir.resolve(strategy.replace('/', '-')) + "\" }\n"),
                "port-sets.yaml");
            assertEquivalent(spec, strategy, store);
        }
    }

    /**
     * A run stopped after many checkpoints (its last one at the stop) and resumed from them ends
     * with the oracle's sets and gives the oracle's records for every packet after the cut, with
     * the set table in the heap or in Chronicle Map, and the value table beside it in either.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", ", store: chronicle, expected_entries: 20000",
        ", store: chronicle, expected_entries: 20000 }\n      seen: { store: chronicle, expected_entries: 20000"})
    void shouldEndWithTheOraclesSetsWhenResumedFromACheckpoint(final String tableSettings) throws IOException
    {
        final ChainSpec chain = new ChainLoader().parse(String.format(CHAIN, tableSettings)
            .replace("settings:\n", "settings:\n  chronicle: { dir: \"" + dir.resolve("state") + "\" }\n"), "port-sets.yaml");
        final CheckpointSettings checkpoints = new CheckpointSettings(dir.resolve("ckpt"), 7, 0, 3);
        try (BatchedChainExecutor first = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            first.run(stopping(source, 5_000, first.control()), null);
            assertEquals(RunControl.StopCause.TERMINATE, first.control().stopCause());
        }
        final List<String> resumedRecords = new ArrayList<>();
        final String resumedState;
        final long cut;
        try (BatchedChainExecutor resumed = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final List<CheckpointException> refused = new ArrayList<>();
            final Checkpointer checkpointer = Checkpointer.resume(checkpoints, chain, resumed.runtime().catalog(), refused::add);
            assertEquals(List.of(), refused, "every checkpoint of the stopped run is readable");
            assertTrue(checkpointer.resumedFrom() != null && checkpointer.resumedFrom().id() > 4, "resumes from a late checkpoint");
            cut = checkpointer.resumeInputPackets();
            assertTrue(cut >= 5_000, "resumes where the run stopped: " + cut);
            resumed.checkpointWith(checkpointer);
            resumed.run(source, (record, buffer, packet) -> resumedRecords.add(record.format(new StringBuilder(), resumed.runtime(), packet)
                .toString()));
            resumedState = resumed.dumpState();
        }
        final List<String> oracleRecords = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> oracleRecords.add(record.format(new StringBuilder(), oracle.runtime(), packet)
                .toString()));
            assertEquals(oracle.dumpState(), resumedState, "final state");
        }
        assertEquals(oracleRecords.subList((int)cut, oracleRecords.size()), resumedRecords, "records after the cut at packet " + cut);
    }

    /** @return {@code source}, asking {@code control} to stop once it has handed over {@code packets} packets. */
    private static PacketSource stopping(final PacketSource source, final long packets, final RunControl control)
    {
        return new ForwardingPacketSource(source)
        {
            private long read;

            @Override
            public boolean next(final PacketBuffer dst) throws SourceException
            {
                if (!source.next(dst))
                {
                    return false;
                }
                if (++read == packets)
                {
                    control.requestStop(RunControl.StopCause.TERMINATE, "stopped by the test");
                }
                return true;
            }
        };
    }

    @Test
    void shouldRaiseAlertsAndQueryMembersOnTheTraffic() throws IOException
    {
        // guards the equivalence tests above against traffic that never exercises the set
        final ChainSpec spec = chain("");
        final StringBuilder records = new StringBuilder();
        try (SerialChainExecutor oracle = new SerialChainExecutor(spec);
             PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> record.format(records, oracle.runtime(), packet).append('\n'));
        }
        final String text = records.toString();
        assertTrue(text.contains("many-ports"), "some source opened more ports than the threshold");
        assertTrue(text.contains("member=1"), "some packet found its port in its source's set");
        assertTrue(text.contains("pushes=9"), "some source's ring wrapped around");
        assertTrue(text.contains("packets=9"), "some source's struct counted its packets");
        assertTrue(text.contains("removed=1"), () -> "some FIN removed its port: " + text.lines().filter(l -> !l.contains("member=")).limit(30).toList());
    }

    private static void assertEquivalent(final ChainSpec chain, final String strategy, final String what) throws IOException
    {
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
        assertTrue(result.equivalent(), () -> what + ", " + strategy + ": first diverging packet #" + result.divergingSequence()
            + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
    }
}
