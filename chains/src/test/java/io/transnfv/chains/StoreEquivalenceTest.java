package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.chain.TableSettings;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.state.store.LocalRedisServer;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chain output equivalence whatever the store: {@link ChainEquivalenceTest}'s random chains,
 * traffic, batch sizes and strategies, with every table in Chronicle Map, in a real Redis server,
 * or each table in a store drawn at random (heap, Chronicle, Redis), on 1 to 8 executor threads;
 * the serial oracle (all in the heap) judges the per-packet records and the final state. The
 * default suite checks a tenth of {@code transnfv.property.seeds} seeds per store (20).
 */
class StoreEquivalenceTest
{
    private static final int[] THREADS = {1, 2, 4, 8};
    private static LocalRedisServer redis;
    private static String redisUrl;

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
    Stream<DynamicTest> shouldEqualTheOracleWithEveryTableInChronicle()
    {
        return seeds(StoreKind.CHRONICLE, 0);
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithEveryTableInRedis()
    {
        return seeds(StoreKind.REDIS, 10_000);
    }

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleWithTablesInMixedStores()
    {
        return seeds(null, 20_000);
    }

    private static Stream<DynamicTest> seeds(final StoreKind kind, final long first)
    {
        final int seeds = Math.max(1, Integer.getInteger("transnfv.property.seeds", 200) / 10);
        return LongStream.range(first, first + seeds).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed, kind)));
    }

    /** @param kind every table's store, or null for a store drawn per table. */
    private static void check(final long seed, final StoreKind kind) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ChainSpec plain = ChainEquivalenceTest.randomChain(random);
        final ChainSpec chain = inStores(plain, kind, random, "coe-" + seed);
        final List<String> strategies = TpgBatchExecutor.strategyNames();
        final String strategy = strategies.get(random.nextInt(strategies.size()));
        final double jitter = random.nextInt(3) == 0 ? 0.2 : 0.0;
        final long jitterSeed = random.nextLong();
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> new ChainEquivalenceTest.JitteredSource(PacketSources.open(chain.settings().traffic()), jitter, jitterSeed),
            spec -> new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, strategy), strategy));
        assertTrue(result.equivalent(), () -> "seed " + seed + " (rerun with -Dtest=StoreEquivalenceTest): stores "
            + stores(chain) + ", strategy " + strategy + " " + ChainEquivalenceTest.describe(chain)
            + "\n  first diverging packet #" + result.divergingSequence()
            + "\n    oracle: " + result.oracleRecord() + "\n    engine: " + result.candidateRecord()
            + "\n  state: " + result.stateDifference());
        assertTrue(result.checkersHeld(), () -> "seed " + seed + ": stores " + stores(chain) + " " + ChainEquivalenceTest.describe(chain)
            + "\n  checkers violated: oracle " + result.oracleCheckers() + ", engine " + result.candidateCheckers());
    }

    /** {@code chain} with each VNF table in {@code kind} (or a random store), sized, on 1 to 8 threads. */
    static ChainSpec inStores(final ChainSpec chain, final StoreKind kind, final SplittableRandom random, final String prefix)
    {
        final TableCatalog catalog = new ChainRuntime(chain).catalog();
        final StoreKind[] kinds = StoreKind.values();
        final List<VnfNode> nodes = new ArrayList<>();
        for (final VnfNode node : chain.vnfs())
        {
            final Map<String, TableSettings> sizes = new LinkedHashMap<>();
            final Map<String, StoreKind> stores = new LinkedHashMap<>();
            for (int t = 0; t < catalog.size(); t++)
            {
                if (catalog.owner(t).equals(node.name()))
                {
                    final String table = catalog.spec(t).name();
                    sizes.put(table, new TableSettings(20_000L, 0L));
                    stores.put(table, kind != null ? kind : kinds[random.nextInt(kinds.length)]);
                }
            }
            nodes.add(new VnfNode(node.name(), node.factory(), node.config(), sizes, stores));
        }
        final StoreSettings stores = StoreSettings.defaults().withRedis(redisUrl, prefix, false);
        return new ChainSpec(chain.name(), chain.description(), nodes, chain.edges(),
            chain.settings().withStores(stores).withExecutorThreads(THREADS[random.nextInt(THREADS.length)]));
    }

    private static String stores(final ChainSpec chain)
    {
        final StringBuilder out = new StringBuilder();
        for (final VnfNode node : chain.vnfs())
        {
            out.append(node.name()).append(node.stores()).append(' ');
        }
        return out.toString().trim();
    }
}
