package io.transnfv.experiments.state;

import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.state.store.KeyBatch;
import io.transnfv.engine.state.store.RedisStateBackend;
import io.transnfv.engine.state.store.StateBackend;
import io.transnfv.engine.state.store.TableStores;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.FlowKeys;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What a batch pays per touched key for its table's store: bind (the keys loaded from the store
 * into the state table's heap shards), the batch's writes applied in place (as the serial
 * schedule applies them), and the write-back of the changed keys. {@code heap} binds nothing and
 * is the reference; {@code chronicle} is Chronicle Map off-heap; {@code redis} a
 * {@code redis-server} this benchmark starts on a free loopback port (it must be installed).
 * Each batch touches {@value #BATCH_KEYS} distinct keys drawn from {@code keys} present ones;
 * {@code writes} false only reads them (nothing to write back). Score: ns per touched key.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StateStoreBenchmark
{
    private static final int BATCH_KEYS = 1024;
    private static final int BATCHES = 16;

    @Param({"heap", "chronicle", "redis"})
    String store;

    @Param({"100000", "1000000"})
    int keys;

    @Param({"true", "false"})
    boolean writes;

    private Process redis;
    private Path redisDir;
    private TableStores stores;
    private MultiVersionStateTable state;
    private TransactionLog[] logs;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException, InterruptedException
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("bench", new TableSpec("values", TableScope.PER_FLOW, KeyKind.OPAQUE, 0L, "benchmark values"));
        catalog.expectEntries(0, keys);
        final StoreKind kind = StoreKind.ofYamlName(store);
        StoreSettings settings = StoreSettings.defaults();
        if (kind == StoreKind.REDIS)
        {
            settings = settings.withRedis(startRedis(), "bench", false);
        }
        stores = TableStores.open(catalog, new StoreKind[] {kind}, settings, "bench");
        state = new MultiVersionStateTable(catalog, stores);
        final StateBackend backend = stores.backend(0);
        final KeyBatch fill = new KeyBatch(new int[] {0});
        for (int k = 0; k < keys; k++)
        {
            if (backend == null)
            {
                state.put(0, FlowKeys.mix64(k), k + 1);
            }
            else
            {
                fill.add(0, FlowKeys.mix64(k), k + 1);
                if (fill.count(0) == 65_536 || k == keys - 1)
                {
                    backend.store(fill);
                    fill.clear();
                }
            }
        }
        logs = new TransactionLog[BATCHES];
        long seed = 42;
        for (int b = 0; b < BATCHES; b++)
        {
            logs[b] = new TransactionLog(BATCH_KEYS, BATCH_KEYS);
            final int start = (int)Math.floorMod(seed >>> 17, (long)keys);
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            for (int i = 0; i < BATCH_KEYS; i++)
            {
                logs[b].begin(i, i, null);
                logs[b].write(0, FlowKeys.mix64((start + i * 7919L) % keys), i);
                logs[b].end();
            }
        }
    }

    private String startRedis() throws IOException, InterruptedException
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        redisDir = Files.createTempDirectory("transnfv-bench-redis");
        redis = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", redisDir.toString()).redirectErrorStream(true)
            .redirectOutput(redisDir.resolve("redis.log").toFile()).start();
        final String url = "redis://127.0.0.1:" + port;
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (RedisStateBackend.probe(url) != null)
        {
            if (!redis.isAlive() || System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException("redis-server did not start (install it: scripts/install-deps.sh redis-server)");
            }
            Thread.sleep(20);
        }
        return url;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException, InterruptedException
    {
        stores.close();
        if (redis != null)
        {
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(redisDir.resolve("redis.log"));
            Files.deleteIfExists(redisDir);
        }
    }

    /** One batch: bind its keys, apply its writes in place (or only read), write the changed keys back. */
    @Benchmark
    @OperationsPerInvocation(BATCH_KEYS)
    public long bindApplyWriteBack()
    {
        final TransactionLog log = logs[next];
        next = (next + 1) & (BATCHES - 1);
        final MultiVersionStateTable state = this.state;
        state.bindStores(log);
        long sum = 0;
        for (int o = 0, n = log.operationCount(); o < n; o++)
        {
            final long key = log.key(o);
            final long value = state.get(0, key);
            sum += value;
            if (writes)
            {
                // alternates between two non-initial values, so every key changes every batch
                state.put(0, key, value ^ 0x4000_0000_0000L);
            }
        }
        state.releaseStores();
        return sum;
    }
}
