package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A graph built in parallel (several shards, several build tasks, several seal chunks) is the
 * graph built by one thread with one shard: every entry has the same previous write, the same
 * role, the same in-place mark and the same next entry in its key's chain, and every operation
 * the same dependency count, whatever order the scatter, build and seal tasks run in.
 */
class ShardedGraphBuildTest
{
    private static TransactionLog randomLog(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final TransactionLog log = new TransactionLog(2, 2);
        final int txns = 1 + random.nextInt(3000);
        for (int t = 0; t < txns; t++)
        {
            // a coarse clock: equal timestamps are common, and one packet in eight is late
            final long ts = 1_000 + (random.nextInt(8) == 0 ? Math.max(0, t - random.nextInt(6)) : t) / 3;
            log.begin(ts, t, null);
            final int ops = random.nextInt(4);
            for (int i = 0; i < ops; i++)
            {
                final long key = random.nextInt(1 + (int)(seed * 40));
                switch (random.nextInt(4))
                {
                    case 0 -> log.read(0, key);
                    case 1 -> log.write(0, key, t);
                    case 2 ->
                    {
                        log.readModify(0, key, (v, ctx) -> v + 1, 0);
                        log.param(random.nextInt(2), random.nextInt(10));
                    }
                    default ->
                    {
                        log.choose(1, ctx -> 0, (v, ctx) -> v + 1, 0);
                        for (int c = 0, n = 1 + random.nextInt(4); c < n; c++)
                        {
                            log.candidate(random.nextInt(20));
                        }
                    }
                }
            }
            log.end();
        }
        return log;
    }

    /** Builds with every step in reverse order of its tasks, as parallel workers could. */
    private static TaskPrecedenceGraph build(final TransactionLog log, final int shards, final OperationStateMachine machine)
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph(shards);
        graph.beginBatch(log, KeyDirectory.touchedKeyTables(shards));
        machine.beginBatch(log.operationCount(), true, true);
        for (int c = graph.chunkCount() - 1; c >= 0; c--)
        {
            graph.scatter(c);
        }
        for (int s = shards - 1; s >= 0; s--)
        {
            graph.buildShard(s);
        }
        graph.finishBuild();
        for (int c = graph.sealChunkCount() - 1; c >= 0; c--)
        {
            graph.sealChunk(c, machine);
        }
        graph.finishSeal();
        return graph;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void shouldBuildTheSameGraphInParallelShardsAsOnOneThread(final long seed)
    {
        final TransactionLog log = randomLog(seed);
        final OperationStateMachine oneMachine = new OperationStateMachine();
        final TaskPrecedenceGraph one = build(log, 1, oneMachine);
        for (final int shards : new int[] {2, 4, 16, 64})
        {
            final OperationStateMachine machine = new OperationStateMachine();
            final TaskPrecedenceGraph sharded = build(log, shards, machine);
            final String where = "seed " + seed + " shards " + shards;
            assertEquals(one.keyCount(), sharded.keyCount(), where);
            assertEquals(one.entryCount(), sharded.entryCount(), where);
            assertEquals(one.temporalEdgeCount(), sharded.temporalEdgeCount(), where);
            assertEquals(one.parametricEdgeCount(), sharded.parametricEdgeCount(), where);
            assertEquals(one.logicalEdgeCount(), sharded.logicalEdgeCount(), where);
            assertEquals(one.sumSquaredKeyEntries(), sharded.sumSquaredKeyEntries(), where);
            assertEquals(one.independentTransactionCount(), sharded.independentTransactionCount(), where);
            assertEquals(one.scheduledOperationCount(), sharded.scheduledOperationCount(), where);
            for (int e = 0; e < log.operationCount() + log.extraTotal(); e++)
            {
                if (e < log.operationCount() && one.targetEntry(e) == TaskPrecedenceGraph.NONE)
                {
                    continue;
                }
                assertEquals(one.previousWrite(e), sharded.previousWrite(e), where + " entry " + e);
                assertEquals(one.accessEntry(e), sharded.accessEntry(e), where + " entry " + e);
                assertEquals(one.entryRoles(e), sharded.entryRoles(e), where + " entry " + e);
                assertEquals(one.isInPlace(e), sharded.isInPlace(e), where + " entry " + e);
                assertEquals(one.isCrossTransaction(e), sharded.isCrossTransaction(e), where + " entry " + e);
                if (one.accessEntry(e) == e)
                {
                    assertEquals(one.nextEntry(e), sharded.nextEntry(e), where + " entry " + e);
                }
            }
            for (int o = 0; o < log.operationCount(); o++)
            {
                if (!one.isIndependent(log.transactionOf(o)))
                {
                    assertEquals(oneMachine.pending(o), machine.pending(o), where + " op " + o);
                }
            }
        }
    }
}
