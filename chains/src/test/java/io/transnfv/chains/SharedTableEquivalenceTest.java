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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables shared across VNFs ({@code shared_tables:}) keep chain output equivalence: the shipped
 * {@code fw-scan-block} chain, where the port-scan detector writes the hosts it reports into a
 * block list that the firewall before it reads, and random chains of firewalls, detectors and
 * monitors bound to one or two block lists in either order, equal the serial oracle with every
 * strategy on 1 to 8 executor threads and batch sizes from 1 to 512 (seeded traffic with few
 * hosts, so that they scan); so does a run resumed from a checkpoint. A guard checks that the
 * backward case happens: a host the detector flags is dropped by the firewall, earlier in the
 * chain, in the very batch it was flagged in, which running the batch stage by stage would miss.
 */
class SharedTableEquivalenceTest
{
    private static final String SCANNING = "packets=6000,flows=400,hosts=8,new_conn_ratio=0.3,tcp_ratio=0.9,seed=";

    @TempDir
    Path dir;

    private static ChainSpec shipped(final String generate, final int batch, final int threads)
    {
        final ChainSpec base = new ChainLoader().loadBundled("fw-scan-block");
        return base.withSettings(base.settings().withTraffic(TrafficSpec.generate(GeneratorConfig.parse(generate)))
            .withPunctuation(batch, 1_000_000).withExecutorThreads(threads));
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithEveryStrategyAndThreadCount()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final int[] batches = {1, 32, 256};
        long seed = 1;
        for (final int threads : new int[] {1, 2, 4, 8})
        {
            for (final String strategy : TpgBatchExecutor.strategyNames())
            {
                final String generate = SCANNING + seed++;
                final int batch = batches[tests.size() % batches.length];
                tests.add(DynamicTest.dynamicTest(threads + " threads, " + strategy + ", batches of " + batch + ", " + generate,
                    () -> assertEquivalent(shipped(generate, batch, threads), strategy, generate)));
            }
        }
        return tests.stream();
    }

