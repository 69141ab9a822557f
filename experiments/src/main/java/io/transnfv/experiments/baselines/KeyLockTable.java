package io.transnfv.experiments.baselines;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Fine-grained locks for the CHC-style store: one test-and-test-and-set spin lock per
 * (table, key) stripe, each on its own cache line, 2^14 stripes, so two different keys share a
 * lock only when their hashes collide (rare for a few thousand hot keys). A waiter spins, then
 * yields, which is what a short critical section on a machine with few cores wants. Contended
 * acquisitions are counted per caller in its own counter, never in a shared field.
 */
public final class KeyLockTable
{
    private static final int STRIPES = 1 << 14;
    private static final int STRIDE = 16; // ints per 64-byte cache line
    private static final int SPINS_BEFORE_YIELD = 64;
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(int[].class);

    private final int[] words = new int[STRIPES * STRIDE];

    /** @return the stripe guarding {@code key} of {@code table}. */
    public static int stripeOf(final int table, final long key)
    {
        return PreallocatedLongTable.hash(key * 31 + table) & (STRIPES - 1);
    }

    /**
     * Takes the lock of {@code stripe}, waiting while another thread holds it.
     *
     * @return 1 if the lock was held when asked for (the caller had to wait), else 0.
     */
    public int lock(final int stripe)
    {
        final int index = stripe * STRIDE;
        if (WORD.compareAndSet(words, index, 0, 1))
        {
            return 0;
        }
        return lockSlowPath(index);
    }

    private int lockSlowPath(final int index)
    {
        int waits = 0;
        while (true)
        {
            waits++;
            if ((int)WORD.getVolatile(words, index) == 0 && WORD.compareAndSet(words, index, 0, 1))
            {
                return 1;
            }
            if (waits % SPINS_BEFORE_YIELD == 0)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /** Releases the lock of {@code stripe}; only its holder may call this. */
    public void unlock(final int stripe)
    {
        WORD.setRelease(words, stripe * STRIDE, 0);
    }
}
