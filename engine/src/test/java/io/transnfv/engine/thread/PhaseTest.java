package io.transnfv.engine.thread;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate of a reused phase: a worker still holding a phase object from an earlier round must
 * not get into its next round before the publisher has made it current (else that worker could
 * finish the round and publish its successor, which the publisher's late write of the current
 * phase would then replace with a closed one: the job stalls with work in flight).
 */
class PhaseTest
{
    private final AtomicInteger ran = new AtomicInteger();
    private final TaskPhase phase = new TaskPhase(TimeCategory.EXECUTE, (task, worker) -> ran.incrementAndGet());

    @Test
    void shouldKeepAReArmedPhaseShutUntilItIsReleased()
    {
        phase.tasks(2).open(2, w -> null);
        assertFalse(phase.tryEnter(), "pending: a worker holding the object from an earlier round stays out");
        assertFalse(phase.offersWork());
        phase.release();
        assertTrue(phase.offersWork());
        assertTrue(phase.tryEnter());
        assertTrue(phase.work(0));
        assertEquals(2, ran.get());
        assertNotNull(phase.leave(), "the only worker, all work done: it closes the round");
    }

    @Test
    void shouldCloseTheRoundWhenTheLastWorkerLeavesAndNotLetAnyoneInAfter()
    {
        final Phase.Transition then = w -> null;
        phase.tasks(1).open(2, then);
        phase.release();
        assertTrue(phase.tryEnter());
        phase.work(0);
        assertSame(then, phase.leave(), "the last leaver with the work done closes and runs the transition");
        assertFalse(phase.tryEnter(), "closed");
        // re-armed for the next round: pending again until released
        phase.tasks(1).open(2, then);
        assertFalse(phase.tryEnter());
    }

    @Test
    void shouldCloseAnEmptyPhaseBeforeItIsPublishedButNotOneWithWork()
    {
        final Phase.Transition then = w -> null;
        phase.tasks(0).open(1, then);
        assertSame(then, phase.closeIfEmpty());
        assertFalse(phase.tryEnter());
        phase.tasks(3).open(1, then);
        assertNull(phase.closeIfEmpty());
    }

    @Test
    void shouldOpenThePublishedPhaseToTheGroupsWorkers()
    {
        final WorkerGroup group = new WorkerGroup(1, true, "phase-test");
        try
        {
            phase.tasks(1).open(1, w -> null);
            group.publish(phase, 0);
            assertSame(phase, group.current());
            assertTrue(phase.tryEnter(), "publishing releases the phase");
            assertNotNull(phase.toString());
        }
        finally
        {
            group.close();
        }
    }
}
