package io.transnfv.engine.thread;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Engaging fewer workers than the group has: the others neither poll nor take side work until
 * engaged again, and a job still finishes on the engaged ones alone.
 */
class WorkerGroupEngagementTest
{
    @Test
    void shouldLeaveSideWorkToTheEngagedWorkersAndLetTheOthersInOnceEngaged()
    {
        try (WorkerGroup group = new WorkerGroup(2, false, "engagement-test"))
        {
            final CountingJob oneWorker = new CountingJob(group, 20_000, -1);
            group.engage(1);
            assertEquals(1, group.engaged());
            group.runOnWorkers(oneWorker, null);
            assertEquals(20_000, oneWorker.calls.get(0));
            assertEquals(0, oneWorker.calls.get(1), "a disengaged worker takes no side work");

            // engaged again part-way through: the second worker joins in before the job may end
            final CountingJob widened = new CountingJob(group, 1_000, 1_000);
            group.runOnWorkers(widened, null);
            assertTrue(widened.calls.get(1) > 0, "worker 1 took side work once engaged");
            assertEquals(2, group.engaged());
        }
    }

    @Test
    void shouldClampTheEngagedWorkersToTheGroup()
    {
        try (WorkerGroup group = new WorkerGroup(3, true, "engagement-clamp"))
        {
            group.engage(0);
            assertEquals(1, group.engaged(), "worker 0 always polls");
            group.engage(9);
            assertEquals(3, group.engaged());
        }
    }

    /** Side work that counts its calls per worker; over once worker 0 did enough and, if asked, worker 1 did some. */
    private static final class CountingJob implements WorkerGroup.Job
    {
        private final WorkerGroup group;
        private final long enough;
        private final long engageAt;
        final AtomicLongArray calls = new AtomicLongArray(2);

        CountingJob(final WorkerGroup group, final long enough, final long engageAt)
        {
            this.group = group;
            this.enough = enough;
            this.engageAt = engageAt;
        }

        @Override
        public boolean finished()
        {
            return calls.get(0) >= enough && (engageAt < 0 || calls.get(1) > 0);
        }

        @Override
        public boolean sideWork(final int worker, final WorkerClock clock)
        {
            if (finished())
            {
                return false;
            }
            if (calls.incrementAndGet(worker) == engageAt && worker == 0)
            {
                group.engage(2);
            }
            return true;
        }
    }
}
