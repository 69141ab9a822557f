package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A graph built while its log fills (each transaction added as soon as it is declared, the
 * packet processing phase) is the graph built from the finished log.
 */
class IncrementalGraphBuildTest
{
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void shouldBuildTheSameGraphWhileTheLogFillsAsFromTheFinishedLog(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final TransactionLog log = new TransactionLog(2, 2);
        final TaskPrecedenceGraph incremental = new TaskPrecedenceGraph();
        incremental.beginBatch(log);
        final int txns = 1 + random.nextInt(3000);
        for (int t = 0; t < txns; t++)
        {
            final int id = log.begin(1_000 + random.nextInt(50), t, null);
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
                        log.param(1, random.nextInt(10));
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
            incremental.addTransaction(id);
        }
        incremental.seal();

        final TaskPrecedenceGraph whole = new TaskPrecedenceGraph();
        whole.beginBatch(log);
        for (int t = 0; t < txns; t++)
        {
            whole.addTransaction(t);
        }
        whole.seal();

        final String where = "seed " + seed;
        assertEquals(whole.operationCount(), incremental.operationCount(), where);
        assertEquals(whole.keyCount(), incremental.keyCount(), where);
        assertEquals(whole.entryCount(), incremental.entryCount(), where);
        assertEquals(whole.temporalEdgeCount(), incremental.temporalEdgeCount(), where);
        assertEquals(whole.parametricEdgeCount(), incremental.parametricEdgeCount(), where);
        assertEquals(whole.logicalEdgeCount(), incremental.logicalEdgeCount(), where);
        for (int o = 0; o < whole.operationCount(); o++)
        {
            assertEquals(whole.pendingDependencies(o), incremental.pendingDependencies(o), where + " op " + o);
            assertEquals(whole.dependentsEnd(o) - whole.dependentsStart(o),
                incremental.dependentsEnd(o) - incremental.dependentsStart(o), where + " op " + o);
        }
    }
}
