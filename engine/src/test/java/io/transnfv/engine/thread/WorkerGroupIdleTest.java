package io.transnfv.engine.thread;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A group between jobs costs nothing: its helpers park until the next job starts. A helper
 * that found its last job finished once skipped its park and spun, so every idle executor kept
 * a core busy (a standalone executor's helper between two batches; twelve idle executors in
 * one process kept the load average at eleven). Judged by the helpers' thread states, which
 * read RUNNABLE for a spinning thread however loaded the machine is, not by time.
 */
class WorkerGroupIdleTest
{
    private static final int SAMPLES = 200;

    @Test
    @Timeout(30)
    void shouldParkHelpersBetweenJobsOfACallerRunGroup() throws Exception
    {
        try (WorkerGroup group = new WorkerGroup(3, true, "idle-caller"))
        {
            for (int round = 0; round < 3; round++)
            {
                final OneTaskJob job = new OneTaskJob();
                group.runOnCaller(job, job.phase);
                assertEquals(1, job.runs.get(), "the job's one task ran once");
            }
            assertHelpersMostlyParked("idle-caller-");
        }
    }

    @Test
    @Timeout(30)
    void shouldParkWorkersAfterAJobOnWorkersIsOver() throws Exception
    {
        try (WorkerGroup group = new WorkerGroup(2, false, "idle-workers"))
        {
            final OneTaskJob job = new OneTaskJob();
            group.runOnWorkers(job, job.phase);
            assertEquals(1, job.runs.get(), "the job's one task ran once");
            assertHelpersMostlyParked("idle-workers-");
        }
    }

    @Test
    @Timeout(30)
    void shouldStillWakeAHelperForTheNextJob() throws Exception
    {
        try (WorkerGroup group = new WorkerGroup(2, false, "idle-wake"))
        {
            for (int round = 0; round < 50; round++)
            {
                final OneTaskJob job = new OneTaskJob();
                group.runOnWorkers(job, job.phase);
                assertEquals(1, job.runs.get(), "round " + round + ": the job's one task ran once");
            }
        }
    }

    /** Samples every helper's state {@link #SAMPLES} times, 1 ms apart: a parked helper is almost never RUNNABLE. */
    private static void assertHelpersMostlyParked(final String prefix) throws InterruptedException
    {
        Thread.sleep(50);
        final List<Thread> helpers = new ArrayList<>();
        for (final Thread t : Thread.getAllStackTraces().keySet())
        {
            if (t.getName().startsWith(prefix))
            {
                helpers.add(t);
            }
        }
        assertTrue(!helpers.isEmpty(), "no helper thread named " + prefix + "*");
        int runnable = 0;
        for (int i = 0; i < SAMPLES; i++)
        {
            for (final Thread t : helpers)
            {
                if (t.getState() == Thread.State.RUNNABLE)
                {
                    runnable++;
                }
            }
            Thread.sleep(1);
        }
        final int samples = SAMPLES * helpers.size();
        assertTrue(runnable < samples / 4,
            "idle helpers were RUNNABLE in " + runnable + " of " + samples + " samples: they spin instead of parking");
    }

    /** A job of one phase with one task, which ends the job when it closes. */
    private static final class OneTaskJob implements WorkerGroup.Job, Phase.Transition
    {
        final AtomicInteger runs = new AtomicInteger();
        private volatile boolean finished;
        final Phase phase;

        OneTaskJob()
        {
            final TaskPhase tasks = new TaskPhase(TimeCategory.EXECUTE, (task, worker) -> runs.incrementAndGet());
            phase = tasks.tasks(1).open(1, this);
        }

        @Override
        public boolean finished()
        {
            return finished;
        }

        @Override
        public Phase next(final int worker)
        {
            finished = true;
            return null;
        }
    }
}
