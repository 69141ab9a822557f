package io.transnfv.experiments.core;

import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * TPG construction per batch on one thread: build (every access appended to its key's chain,
 * with its previous write and its cross-transaction edge) and seal (in-place marks, dependency
 * counts, initial states, independent transactions). The score is per batch; divide by
 * {@code batchOps} for ns per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TpgBuildBenchmark
{
    @Param({"1000", "10000", "100000"})
    int batchOps;

    @Param({"100", "10000", "1000000"})
    int keys;

    @Param({"0", "0.99"})
    double skew;

    private TransactionLog log;
    private TaskPrecedenceGraph graph;
    private final OperationStateMachine machine = new OperationStateMachine();

    @Setup(Level.Trial)
    public void setUp()
    {
        log = CoreWorkload.batch(batchOps, keys, skew, 42);
        graph = new TaskPrecedenceGraph();
    }

    @Benchmark
    public TaskPrecedenceGraph buildAndSeal()
    {
        graph.buildAndSeal(log, machine);
        return graph;
    }
}
