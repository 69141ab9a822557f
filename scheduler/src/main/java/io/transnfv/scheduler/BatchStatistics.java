package io.transnfv.scheduler;

import io.transnfv.tpg.graph.TaskPrecedenceGraph;

/**
 * What the decision model sees of a batch: statistics of the batch's own sealed graph,
 * measured at run time ({@link #measure}), and of the recent batches' outcomes
 * ({@link #recordOutcome}: abort ratio and function cost as moving averages). Never a label
 * from the workload's generator. One instance per executor, reused batch after batch; read
 * and written by the coordinating thread only.
 *
 * <p>One executor runs the batches of every VNF of a chain in turn, and their shapes and
 * abort ratios differ. The set of state tables a batch touches (measured from its keys)
 * tells them apart: its {@link #signature()} is one of {@link #SIGNATURES} slots, and the
 * recent outcomes are kept per slot, so a VNF that aborts often does not make another look
 * as if it did.
 */
public final class BatchStatistics
{
    /** Distinct table sets remembered at once (the least recently seen one is replaced). */
    public static final int SIGNATURES = SchedulerTuning.TABLE_SET_SLOTS;

    private static final double RECENT_WEIGHT = SchedulerTuning.RECENT_WEIGHT;

    private int threads;
    private int operations;
    private int transactions;
    private int keys;
    private int entries;
    private int temporalEdges;
    private int parametricEdges;
    private int logicalEdges;
    private int maxChainLength;
    private double meanChainLength;
    private double contendedChainLength;
    private double singleEntryKeyShare;
    private long tableMask;
    private int signature;
    private long measured;
    private final long[] signatureMask = new long[SIGNATURES];
    private final long[] signatureSeen = new long[SIGNATURES];
    private final double[] recentAbortRatio = new double[SIGNATURES];
    private final double[] recentUsefulNsPerOp = new double[SIGNATURES];
    private final long[] batchesRecorded = new long[SIGNATURES];

    /**
     * Measures {@code graph} (sealed). Cost: O(1): every figure was counted while sealing.
     *
     * @param threads the executors that will run the batch.
     */
    public void measure(final TaskPrecedenceGraph graph, final int threads)
    {
        this.threads = threads;
        operations = graph.operationCount();
        transactions = graph.transactionCount();
        keys = graph.keyCount();
        entries = graph.entryCount();
        temporalEdges = graph.temporalEdgeCount();
        parametricEdges = graph.parametricEdgeCount();
        logicalEdges = graph.logicalEdgeCount();
        maxChainLength = graph.maxKeyEntries();
        meanChainLength = keys == 0 ? 0 : (double)entries / keys;
        contendedChainLength = entries == 0 ? 0 : (double)graph.sumSquaredKeyEntries() / entries;
        singleEntryKeyShare = keys == 0 ? 1 : (double)graph.singleEntryKeyCount() / keys;
        tableMask = graph.tableMask();
        signature = slotOf(tableMask);
    }

    private int slotOf(final long mask)
    {
        final long now = ++measured;
        int oldest = 0;
        for (int i = 0; i < SIGNATURES; i++)
        {
            if (signatureSeen[i] != 0 && signatureMask[i] == mask)
            {
                signatureSeen[i] = now;
                return i;
            }
            oldest = signatureSeen[i] < signatureSeen[oldest] ? i : oldest;
        }
        signatureMask[oldest] = mask;
        signatureSeen[oldest] = now;
        recentAbortRatio[oldest] = 0;
        recentUsefulNsPerOp[oldest] = 0;
        batchesRecorded[oldest] = 0;
        return oldest;
    }

