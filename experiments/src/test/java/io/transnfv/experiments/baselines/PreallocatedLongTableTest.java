package io.transnfv.experiments.baselines;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PreallocatedLongTableTest
{
    @Test
    void shouldReadTheInitialValueForKeysNeverWritten()
    {
        final PreallocatedLongTable table = new PreallocatedLongTable(16, -1L);
        assertEquals(-1L, table.get(42));
        table.put(42, 7);
        assertEquals(7, table.get(42));
        table.put(42, -1L);
        assertArrayEquals(new long[0], table.sortedKeys());
    }

    @Test
    void shouldKeepTheKeyThatMarksFreeSlotsApartFromEveryOtherKey()
    {
        final PreallocatedLongTable table = new PreallocatedLongTable(8, 0L);
        table.put(Long.MIN_VALUE, 3);
        table.put(1, 4);
        assertEquals(3, table.get(Long.MIN_VALUE));
        assertEquals(-1, table.find(Long.MIN_VALUE));
        assertArrayEquals(new long[] {Long.MIN_VALUE, 1}, table.sortedKeys());
    }

    @Test
    void shouldRefuseAKeyWhenEverySlotIsTakenInsteadOfProbingForever()
    {
        final PreallocatedLongTable table = new PreallocatedLongTable(4, 0L);
        for (long k = 1; k <= 4; k++)
        {
            table.put(k, k);
        }
        assertThrows(IllegalStateException.class, () -> table.put(5, 5));
        assertEquals(0L, table.get(5));
    }

    @Test
    void shouldNeverLoseAKeyWhenThreadsInsertDifferentKeysAtOnce() throws Exception
    {
        final PreallocatedLongTable table = new PreallocatedLongTable(1 << 16, 0L);
        final CountDownLatch start = new CountDownLatch(1);
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++)
        {
            final int offset = t;
            threads[t] = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException e)
                {
                    return;
                }
                for (long k = offset; k < 20_000; k += threads.length)
                {
                    table.put(k, k + 1);
                }
            });
            threads[t].start();
        }
        start.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(20_000, table.sortedKeys().length);
        for (long k = 0; k < 20_000; k++)
        {
            assertEquals(k + 1, table.get(k));
        }
    }
}
