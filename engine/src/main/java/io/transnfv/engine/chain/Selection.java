package io.transnfv.engine.chain;

/**
 * The k-th smallest of an array's first values, in linear expected time (Hoare's selection with
 * a median-of-three pivot), reordering them in place. For the eviction cutoff, off the packet
 * path.
 */
final class Selection
{
    private Selection()
    {
    }

    /**
     * @param values the values; the first {@code n} are reordered.
     * @param n      how many to select among, at least 1.
     * @param k      the rank wanted, 0 for the smallest, below {@code n}.
     * @return the value of rank {@code k} among {@code values[0, n)}.
     */
    static long kthSmallest(final long[] values, final int n, final int k)
    {
        if (k < 0 || k >= n)
        {
            throw new IllegalArgumentException("rank " + k + " of " + n + " values");
        }
        int lo = 0;
        int hi = n - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            final long pivot = medianOfThree(values[lo], values[mid], values[hi]);
            int i = lo;
            int j = hi;
            while (i <= j)
            {
                while (values[i] < pivot)
                {
                    i++;
                }
                while (values[j] > pivot)
                {
                    j--;
                }
                if (i <= j)
                {
                    final long swap = values[i];
                    values[i] = values[j];
                    values[j] = swap;
                    i++;
                    j--;
                }
            }
            // [lo, j] <= pivot, [i, hi] >= pivot, and between them (if any) equal to it
            if (k <= j)
            {
                hi = j;
            }
            else if (k >= i)
            {
                lo = i;
            }
            else
            {
                return values[k];
            }
        }
        return values[k];
    }

    private static long medianOfThree(final long a, final long b, final long c)
    {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
