package io.transnfv.tpg.graph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Every operation's finite state machine and its count of unresolved dependencies, as flat
 * {@code int} arrays updated with VarHandle atomics: no locks.
 *
 * <pre>
 *            last dependency resolved              run by one executor
 *  BLOCKED ─────────────────────────────► READY ─────────────────────► EXECUTED
 *     │                                     ▲  │
 *     │ the unit reached it first (park)    │  └─────────────────────► ABORTED
 *     ▼                                     │  (its function aborted, or its transaction had)
 *  PARKED ──────────────────────────────────┘
 *           last dependency resolved: the resolver must hand the unit back to an executor
 * </pre>
 *
 * <p>A unit of work (one operation, or a group of them run in serial order) that reaches an
 * operation whose dependencies are not all resolved parks it ({@link #park(int)}) and lets
 * go; exactly one of the parking executor and the last resolver wins the race on the state,
 * so the unit is resumed exactly once and nobody waits or spins on a dependency.
 *
 * <p>{@link #reset} is called by the coordinating thread between batches; every other method
 * may be called by any executor thread concurrently. A machine reset for a single executor
 * ({@code concurrent == false}) uses plain loads and stores: with one thread there is nobody
 * to race with.
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
    /** Blocked, and the unit it belongs to stopped at it: its last resolver resumes the unit. */
    public static final int PARKED = 4;

    private static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(int[].class);

    private int[] states = new int[256];
    private int[] pending = new int[256];
    private int operationCount;
    private boolean concurrent = true;

    /**
     * Starts a batch of {@code operations} operations: sizes the arrays. The sealing threads then
     * set every operation's count ({@link #setPending}) and initial state ({@link #initialise});
     * publish to executors through a happens-before edge.
     *
     * @param concurrent false if exactly one executor thread will use the machine this batch.
     */
    public void beginBatch(final int operations, final boolean concurrent)
    {
        ensureCapacity(operations);
        operationCount = operations;
        this.concurrent = concurrent;
    }

    /** Sealing: sets operation {@code o}'s number of unresolved dependencies (plain store). */
    public void setPending(final int o, final int count)
    {
        pending[o] = count;
    }

    /**
     * Sealing, after {@link #setPending}: sets operation {@code o}'s initial state (plain store).
     *
     * @param unitHead true if {@code o} heads a unit of work: blocked, it starts PARKED so that
     *                 its last resolver hands the unit to an executor.
     * @return true if {@code o} is READY.
     */
    public boolean initialise(final int o, final boolean unitHead)
    {
        if (pending[o] == 0)
        {
            states[o] = READY;
            return true;
        }
        states[o] = unitHead ? PARKED : BLOCKED;
        return false;
    }

    /** Changes whether the machine is used by several executor threads at once. */
    public void concurrent(final boolean concurrent)
    {
        this.concurrent = concurrent;
    }

    /** Sets every state and count to the given values (for tests and hand-built graphs). */
    public void reset(final int[] pendingCounts, final int count)
    {
        ensureCapacity(count);
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
        concurrent = true;
    }

    private void ensureCapacity(final int n)
    {
        if (states.length < n)
        {
            final int capacity = Integer.highestOneBit(Math.max(1, n - 1)) << 1;
            states = new int[capacity];
            pending = new int[capacity];
        }
    }

    /** @return the number of operations loaded. */
    public int operationCount()
    {
        return operationCount;
    }

    /** @return operation {@code o}'s state (acquire read). */
    public int state(final int o)
    {
        return concurrent ? (int)ELEMENTS.getAcquire(states, o) : states[o];
    }

    /** @return operation {@code o}'s unresolved dependencies (acquire read). */
    public int pending(final int o)
    {
        return concurrent ? (int)ELEMENTS.getAcquire(pending, o) : pending[o];
    }

    /**
     * Marks a BLOCKED operation PARKED before the batch is published (the coordinating thread
     * parks every blocked unit head while seeding).
     */
    public void parkBeforeStart(final int o)
    {
        states[o] = PARKED;
    }

    /**
     * Called by the executor whose unit has reached {@code o}: parks the unit at {@code o}
     * unless {@code o} became READY meanwhile.
     *
     * @return true if the unit is parked (the last resolver will resume it); false if
     *         {@code o} is READY and the caller must run it now.
     */
    public boolean park(final int o)
    {
        if (!concurrent)
        {
            if (states[o] == BLOCKED)
            {
                states[o] = PARKED;
                return true;
            }
            return false;
        }
        return ELEMENTS.compareAndSet(states, o, BLOCKED, PARKED);
    }

    /**
     * Resolves one dependency of {@code o}.
     *
     * @return true if that was the last one and {@code o}'s unit was parked at it: the caller
     *         must hand the unit to an executor. False if dependencies remain, or if {@code o}
     *         became READY and its unit (running, or not yet there) will find it.
     */
    public boolean resolveDependency(final int o)
    {
        final int left;
        if (concurrent)
        {
            left = (int)ELEMENTS.getAndAdd(pending, o, -1) - 1;
        }
        else
        {
            left = --pending[o];
        }
        if (left > 0)
        {
            return false;
        }
        if (left < 0)
        {
            throw new IllegalStateException("operation " + o + " resolved more dependencies than it has");
        }
        if (!concurrent)
        {
            final boolean parked = states[o] == PARKED;
            states[o] = READY;
            return parked;
        }
        if (ELEMENTS.compareAndSet(states, o, BLOCKED, READY))
        {
            return false;
        }
        // lost to park(): the unit stopped at o, nobody else touches a PARKED operation
        ELEMENTS.setRelease(states, o, READY);
        return true;
    }

    /**
     * Records that {@code o} ran ({@code EXECUTED}) or was aborted or skipped ({@code ABORTED}).
     * Called once per operation by the executor that ran it; read after the batch.
     */
    public void complete(final int o, final int outcome)
    {
        if (outcome != EXECUTED && outcome != ABORTED)
        {
            throw new IllegalArgumentException("outcome " + outcome);
        }
        if (concurrent)
        {
            ELEMENTS.setRelease(states, o, outcome);
        }
        else
        {
            states[o] = outcome;
        }
    }
}
