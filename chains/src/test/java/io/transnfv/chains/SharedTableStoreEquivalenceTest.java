package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.SharedTableSpec;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.state.store.LocalRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table shared across VNFs keeps chain output equivalence in every store: the shipped
 * {@code fw-scan-block} chain with its block list {@code chain.blocked} in Chronicle Map and in a
 * real Redis server (the VNFs' own tables in the heap, or in the same store) equals the serial
 * oracle, all in the heap, with every strategy on 1 to 8 executor threads and batch sizes from 1
 * to 256, on traffic whose hosts scan, and when resumed from a checkpoint; and the engine really
 * keeps the block list in that store. The heap case is {@link SharedTableEquivalenceTest}'s.
 */
class SharedTableStoreEquivalenceTest
{
    private static final String SCANNING = "packets=6000,flows=400,hosts=8,new_conn_ratio=0.3,tcp_ratio=0.9,seed=";
    private static LocalRedisServer redis;
    private static String redisUrl;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() throws IOException, InterruptedException
    {
        redis = LocalRedisServer.start();
        redisUrl = redis.url();
    }

    @AfterAll
    static void stopRedis() throws InterruptedException, IOException
    {
        if (redis != null)
        {
            redis.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithTheSharedTableInChronicle()
    {
        return cases(StoreKind.CHRONICLE, 100);
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithTheSharedTableInRedis()
    {
        return cases(StoreKind.REDIS, 200);
    }

    /**
     * {@code fw-scan-block} with {@code shared_tables: [{ name: blocked, store: <kind> }]}; with
     * {@code everyTable}, its VNFs' tables in that store too (the chain's default store).
     */
    static ChainSpec shippedIn(final StoreKind kind, final boolean everyTable, final String generate, final int batch, final int threads,
        final String prefix)
    {
        final ChainSpec base = new ChainLoader().loadBundled("fw-scan-block");
        final List<SharedTableSpec> shared = new ArrayList<>();
        for (final SharedTableSpec table : base.sharedTables())
        {
            // Chronicle Map is sized when it is created: the validator asks for expected_entries beside 'store: chronicle'
            shared.add(new SharedTableSpec(table.name(), table.keyKind(), Math.max(1_024, table.expectedEntries()), table.capacity(), kind));
        }
        StoreSettings stores = base.settings().stores().withRedis(redisUrl, prefix, false);
        if (everyTable && kind == StoreKind.REDIS)
        {
            // Chronicle as the default would need every VNF table sized; Redis needs nothing
            stores = stores.withDefaultKind(kind);
        }
        final ChainSpec chain = new ChainSpec(base.name(), base.description(), base.vnfs(), base.edges(), base.settings().withStores(stores),
            shared);
        return chain.withSettings(chain.settings().withTraffic(TrafficSpec.generate(GeneratorConfig.parse(generate)))
            .withPunctuation(batch, 1_000_000).withExecutorThreads(threads));
    }

    private static Stream<DynamicTest> cases(final StoreKind kind, final long firstSeed)
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final int[] batches = {1, 32, 256};
        final List<String> strategies = TpgBatchExecutor.strategyNames();
        tests.add(DynamicTest.dynamicTest("the block list is kept in " + kind.yamlName(), () -> assertKeptIn(kind)));
        long seed = firstSeed;
        int i = 0;
        for (final int threads : new int[] {1, 2, 4, 8})
        {
            final String strategy = strategies.get(i % strategies.size());
            final String generate = SCANNING + seed++;
            final int batch = batches[i % batches.length];
            final boolean everyTable = i % 2 == 1;
            final String prefix = "shared-" + kind.yamlName() + "-" + i;
            tests.add(DynamicTest.dynamicTest(threads + " threads, " + strategy + ", batches of " + batch + ", " + generate
                    + (everyTable ? ", every table in " + kind.yamlName() : ""),
                () -> assertEquivalent(shippedIn(kind, everyTable, generate, batch, threads, prefix), strategy)));
            i++;
        }
        return tests.stream();
    }

    /**
     * A run with the block list in {@code kind}, stopped after many checkpoints and resumed from its
     * last, ends with the oracle's state, the block list included, and gives the oracle's records
     * for every packet after the cut: the checkpoint, not what the store held when the run stopped,
     * is what the resumed run starts from.
     */
    @TestFactory
    Stream<DynamicTest> shouldEndWithTheOraclesBlockListWhenResumedFromACheckpoint()
    {
        return Stream.of(StoreKind.CHRONICLE, StoreKind.REDIS).map(kind -> DynamicTest.dynamicTest(kind.yamlName(), () -> assertResumes(kind)));
    }

    private void assertResumes(final StoreKind kind) throws IOException
    {
        SharedTableEquivalenceTest.assertResumesAsTheOracle(shippedIn(kind, false, SCANNING + 3, 64, 2, "shared-resumed-" + kind.yamlName()),
            new CheckpointSettings(dir.resolve("ckpt-" + kind.yamlName()), 7, 0, 3));
    }

    /** The run's description names where state lives: the block list in the store, not in the heap. */
    private static void assertKeptIn(final StoreKind kind) throws IOException
    {
        final ChainSpec chain = shippedIn(kind, false, SCANNING + 1, 64, 2, "shared-placed-" + kind.yamlName());
        try (BatchedChainExecutor executor = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg"))
        {
            final int table = executor.runtime().catalog().find("chain", "blocked");
            assertEquals(kind, executor.runtime().storeKind(table));
            final String description = executor.describe();
            final String inStore = description.substring(description.indexOf(", tables in " + kind.yamlName()));
            assertTrue(inStore.contains("chain.blocked"), () -> "the block list is in " + kind.yamlName() + ": " + description);
            assertTrue(!inStore.contains("fw.") && !inStore.contains("scan."), () -> "the VNFs' own tables stay in the heap: " + description);
        }
    }

    private static void assertEquivalent(final ChainSpec chain, final String strategy) throws IOException
    {
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, n -> TpgBatchExecutor.create(n, strategy), strategy));
        assertTrue(result.equivalent(), () -> strategy + ": first diverging packet #" + result.divergingSequence()
            + "\n oracle: " + result.oracleRecord() + "\n engine: " + result.candidateRecord() + "\n state: " + result.stateDifference());
        assertTrue(result.checkersHeld(), () -> strategy + ": checkers violated: oracle " + result.oracleCheckers() + ", engine "
            + result.candidateCheckers());
    }
}