    /**
     * The backward case: a packet of the detector (stage 2) flags its source, and a later packet of
     * that source in the same batch is dropped by the firewall (stage 1) as {@code fw:blocked}; the
     * engine gives the oracle's records, so it drops it there too.
     */
    @Test
    void shouldDropAFlaggedHostsLaterPacketsInTheBatchItWasFlaggedIn() throws IOException
    {
        final int batch = 256;
        final ChainSpec chain = shipped(SCANNING + 7, batch, 2);
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));
        }
        // the sequence each scanner was flagged at, by the source address its alert names
        final Map<String, Long> flaggedAt = new HashMap<>();
        int sameBatch = 0;
        for (final String record : records)
        {
            final String[] fields = record.split(" ");
            final long sequence = Long.parseLong(fields[0]);
            // sequence time verdict [reason] path protocol source:port>destination:port ...
            final int tuple = record.contains(" DROP ") ? 6 : 5;
            final String source = fields.length > tuple ? fields[tuple].split("[:>]")[0] : "-";
            if (record.contains("alert=scan:port-scan"))
            {
                flaggedAt.putIfAbsent(source, sequence);
            }
            if (record.contains("DROP fw:blocked"))
            {
                final Long flagged = flaggedAt.get(source);
                assertTrue(flagged != null && flagged < sequence, () -> "a host is blocked only after its alert: " + record);
                if (flagged / batch == sequence / batch)
                {
                    sameBatch++;
                }
            }
        }
        assertTrue(flaggedAt.size() >= 2, "several hosts scan: " + flaggedAt);
        assertTrue(sameBatch > 0, "some host is dropped in the batch its alert is raised in");
        assertEquivalent(chain, "adaptive", "the backward case");
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnRandomChainsWithSharedTables()
    {
        final int seeds = Integer.getInteger("transnfv.shared.seeds", 24);
        return LongStream.range(0, seeds).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> checkRandomChain(seed)));
    }

    private static void checkRandomChain(final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final String yaml = randomChain(random);
        final int threads = 1 + random.nextInt(4);
        final int[] batches = {1, 3, 16, 64, 512};
        final int batch = batches[random.nextInt(batches.length)];
        final List<String> strategies = TpgBatchExecutor.strategyNames();
        final String strategy = strategies.get(random.nextInt(strategies.size()));
        final String generate = "packets=3000,flows=" + (100 + random.nextInt(400)) + ",hosts=" + (2 + random.nextInt(12))
            + ",new_conn_ratio=0." + (1 + random.nextInt(5)) + ",tcp_ratio=0.9,seed=" + seed;
        final ChainSpec base = new ChainLoader().parse(yaml, "random-" + seed + ".yaml");
        final ChainSpec chain = base.withSettings(base.settings().withTraffic(TrafficSpec.generate(GeneratorConfig.parse(generate)))
            .withPunctuation(batch, 1_000_000).withExecutorThreads(threads));
        assertEquivalent(chain, strategy, "seed " + seed + " (" + threads + " threads, batches of " + batch + ", " + generate + ")\n" + yaml);
    }

    /**
     * A line of 2 to 6 VNFs (firewalls, port-scan detectors, flow monitors) in random order, some
     * bound to block list {@code a} or {@code b}, each table with a reader and a writer; TCP may
     * skip a VNF through an edge of its own, so that packets enter the fused stages part way.
     */
    private static String randomChain(final SplittableRandom random)
    {
        final List<String> vnfs = new ArrayList<>();
        final List<String> tables = random.nextBoolean() ? List.of("a") : List.of("a", "b");
        for (final String table : tables)
        {
            vnfs.add("firewall " + table);
            vnfs.add("port-scan-detector " + table);
        }
        final int others = random.nextInt(3);
        for (int i = 0; i < others; i++)
        {
            final int kind = random.nextInt(3);
            vnfs.add(kind == 0 ? "flow-monitor -" : kind == 1 ? "firewall -" : "port-scan-detector -");
        }
        for (int i = vnfs.size() - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final String swap = vnfs.get(i);
            vnfs.set(i, vnfs.get(j));
            vnfs.set(j, swap);
        }
        final StringBuilder yaml = new StringBuilder("name: random-shared\nshared_tables:\n");
        for (final String table : tables)
        {
            yaml.append("  - { name: ").append(table).append(", key: host")
                .append(random.nextInt(3) == 0 ? ", capacity: " + (1 + random.nextInt(4)) : "").append(" }\n");
        }
        yaml.append("vnfs:\n");
        for (int i = 0; i < vnfs.size(); i++)
        {
            final String[] typeAndTable = vnfs.get(i).split(" ");
            yaml.append("  - name: v").append(i).append("\n    type: ").append(typeAndTable[0]).append('\n');
            if (typeAndTable[0].equals("firewall"))
            {
                yaml.append("    params: { internal_net: [10.0.0.0/8], default_action: allow, idle_timeout: ").append(1 + random.nextInt(60))
                    .append("s }\n");
            }
            if (typeAndTable[0].equals("port-scan-detector"))
            {
                yaml.append("    params: { threshold: ").append(2 + random.nextInt(12)).append(", window: ").append(1 + random.nextInt(10))
                    .append("s }\n");
            }
            if (!typeAndTable[1].equals("-"))
            {
                yaml.append("    shared: { blocklist: ").append(typeAndTable[1]).append(" }\n");
            }
        }
        yaml.append("edges:\n");
        for (int i = 0; i + 1 < vnfs.size(); i++)
        {
            if (i + 2 < vnfs.size() && random.nextInt(3) == 0)
            {
                yaml.append("  - { from: v").append(i).append(", to: v").append(i + 2).append(", when: { proto: tcp } }\n");
            }
            yaml.append("  - { from: v").append(i).append(", to: v").append(i + 1).append(" }\n");
        }
        return yaml.toString();
    }

    /**
     * A run stopped after many checkpoints and resumed from its last ends with the oracle's state,
     * the block list included, and gives the oracle's records for every packet after the cut.
     */
    @Test
    void shouldEndWithTheOraclesBlockListWhenResumedFromACheckpoint() throws IOException
    {
        final String oracleState = assertResumesAsTheOracle(shipped(SCANNING + 3, 64, 2), new CheckpointSettings(dir.resolve("ckpt"), 7, 0, 3));
        assertTrue(oracleState.lines().noneMatch(l -> l.contains("blocklist")), "and under no VNF's name");
    }

    /**
     * Runs {@code chain} with checkpoints until a stop after 3,000 packets, resumes it from its last
     * checkpoint, and checks the resumed run's final state and its records after the cut against
     * the serial oracle's, the block list included and used.
     *
     * @return the oracle's final state.
     */
    static String assertResumesAsTheOracle(final ChainSpec chain, final CheckpointSettings checkpoints) throws IOException
    {
        try (BatchedChainExecutor first = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            first.checkpointWith(Checkpointer.start(checkpoints, chain, first.runtime().catalog()));
            first.run(stopping(source, 3_000, first.control()), null);
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
            cut = checkpointer.resumeInputPackets();
            assertTrue(cut >= 3_000, "resumes where the run stopped: " + cut);
            resumed.checkpointWith(checkpointer);
            resumed.run(source, (record, buffer, packet) -> resumedRecords.add(record.format(new StringBuilder(), resumed.runtime(), packet)
                .toString()));
            resumedState = resumed.dumpState();
        }
        final List<String> oracleRecords = new ArrayList<>();
        final String oracleState;
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, (record, buffer, packet) -> oracleRecords.add(record.format(new StringBuilder(), oracle.runtime(), packet)
                .toString()));
            oracleState = oracle.dumpState();
            assertEquals(oracleState, resumedState, "final state");
            assertTrue(oracleState.contains("chain.blocked "), "the block list is dumped as the chain's table");
        }
        assertEquals(oracleRecords.subList((int)cut, oracleRecords.size()), resumedRecords, "records after the cut at packet " + cut);
        assertTrue(resumedRecords.stream().anyMatch(r -> r.contains("DROP fw:blocked")), "the resumed run drops blocked hosts");
        return oracleState;
    }

    /** @return {@code source}, asking {@code control} to stop once it has handed over {@code packets} packets. */
    static PacketSource stopping(final PacketSource source, final long packets, final RunControl control)
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

    private static void assertEquivalent(final ChainSpec chain, final String strategy, final String what) throws IOException
    {
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
        assertTrue(result.equivalent(), () -> what + ", " + strategy + ": first diverging packet #" + result.divergingSequence()
            + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
    }
}