    /**
     * Folds a finished batch into the recent averages.
     *
     * @param abortedTransactions transactions the batch aborted.
     * @param usefulNsPerOp       executor time spent running operations, per operation.
     */
    public void recordOutcome(final long abortedTransactions, final double usefulNsPerOp)
    {
        if (transactions == 0)
        {
            return;
        }
        final double ratio = (double)abortedTransactions / transactions;
        final int s = signature;
        if (batchesRecorded[s]++ == 0)
        {
            recentAbortRatio[s] = ratio;
            recentUsefulNsPerOp[s] = usefulNsPerOp;
        }
        else
        {
            recentAbortRatio[s] += RECENT_WEIGHT * (ratio - recentAbortRatio[s]);
            recentUsefulNsPerOp[s] += RECENT_WEIGHT * (usefulNsPerOp - recentUsefulNsPerOp[s]);
        }
    }

    /** @return the executors the batch runs on. */
    public int threads()
    {
        return threads;
    }

    /** @return operations (vertices) in the batch. */
    public int operations()
    {
        return operations;
    }

    /** @return transactions in the batch. */
    public int transactions()
    {
        return transactions;
    }

    /** @return distinct (table, key) pairs touched. */
    public int keys()
    {
        return keys;
    }

    /** @return key-list entries (accesses, proxies and candidates included). */
    public int entries()
    {
        return entries;
    }

    /** @return temporal dependencies (same key, an earlier transaction's write). */
    public int temporalEdges()
    {
        return temporalEdges;
    }

    /** @return parametric dependencies (a parameter reading an earlier transaction's write). */
    public int parametricEdges()
    {
        return parametricEdges;
    }

    /** @return logical dependencies (statement order inside transactions). */
    public int logicalEdges()
    {
        return logicalEdges;
    }

    /** @return the longest key chain (entries of the most accessed key): a depth bound. */
    public int maxChainLength()
    {
        return maxChainLength;
    }

    /** @return entries per touched key. */
    public double meanChainLength()
    {
        return meanChainLength;
    }

    /**
     * @return the length of the chain an average access sits in (Σ length² / Σ length): 1 when
     *         every key is touched once, the batch size when every access hits one key.
     */
    public double contendedChainLength()
    {
        return contendedChainLength;
    }

    /** @return the longest chain over the mean chain: 1 for uniform access, large for skew. */
    public double skew()
    {
        return meanChainLength == 0 ? 0 : maxChainLength / meanChainLength;
    }

    /** @return the share of touched keys with a single access. */
    public double singleEntryKeyShare()
    {
        return singleEntryKeyShare;
    }

    /** @return cross-transaction dependencies per operation (mean in-degree over TD + PD). */
    public double crossDegree()
    {
        return operations == 0 ? 0 : (double)(temporalEdges + parametricEdges) / operations;
    }

    /** @return the parametric share of the cross-transaction dependencies. */
    public double parametricShare()
    {
        final int cross = temporalEdges + parametricEdges;
        return cross == 0 ? 0 : (double)parametricEdges / cross;
    }

    /** @return the moving average of the share of transactions aborted in recent batches of this signature. */
    public double recentAbortRatio()
    {
        return recentAbortRatio[signature];
    }

    /** @return the moving average of executor time per operation in recent batches of this signature (function cost). */
    public double recentUsefulNsPerOp()
    {
        return recentUsefulNsPerOp[signature];
    }

    /** @return the tables the batch touches, as a bit set of table ids modulo 64. */
    public long tableMask()
    {
        return tableMask;
    }

    /** @return the slot (0 .. {@link #SIGNATURES} - 1) of the batch's table set. */
    public int signature()
    {
        return signature;
    }

    @Override
    public String toString()
    {
        return "ops=" + operations + " txns=" + transactions + " keys=" + keys + " td=" + temporalEdges +
            " pd=" + parametricEdges + " ld=" + logicalEdges + " maxChain=" + maxChainLength +
            String.format(" contendedChain=%.2f skew=%.1f pdShare=%.2f abortRatio=%.3f usefulNsPerOp=%.1f tables=%x",
            contendedChainLength, skew(), parametricShare(), recentAbortRatio(), recentUsefulNsPerOp(), tableMask);
    }
}
