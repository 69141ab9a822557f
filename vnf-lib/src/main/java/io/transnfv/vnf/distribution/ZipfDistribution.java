package io.transnfv.vnf.distribution;

import java.util.Arrays;

/**
 * The Zipf distribution over ranks {@code 0 .. ranks - 1}: rank {@code k} has weight
 * {@code 1 / (k + 1)^exponent} (exponent 0 is uniform). Sampled by inverse transform: the
 * caller brings a uniform {@code u} in [0, 1) — from its own seeded generator or from a hash,
 * so that sampling stays deterministic — and {@link #rank(double)} finds its rank by binary
 * search over the cumulative weights. O(ranks) memory, built once; O(log ranks) per sample,
 * no allocation.
 */
public final class ZipfDistribution
{
    private final double[] cumulative;

    /**
     * @param ranks    number of ranks, at least 1.
     * @param exponent the skew, at least 0.
     * @throws IllegalArgumentException otherwise.
     */
    public ZipfDistribution(final int ranks, final double exponent)
    {
        if (ranks < 1 || !(exponent >= 0) || Double.isInfinite(exponent))
        {
            throw new IllegalArgumentException("Zipf needs ranks >= 1 and a finite exponent >= 0: " + ranks + ", " + exponent);
        }
        cumulative = new double[ranks];
        double sum = 0;
        for (int k = 0; k < ranks; k++)
        {
            sum += 1.0 / Math.pow(k + 1, exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < ranks; k++)
        {
            cumulative[k] /= sum;
        }
        cumulative[ranks - 1] = 1.0;
    }

    /** @return the number of ranks. */
    public int ranks()
    {
        return cumulative.length;
    }

    /**
     * @param u uniform in [0, 1).
     * @return the rank whose share of the cumulative weight holds {@code u}: the first rank
     *         {@code k} with {@code u < P(rank <= k)}.
     */
    public int rank(final double u)
    {
        final int found = Arrays.binarySearch(cumulative, u);
        return Math.min(found >= 0 ? found + 1 : -found - 1, cumulative.length - 1);
    }

    /** @return the probability of rank {@code k}. */
    public double probability(final int k)
    {
        return k == 0 ? cumulative[0] : cumulative[k] - cumulative[k - 1];
    }
}
