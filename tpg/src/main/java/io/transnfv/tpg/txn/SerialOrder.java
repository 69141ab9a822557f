package io.transnfv.tpg.txn;

/**
 * The serial order of a batch's transactions: by timestamp, then sequence, then log index. It
 * is the order the chain's outputs must be equivalent to. Batches usually arrive in it already
 * (one pass finds out); a few late packets cost an insertion sort that is little more than a
 * pass. Arrays are reused batch after batch; one thread computes, then any may read.
 */
public final class SerialOrder
{
    private boolean identity = true;
    private int[] order = new int[64];
    private int[] rank = new int[64];

    /** Computes the serial order of {@code log}'s transactions. */
    public void compute(final TransactionLog log)
    {
        final int txns = log.transactionCount();
        identity = true;
        for (int t = 1; t < txns; t++)
        {
            if (before(log, t, t - 1))
            {
                identity = false;
                break;
            }
        }
        if (!identity)
        {
            sortSlowPath(log, txns);
        }
    }

    /** @return true if the log's index order is the serial order. */
    public boolean isIdentity()
    {
        return identity;
    }

    /** @return the transaction at serial position {@code i}. */
    public int transactionAt(final int i)
    {
        return identity ? i : order[i];
    }

    /** @return the serial position of transaction {@code t}: 0 for the first. */
    public int rankOf(final int t)
    {
        return identity ? t : rank[t];
    }

    /** @return true if transaction {@code a} comes before {@code b} in serial order. */
    public static boolean before(final TransactionLog log, final int a, final int b)
    {
        final long ta = log.timestampNs(a);
        final long tb = log.timestampNs(b);
        if (ta != tb)
        {
            return ta < tb;
        }
        final long sa = log.sequence(a);
        final long sb = log.sequence(b);
        return sa != sb ? sa < sb : a < b;
    }

    private void sortSlowPath(final TransactionLog log, final int txns)
    {
        if (order.length < txns)
        {
            final int n = Integer.highestOneBit(txns - 1) << 1;
            order = new int[n];
            rank = new int[n];
        }
        final int[] order = this.order;
        for (int i = 0; i < txns; i++)
        {
            int j = i - 1;
            while (j >= 0 && before(log, i, order[j]))
            {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = i;
        }
        for (int i = 0; i < txns; i++)
        {
            rank[order[i]] = i;
        }
    }
}
