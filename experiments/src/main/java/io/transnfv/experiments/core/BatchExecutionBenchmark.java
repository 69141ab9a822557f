package io.transnfv.experiments.core;

import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.experiments.scheduling.SchedulingWorkload;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.SerialOrder;
import io.transnfv.tpg.txn.TransactionLog;
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
 * A whole batch through {@link TpgBatchExecutor#execute}: TPG build and seal, version binding,
 * parallel execution on {@code threads} executors with {@code strategy}, collapse. The serial
 * oracle on the same batch is the baseline in the same run. The score is per batch; divide by {@code batchOps}
 * for ns per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BatchExecutionBenchmark
{
    @Param({"1000", "10000", "100000"})
    int batchOps;

    @Param({"100", "10000", "1000000"})
    int keys;

    @Param({"0", "0.99"})
    double skew;

    @Param({"1", "2"})
    int threads;

    /**
     * {@code core}: {@link CoreWorkload} (two READ_MODIFYs per transaction over {@code keys}
     * counters, {@code skew}); {@code lb5} / {@code lb40}: the scheduling benchmark's
     * load-balancer batches ({@link SchedulingWorkload}: 100,000 flows, CHOOSE of the least
     * loaded of 5 of 64 servers) at 5 % / 40 % new connections ({@code keys} and {@code skew} unused).
     */
    @Param({"core", "lb5", "lb40"})
    String workload;

    /** A static policy name, {@code adaptive} or {@code adaptive-feedback} (see {@link TpgBatchExecutor#create}). */
    @Param({"adaptive", "bfs/op/eager", "dfs/op/lazy", "dfs/group/lazy"})
    String strategy;

    private TransactionLog log;
    private int[] serialOrder;
    private TpgBatchExecutor executor;
    private MultiVersionStateTable state;
    private MapStateStore oracleState;
    private final SerialApplier applier = new SerialApplier();

    @Setup(Level.Trial)
    public void setUp()
    {
        final TableCatalog catalog;
        switch (workload)
        {
            case "core" ->
            {
                log = CoreWorkload.batch(batchOps, keys, skew, 42);
                catalog = CoreWorkload.catalog();
            }
            case "lb5", "lb40" ->
            {
                log = SchedulingWorkload.batch(SchedulingWorkload.Kind.LB, workload.equals("lb5") ? 5 : 40, batchOps, 42);
                catalog = SchedulingWorkload.catalog();
            }
            default -> throw new IllegalArgumentException("workload '" + workload + "' is not core, lb5 or lb40");
        }
        executor = TpgBatchExecutor.create(threads, strategy);
        state = new MultiVersionStateTable(catalog);
        oracleState = new MapStateStore(catalog);
        final SerialOrder order = new SerialOrder();
        order.compute(log);
        serialOrder = new int[log.transactionCount()];
        for (int i = 0; i < serialOrder.length; i++)
        {
            serialOrder[i] = order.transactionAt(i);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        executor.close();
    }

    @Benchmark
    public MultiVersionStateTable engine()
    {
        executor.execute(log, state);
        return state;
    }

    /** The serial oracle on the same batch (already in order; ignores {@code threads}). */
    @Benchmark
    public MapStateStore serialOracle()
    {
        final int[] order = serialOrder;
        for (int i = 0; i < order.length; i++)
        {
            applier.apply(log, order[i], oracleState);
        }
        return oracleState;
    }
}
