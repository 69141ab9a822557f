package io.transnfv.experiments.executor;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One batch of {@code batchTxns} independent one-write transactions (distinct keys: no
 * dependency, nothing to order) through {@link TpgBatchExecutor#execute} on {@code threads}
 * executor threads, against the serial applier on the same batch. The difference is the
 * engine's fixed cost of dispatching a batch; divide the score by {@code batchTxns} for the
 * per-transaction cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ExecutorDispatchBenchmark
{
    @Param({"64", "1024", "16384"})
    int batchTxns;

    @Param({"1", "2"})
    int threads;

    private TransactionLog log;
    private TpgBatchExecutor executor;
    private MultiVersionStateTable state;
    private MapStateStore oracleState;
    private final SerialApplier applier = new SerialApplier();

    @Setup(Level.Trial)
    public void setUp()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("bench", new TableSpec("values", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "benchmark values"));
        state = new MultiVersionStateTable(catalog);
        oracleState = new MapStateStore(catalog);
        executor = new TpgBatchExecutor(threads);
        log = new TransactionLog(batchTxns, batchTxns);
        for (int t = 0; t < batchTxns; t++)
        {
            log.begin(1_000L + t, t, null);
            log.write(0, t, t + 1L);
            log.end();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        executor.close();
    }

    /** The engine: build, dispatch, execute, collapse. */
    @Benchmark
    public int engine()
    {
        executor.execute(log, state);
        return log.abortReason(batchTxns - 1);
    }

    /** The serial applier, one transaction after another. */
    @Benchmark
    public int serialOracle()
    {
        int aborted = 0;
        for (int t = 0; t < batchTxns; t++)
        {
            aborted += applier.apply(log, t, oracleState);
        }
        return aborted;
    }
}
