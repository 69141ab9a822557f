package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * A key's chain is one unit: every operation whose home key (its target, or a CHOOSE's first
 * candidate) is that key, in serial order; an ADD, a DEFER, a STALE_READ or a STALE_CHOOSE,
 * which has no key in the graph, is a unit of its own. The chain runs on one executor without a hand-over
 * per operation and with the key's versions hot in its cache (the operation chains of
 * Zhang et al., "Towards Concurrent Stateful Stream Processing on Multicore Processors",
 * ICDE 2020, and MorphStream's operation groups, SIGMOD 2023).
 *
 * <p>Chains depend on each other (a transaction's operations on two keys, a parameter read on
 * another key) and those dependencies may form cycles among chains. They cannot deadlock: a
 * chain that reaches an operation with unresolved dependencies parks there and lets go of
 * its executor; the operation that resolves the last dependency resumes it. Since every edge
 * points forward in the serial order, the earliest unfinished operation is always runnable.
 * Cost: one walk over the key lists, O(entries).
 */
public final class OperationGroupGranularity implements Granularity
{
    @Override
    public void partition(final TaskPrecedenceGraph graph, final WorkUnits units)
    {
        units.reset(graph.operationCount());
        final TransactionLog log = graph.log();
        final int choose = OperationType.CHOOSE.ordinal();
        for (int s = 0, shards = graph.shardCount(); s < shards; s++)
        {
            for (int i = 0, keys = graph.shardKeyCount(s); i < keys; i++)
            {
                final int k = graph.keyReference(s, i);
                for (int e = graph.keyFirstEntry(k); e != TaskPrecedenceGraph.NONE; e = graph.nextEntry(e))
                {
                    final int o = graph.entryOperation(e);
                    if (homeEntry(graph, log, o, choose) == e && !graph.isIndependent(log.transactionOf(o)))
                    {
                        units.add(o);
                    }
                }
                units.closeUnit();
            }
        }
        // an ADD (it commutes), a DEFER (applied after the batch) or a STALE_READ or STALE_CHOOSE (batch-start
        // values) has no key in the graph: a unit of its own, run after its transaction's previous operation
        for (int o = 0, n = graph.operationCount(); o < n; o++)
        {
            final int type = log.type(o);
            if (graph.targetEntry(o) == TaskPrecedenceGraph.NONE && type != choose
                && !graph.isIndependent(log.transactionOf(o)))
            {
                units.add(o);
                units.closeUnit();
            }
        }
    }

    private static int homeEntry(final TaskPrecedenceGraph graph, final TransactionLog log, final int o, final int choose)
    {
        return log.type(o) == choose ? graph.extraEntry(log.extraStart(o)) : graph.targetEntry(o);
    }

    @Override
    public boolean oneOperationPerUnit()
    {
        return false;
    }

    @Override
    public String shortName()
    {
        return "group";
    }

    @Override
    public int id()
    {
        return 1;
    }

    @Override
    public String toString()
    {
        return "operation-group";
    }
}
