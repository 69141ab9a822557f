package io.transnfv.tpg.graph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Every operation's count of unresolved dependencies, one {@code int} per operation updated
 * with VarHandle atomics: no locks, no separate state word.
 *
 * <pre>
 *  word:  bit 30 PARKED | count of unresolved dependencies
 *
 *  sealed     count = LD (1 unless first in its transaction) + cross-transaction edges
 *  ready      count == 0: runnable; nobody else will hand it out
 *  resolve    count - 1; the resolver that brings it to 0 hands the operation out when it
 *             heads a unit of its own (single-operation units), or when the unit that reached
 *             it parked there (PARKED set)
 *  park       a unit reaching an operation with count > 0 sets PARKED and lets go: exactly
 *             one of the parker and the last resolver wins, so the unit resumes exactly once
 * </pre>
 *
 * <p>{@link #beginBatch} and {@link #set} are called while the graph is sealed (each
 * operation's count by the one sealer of its chunk), the others by executor threads
 * concurrently. A machine used by a single executor
 * ({@code concurrent == false}) uses plain loads and stores.
 */
public final class OperationStateMachine
{
    /** Set in a word when the unit that reached the operation stopped there. */
    public static final int PARKED = 1 << 30;

    private static final int COUNT = PARKED - 1;
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(int[].class);

    private int[] words = new int[256];
    private int operationCount;
    private boolean concurrent = true;
    private boolean singleOperationUnits = true;

    /**
     * Starts a batch of {@code operations} operations: sizes the array. Publish to executors
     * through a happens-before edge.
     *
     * @param concurrent           false if exactly one thread will use the machine this batch.
     * @param singleOperationUnits true if every operation is a unit of its own: its last
     *                             resolver always hands it out.
     */
    public void beginBatch(final int operations, final boolean concurrent, final boolean singleOperationUnits)
    {
        if (words.length < operations)
        {
            words = new int[Integer.highestOneBit(Math.max(1, operations - 1)) << 1];
        }
        operationCount = operations;
        this.concurrent = concurrent;
        this.singleOperationUnits = singleOperationUnits;
    }

    /** Changes whether several threads use the machine at once (before publishing the batch). */
    public void concurrent(final boolean concurrent)
    {
        this.concurrent = concurrent;
    }

    /** Changes whether every operation is a unit of its own (before publishing the batch). */
    public void singleOperationUnits(final boolean single)
    {
        this.singleOperationUnits = single;
    }

    /** Sets every count to the given values (for tests and hand-built graphs). */
    public void reset(final int[] counts, final int count)
    {
        beginBatch(count, true, true);
        System.arraycopy(counts, 0, words, 0, count);
    }

    /** Sealing: sets operation {@code o}'s count (plain store). */
    public void set(final int o, final int count)
    {
        words[o] = count;
    }

    /** @return the number of operations loaded. */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return true if operation {@code o} has no unresolved dependency (acquire read). */
    public boolean isReady(final int o)
    {
        return (pending(o)) == 0;
    }

    /** @return operation {@code o}'s unresolved dependencies (acquire read). */
    public int pending(final int o)
    {
        return (concurrent ? (int)WORDS.getAcquire(words, o) : words[o]) & COUNT;
    }

    /** @return true if a unit is parked at operation {@code o} (acquire read). */
    public boolean isParked(final int o)
    {
        return ((concurrent ? (int)WORDS.getAcquire(words, o) : words[o]) & PARKED) != 0;
    }

    /**
     * Marks the unit head {@code o} parked before the batch is published (a blocked head of an
     * operation group).
     */
    public void parkBeforeStart(final int o)
    {
        words[o] |= PARKED;
    }

    /**
     * Called by the executor whose unit has reached {@code o}: parks the unit at {@code o}
     * unless its dependencies are all resolved.
     *
     * @return true if the unit is parked (the last resolver will hand it out); false if
     *         {@code o} is ready and the caller must run it now.
     */
    public boolean park(final int o)
    {
        if (!concurrent)
        {
            final int w = words[o];
            if ((w & COUNT) == 0)
            {
                return false;
            }
            words[o] = w | PARKED;
            return true;
        }
        while (true)
        {
            final int w = (int)WORDS.getAcquire(words, o);
            if ((w & COUNT) == 0)
            {
                return false;
            }
            if (WORDS.compareAndSet(words, o, w, w | PARKED))
            {
                return true;
            }
        }
    }

    /**
     * Resolves one dependency of {@code o}.
     *
     * @return true if that was the last one and {@code o} must now be handed to an executor
     *         (it heads a unit of its own, or its unit parked at it).
     */
    public boolean resolveDependency(final int o)
    {
        final int left;
        if (concurrent)
        {
            left = (int)WORDS.getAndAdd(words, o, -1) - 1;
        }
        else
        {
            left = --words[o];
        }
        if ((left & COUNT) == COUNT)
        {
            throw new IllegalStateException("operation " + o + " resolved more dependencies than it has");
        }
        return singleOperationUnits ? left == 0 : left == PARKED;
    }

    @Override
    public String toString()
    {
        return "OperationStateMachine{operations=" + operationCount + ", pending="
            + Arrays.toString(Arrays.copyOf(words, Math.min(operationCount, 16))) + "}";
    }
}
