package io.transnfv.tpg.graph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Every operation's finite state machine and its count of unresolved dependencies, as flat
 * {@code int} arrays updated with VarHandle atomics: no locks.
 *
 * <pre>
 *            last dependency resolved         run by one executor
 *  BLOCKED ───────────────────────────► READY ─────────────────► EXECUTED
 *                                         │
 *                                         └─────────────────────► ABORTED
 *                                 (its function aborted, or its transaction already had)
 * </pre>
 *
 * <p>{@link #reset} is called by the coordinating thread between batches; every other method
 * may be called by any executor thread concurrently. Exactly one caller of
 * {@link #resolveDependency(int)} sees {@code true} for an operation: the one that must hand
 * it to an executor.
 */
public final class OperationStateMachine
{
    /** Waiting for at least one dependency. */
    public static final int BLOCKED = 0;
    /** Every dependency resolved; handed to (or waiting for) an executor. */
    public static final int READY = 1;
    /** Ran and its transaction had not aborted at that point. */
    public static final int EXECUTED = 2;
    /** Aborted, or skipped because its transaction aborted. */
    public static final int ABORTED = 3;

    private static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(int[].class);

    private int[] states = new int[256];
    private int[] pending = new int[256];
    private int operationCount;

    /**
     * Loads the sealed graph's dependency counts: operations without dependencies start
     * READY, the others BLOCKED. Publish to executors through a happens-before edge.
     */
    public void reset(final TaskPrecedenceGraph graph)
    {
        final int n = graph.operationCount();
        if (states.length < n)
        {
            final int capacity = Integer.highestOneBit(n - 1) << 1;
            states = new int[capacity];
            pending = new int[capacity];
        }
        for (int o = 0; o < n; o++)
        {
            final int p = graph.pendingDependencies(o);
            pending[o] = p;
            states[o] = p == 0 ? READY : BLOCKED;
        }
        operationCount = n;
    }

    /** Sets every state and count to the given values (for tests and hand-built graphs). */
    public void reset(final int[] pendingCounts, final int count)
    {
        if (states.length < count)
        {
            states = new int[Math.max(count, 1)];
            pending = new int[Math.max(count, 1)];
        }
        System.arraycopy(pendingCounts, 0, pending, 0, count);
        Arrays.fill(states, 0, count, BLOCKED);
        for (int o = 0; o < count; o++)
        {
            if (pending[o] == 0)
            {
                states[o] = READY;
            }
        }
        operationCount = count;
    }

    /** @return the number of operations loaded. */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return operation {@code o}'s state (acquire read). */
    public int state(final int o)
    {
        return (int)ELEMENTS.getAcquire(states, o);
    }

    /** @return operation {@code o}'s unresolved dependencies (acquire read). */
    public int pending(final int o)
    {
        return (int)ELEMENTS.getAcquire(pending, o);
    }

    /**
     * Resolves one dependency of {@code o}.
     *
     * @return true if that was the last one and this call moved {@code o} from BLOCKED to READY.
     */
    public boolean resolveDependency(final int o)
    {
        final int left = (int)ELEMENTS.getAndAdd(pending, o, -1) - 1;
        if (left > 0)
        {
            return false;
        }
        if (left < 0)
        {
            throw new IllegalStateException("operation " + o + " resolved more dependencies than it has");
        }
        return ELEMENTS.compareAndSet(states, o, BLOCKED, READY);
    }

    /**
     * Moves {@code o} from READY to {@code EXECUTED} or {@code ABORTED}.
     *
     * @return false if {@code o} was not READY (a bug in the caller, or a second executor).
     */
    public boolean complete(final int o, final int outcome)
    {
        if (outcome != EXECUTED && outcome != ABORTED)
        {
            throw new IllegalArgumentException("outcome " + outcome);
        }
        return ELEMENTS.compareAndSet(states, o, READY, outcome);
    }
}
