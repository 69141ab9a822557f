package io.transnfv.engine.chain;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The eviction cutoff's selection against sorting, on random arrays with many ties (seeded). */
class SelectionTest
{
    @Test
    void shouldFindTheValueOfEachRankAsSortingDoes()
    {
        final SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 2_000; round++)
        {
            final int n = 1 + random.nextInt(300);
            final int spread = 1 + random.nextInt(round % 3 == 0 ? 4 : 1_000);
            final long[] values = new long[n + random.nextInt(5)];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = random.nextInt(spread) - spread / 2;
            }
            final long[] sorted = Arrays.copyOf(values, n);
            Arrays.sort(sorted);
            final int k = random.nextInt(n);
            assertEquals(sorted[k], Selection.kthSmallest(values.clone(), n, k), () -> "rank " + k + " of " + Arrays.toString(sorted));
        }
    }

    @Test
    void shouldRefuseARankOutsideTheValues()
    {
        assertThrows(IllegalArgumentException.class, () -> Selection.kthSmallest(new long[3], 3, 3));
        assertThrows(IllegalArgumentException.class, () -> Selection.kthSmallest(new long[3], 3, -1));
    }
}
