package io.transnfv.engine.thread;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Abandoning the workers of a failed job: one that is finishing what it was doing (a
 * checkpoint's file, say) is given the grace to, so nothing of the job still runs when the
 * caller goes on; one stuck for good is left behind.
 */
class WorkerGroupAbandonTest
{
    @Test
    @Timeout(30)
    void shouldLetAWorkerFinishWhatItWasDoingBeforeReturning() throws Exception
    {
        final WorkerGroup group = new WorkerGroup(2, false, "abandon-finish");
        final SlowSideWork job = new SlowSideWork(300);
        group.runOnWorkers(job, null);
        group.abandon(10_000);
        assertTrue(job.finishedWork.get(), "abandon returned while a worker was still in its side work");
    }

    @Test
    @Timeout(30)
    void shouldLeaveAStuckWorkerBehindAfterTheGrace() throws Exception
    {
        final WorkerGroup group = new WorkerGroup(2, false, "abandon-stuck");
        final SlowSideWork job = new SlowSideWork(Long.MAX_VALUE);
        group.runOnWorkers(job, null);
        // returns: the test's timeout is what would fail were the stuck worker waited for
        group.abandon(100);
        job.release.countDown();
    }

    /** One worker takes side work that lasts {@code millis} (or until released); the job counts as over once it has started. */
    private static final class SlowSideWork implements WorkerGroup.Job
    {
        final AtomicBoolean started = new AtomicBoolean();
        final AtomicBoolean finishedWork = new AtomicBoolean();
        final CountDownLatch release = new CountDownLatch(1);
        private final long millis;

        SlowSideWork(final long millis)
        {
            this.millis = millis;
        }

        @Override
        public boolean finished()
        {
            return started.get();
        }

        @Override
        public boolean sideWork(final int worker, final WorkerClock clock)
        {
            if (!started.compareAndSet(false, true))
            {
                return false;
            }
            try
            {
                release.await(millis, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
            finishedWork.set(true);
            return true;
        }
    }
}
