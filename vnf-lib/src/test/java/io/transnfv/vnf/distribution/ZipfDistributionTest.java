package io.transnfv.vnf.distribution;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfDistributionTest
{
    @Test
    void shouldGiveRankKTheWeightOneOverKPlusOneToTheExponent()
    {
        final ZipfDistribution zipf = new ZipfDistribution(3, 1.0);
        final double total = 1 + 1 / 2.0 + 1 / 3.0;
        assertEquals(1 / total, zipf.probability(0), 1e-12);
        assertEquals(0.5 / total, zipf.probability(1), 1e-12);
        assertEquals(1 / 3.0 / total, zipf.probability(2), 1e-12);
    }

    @Test
    void shouldMapTheUnitIntervalOntoRanksInOrderAndNeverPastTheLast()
    {
        final ZipfDistribution zipf = new ZipfDistribution(3, 1.0);
        final double first = zipf.probability(0);
        assertEquals(0, zipf.rank(0.0));
        assertEquals(0, zipf.rank(first - 1e-9));
        assertEquals(1, zipf.rank(first));
        assertEquals(2, zipf.rank(Math.nextDown(1.0)));
        assertEquals(0, new ZipfDistribution(1, 2.0).rank(0.99));
    }

    @Test
    void shouldDrawRanksWithTheirProbabilities()
    {
        final ZipfDistribution zipf = new ZipfDistribution(100, 0.8);
        final SplittableRandom rnd = new SplittableRandom(7);
        final int[] hits = new int[100];
        final int draws = 200_000;
        for (int i = 0; i < draws; i++)
        {
            hits[zipf.rank(rnd.nextDouble())]++;
        }
        for (final int k : new int[] {0, 1, 9, 99})
        {
            final double expected = zipf.probability(k) * draws;
            assertTrue(Math.abs(hits[k] - expected) < 5 * Math.sqrt(expected), "rank " + k + ": " + hits[k] + " vs " + expected);
        }
    }

    @Test
    void shouldBeUniformWithExponentZero()
    {
        final ZipfDistribution zipf = new ZipfDistribution(4, 0);
        for (int k = 0; k < 4; k++)
        {
            assertEquals(0.25, zipf.probability(k), 1e-12);
        }
    }

    @Test
    void shouldRejectNoRanksAndNegativeOrNonFiniteExponents()
    {
        assertThrows(IllegalArgumentException.class, () -> new ZipfDistribution(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ZipfDistribution(10, -0.5));
        assertThrows(IllegalArgumentException.class, () -> new ZipfDistribution(10, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new ZipfDistribution(10, Double.POSITIVE_INFINITY));
    }
}
