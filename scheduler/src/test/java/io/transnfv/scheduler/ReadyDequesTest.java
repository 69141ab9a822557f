package io.transnfv.scheduler;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReadyDequesTest
{
    @Test
    void shouldGiveTheOwnerLastInFirstOutAndThievesFirstInFirstOut()
    {
        final ReadyDeques deques = new ReadyDeques(2);
        deques.reset(8, false);
        deques.push(0, 1);
        deques.push(0, 2);
        deques.push(0, 3);
        assertEquals(3, deques.takeBottom(0));
        assertEquals(1, deques.takeTop(0));
        assertEquals(2, deques.takeBottom(0));
        assertEquals(ReadyDeques.EMPTY, deques.takeBottom(0));
        assertEquals(ReadyDeques.EMPTY, deques.takeTop(1));
    }

    @Test
    void shouldBeEmptyAfterResetAndGrowForLargerBatches()
    {
        final ReadyDeques deques = new ReadyDeques(1);
        deques.reset(4, false);
        deques.push(0, 7);
        deques.reset(10_000, false);
        assertEquals(ReadyDeques.EMPTY, deques.takeBottom(0));
        for (int i = 0; i < 10_000; i++)
        {
            deques.push(0, i);
        }
        for (int i = 9_999; i >= 0; i--)
        {
            assertEquals(i, deques.takeBottom(0));
        }
    }

    @RepeatedTest(20)
    @Timeout(30)
    void shouldHandEveryUnitToExactlyOneExecutorWhileThievesSteal() throws InterruptedException
    {
        final int units = 50_000;
        final ReadyDeques deques = new ReadyDeques(3);
        deques.reset(units, true);
        final AtomicIntegerArray taken = new AtomicIntegerArray(units);
        final CountDownLatch start = new CountDownLatch(1);
        final Thread[] thieves = new Thread[2];
        final boolean[] ownerDone = new boolean[1];
        for (int t = 0; t < thieves.length; t++)
        {
            thieves[t] = new Thread(() ->
            {
                await(start);
                while (true)
                {
                    final int unit = deques.takeTop(0);
                    if (unit >= 0)
                    {
                        taken.incrementAndGet(unit);
                    }
                    else if (unit == ReadyDeques.EMPTY && isDone(ownerDone))
                    {
                        return;
                    }
                }
            });
            thieves[t].start();
        }
        start.countDown();
        for (int u = 0; u < units; u++)
        {
            deques.push(0, u);
            if ((u & 3) == 0)
            {
                final int unit = deques.takeBottom(0);
                if (unit >= 0)
                {
                    taken.incrementAndGet(unit);
                }
            }
        }
        int unit;
        while ((unit = deques.takeBottom(0)) != ReadyDeques.EMPTY)
        {
            if (unit >= 0)
            {
                taken.incrementAndGet(unit);
            }
        }
        synchronized (ownerDone)
        {
            ownerDone[0] = true;
        }
        for (final Thread thief : thieves)
        {
            thief.join();
        }
        for (int u = 0; u < units; u++)
        {
            assertEquals(1, taken.get(u), "unit " + u);
        }
    }

    private static boolean isDone(final boolean[] flag)
    {
        synchronized (flag)
        {
            return flag[0];
        }
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
