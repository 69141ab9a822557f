package io.transnfv.experiments.state;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.experiments.baselines.SharedStateStore;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.MapStateStore;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Committed-state reads and read-modify-writes of one {@code long} per key, as a transaction's
 * operation does them outside the versioned path: {@code map} is the serial oracle's
 * {@link MapStateStore}, {@code multi-version} the engine's {@link MultiVersionStateTable}
 * between batches, {@code preallocated} the baselines' shared {@link SharedStateStore}. Keys
 * are mixed 64-bit flow keys drawn from {@code keys} distinct ones, all present. Score: ns per
 * operation; run with {@code -prof gc} to see that none allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StateTableBenchmark
{
    private static final int ACCESSES = 4096;

    @Param({"map", "multi-version", "preallocated"})
    String store;

    @Param({"7200", "1000000"})
    int keys;

    private StateStore state;
    private long[] accessKeys;

    @Setup(Level.Trial)
    public void setUp()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("bench", new TableSpec("values", TableScope.CROSS_FLOW, KeyKind.OPAQUE, 0L, "benchmark values"));
        state = switch (store)
        {
            case "map" -> new MapStateStore(catalog);
            case "multi-version" -> new MultiVersionStateTable(catalog);
            case "preallocated" -> new SharedStateStore(catalog, Integer.highestOneBit(keys * 2 - 1) << 1, false);
            default -> throw new IllegalArgumentException(store);
        };
        for (int k = 0; k < keys; k++)
        {
            state.put(0, FlowKeys.mix64(k), k + 1);
        }
        accessKeys = new long[ACCESSES];
        long seed = 42;
        for (int i = 0; i < ACCESSES; i++)
        {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            accessKeys[i] = FlowKeys.mix64(Math.floorMod(seed >>> 17, (long)keys));
        }
    }

    /** Reads {@value #ACCESSES} keys. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public long read()
    {
        final StateStore state = this.state;
        long sum = 0;
        for (final long key : accessKeys)
        {
            sum += state.get(0, key);
        }
        return sum;
    }

    /** Increments {@value #ACCESSES} keys: a get and a put each. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public void readModifyWrite()
    {
        final StateStore state = this.state;
        for (final long key : accessKeys)
        {
            state.put(0, key, state.get(0, key) + 1);
        }
    }
}
