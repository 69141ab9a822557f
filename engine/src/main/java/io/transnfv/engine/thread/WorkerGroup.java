package io.transnfv.engine.thread;

import io.transnfv.engine.EngineConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's workers: {@code N} symmetric threads that run a {@link Job}. A job publishes
 * {@link Phase}s through {@link #publish}; every worker enters the current phase if it can,
 * works until nothing is left to claim, and leaves; the one that closes the phase runs its
 * transition and publishes the next. A worker with no phase to enter asks the job for side
 * work (the IO role: reading the next batch, finishing the last), and failing that idles: it
 * spins, then yields, then parks with a growing period, and anyone who publishes work wakes
 * the parked ones.
 *
 * <pre>
 *  worker w:  ┌─► current phase enterable? ─yes─► work ─► leave ─(closed it)─► transition ─► publish
 *             │        │no
 *             │        └─► side work? ─yes─► (ingress / egress) ─┐
 *             │              │no                                 │
 *             └── idle: spin ─► yield ─► park ◄── wake ──────────┘
 * </pre>
 *
 * <p>Not every worker need poll: the job may {@linkplain #engage engage} fewer (one while the
 * input keeps running dry, say). A disengaged worker parks whenever it is idle, even with work in
 * flight, and only {@link #engage} or the job's end wakes it; it never holds anything the others
 * need, since no task has to run on a particular worker. Its core is then free for what else
 * the machine runs (the JIT, the collector, the operating system), which would otherwise preempt
 * a spinning worker for a whole scheduler slice.
 *
 * <p>Two modes: {@link #runOnCaller} makes the calling thread worker 0 (a batch executor called
 * by a benchmark), {@link #runOnWorkers} runs every worker on its own {@link WorkerThread} and
 * parks the caller until the job is over (a chain run: every worker owns a counter stripe).
 * Threads are started once and reused job after job.
 *
 * <p>A worker that throws out of a job, or whose thread dies (its uncaught-exception handler),
 * fails the job at once: the waiting caller wakes and {@link #runOnWorkers} throws, naming the
 * thread, instead of the others waiting forever for a phase it never leaves.
 */
public final class WorkerGroup implements AutoCloseable
{
    /** What the workers run: phases published through the group, plus optional side work. */
    public interface Job
    {
        /** @return true once the job is over: workers leave it. */
        boolean finished();

        /**
         * Side work for worker {@code worker}, which found no phase to enter.
         *
         * @param clock the worker's clock: switch it to the category of what is done.
         * @return true if it did some work.
         */
        default boolean sideWork(final int worker, final WorkerClock clock)
        {
            return false;
        }

        /**
         * @return true if side work should go before phase work now: a worker that finds it so
         *         takes the side work first (the chain engine's IO role keeps reading while other
         *         workers process). False by default: phases first.
         */
        default boolean sideWorkFirst()
        {
            return false;
        }

        /** @return true while work is in flight: time spent idle then counts as waiting. */
        default boolean inFlight()
        {
            return true;
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(WorkerGroup.class);
    /** A worker that waits this long for work in flight reports the job's state once (a stall is a bug). */
    private static final long STALL_REPORT_NS = EngineConfiguration.WORKER_STALL_REPORT_NS;
    /** A disengaged worker's park: engaging it wakes it at once; this only bounds a missed wake-up. */
    private static final long DISENGAGED_PARK_NS = EngineConfiguration.WORKER_DISENGAGED_PARK_NS;
    /** A helper's park between jobs: starting a job wakes it at once; this only bounds a missed wake-up. */
    private static final long HELPER_IDLE_PARK_NS = 1_000_000L;
    private static final int PAD = 16;
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle PARKED;

    static
    {
        try
        {
            PARKED = MethodHandles.lookup().findVarHandle(WorkerGroup.class, "parked", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int workers;
    private final boolean callerIsWorker;
    private final Thread[] threads;
    private final WorkerClock[] clocks;
    private final int[] parkedFlags;
    private final IdleSettings idle;
    private volatile int parked;
    /** Workers 0 .. engaged - 1 poll for work; the others park when idle. */
    private volatile int engaged;
    private volatile Phase current;
    private volatile Job job;
    private volatile long generation;
    private volatile boolean closed;
    private volatile Thread waiter;
    private volatile Throwable failure;
    private final FailurePoint failurePoint = new FailurePoint("worker");

    /**
     * Starts the worker threads.
     *
     * @param workers        workers, at least 1.
     * @param callerIsWorker true if the thread calling {@link #runOnCaller} is worker 0 (then
     *                       {@code workers - 1} threads start), false for {@link #runOnWorkers}.
     * @param name           prefix of the threads' names.
     */
    public WorkerGroup(final int workers, final boolean callerIsWorker, final String name)
    {
        if (workers < 1)
        {
            throw new IllegalArgumentException("workers must be >= 1: " + workers);
        }
        this.workers = workers;
        this.callerIsWorker = callerIsWorker;
        this.threads = new Thread[workers];
        this.clocks = new WorkerClock[workers];
        this.parkedFlags = new int[(workers + 2) * PAD];
        this.idle = IdleSettings.fromConfiguration();
        this.engaged = workers;
        for (int w = 0; w < workers; w++)
        {
            clocks[w] = new WorkerClock();
        }
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            final int index = w;
            threads[w] = new WorkerThread(() -> helperLoop(index), name + "-" + w);
            threads[w].setUncaughtExceptionHandler((thread, e) -> workerFailed(thread, e));
        }
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            threads[w].start();
        }
    }

    /** @return the number of workers. */
    public int workers()
    {
        return workers;
    }

    /** @return the workers engaged now: 0 .. engaged - 1 poll for work. */
    public int engaged()
    {
        return engaged;
    }

    /**
     * Engages workers 0 .. {@code count - 1} (clamped to 1 .. workers); the others park whenever
     * they are idle until engaged again. Engaging more wakes them. Any thread; the job decides.
     */
    public void engage(final int count)
    {
        final int n = Math.max(1, Math.min(workers, count));
        final int before = engaged;
        if (n != before)
        {
            engaged = n;
            if (n > before)
            {
                wakeAll();
            }
        }
    }

    /** @return worker {@code w}'s thread (null for worker 0 of a caller-driven group between jobs). */
    public Thread thread(final int w)
    {
        return threads[w];
    }

    /** @return worker {@code w}'s clock. */
    public WorkerClock clock(final int w)
    {
        return clocks[w];
    }

    /**
     * Runs {@code job} with the calling thread as worker 0, from phase {@code first} (opened, or
     * null if side work starts the job), until it is finished.
     *
     * @throws IllegalStateException if a worker failed outside a phase's own failure handling.
     */
    public void runOnCaller(final Job job, final Phase first)
    {
        if (!callerIsWorker)
        {
            throw new IllegalStateException("this group runs jobs on its own threads");
        }
        threads[0] = Thread.currentThread();
        start(job, skipEmpty(first, 0));
        workLoop(0, job);
        rethrowFailure();
    }

    /**
     * Runs {@code job} on the worker threads from phase {@code first} (opened, or null) and parks
     * the caller until it is finished.
     *
     * @throws IllegalStateException if a worker died.
     */
    public void runOnWorkers(final Job job, final Phase first)
    {
        if (callerIsWorker)
        {
            throw new IllegalStateException("this group needs its caller as worker 0");
        }
        waiter = Thread.currentThread();
        start(job, skipEmpty(first, 0));
        while (!job.finished() && failure == null)
        {
            LockSupport.parkNanos(this, EngineConfiguration.WORKER_WAITER_PARK_NS);
        }
        waiter = null;
        rethrowFailure();
    }

    private void start(final Job job, final Phase first)
    {
        failure = null;
        current = first;
        if (first != null)
        {
            first.release();
        }
        this.job = job;
        generation = generation + 1;
        wakeAll();
    }

    /**
     * Publishes {@code phase} (opened) as the current one and wakes parked workers; a phase with
     * nothing to do is closed at once and its successor published instead, on the calling thread.
     * A null phase (after empty ones) publishes nothing. One publisher at a time: the worker that
     * closed the current phase, or, when that transition led nowhere, the one job role that may
     * start new work (the chain engine's IO role, after winning the engine's idle flag).
     *
     * @param worker the calling worker (it runs the transitions of empty phases).
     */
    public void publish(final Phase phase, final int worker)
    {
        final Phase next = skipEmpty(phase, worker);
        if (next != null)
        {
            current = next;
            next.release();
            wakeAll();
        }
    }

    private static Phase skipEmpty(final Phase phase, final int worker)
    {
        Phase p = phase;
        while (p != null)
        {
            final Phase.Transition t = p.closeIfEmpty();
            if (t == null)
            {
                break;
            }
            p = t.next(worker);
        }
        return p;
    }

    /** @return the phase published last. */
    public Phase current()
    {
        return current;
    }

    /**
     * The job is over (or there is new side work): wakes every parked engaged worker (every
     * worker once the job is over) and the waiting caller.
     */
    public void wakeAll()
    {
        final Job j = job;
        final boolean over = j != null && j.finished();
        if (parked != 0)
        {
            final int upTo = over || closed ? workers : engaged;
            for (int w = 0; w < upTo; w++)
            {
                final int flag = (w + 1) * PAD;
                if ((int)FLAGS.getVolatile(parkedFlags, flag) == 1 && FLAGS.compareAndSet(parkedFlags, flag, 1, 0))
                {
                    LockSupport.unpark(threads[w]);
                }
            }
        }
        final Thread w = waiter;
        if (w != null && over)
        {
            LockSupport.unpark(w);
        }
    }

    /** New work appeared that one more worker could take: wakes one parked engaged worker, if any. */
    public void wakeOne()
    {
        if (parked == 0)
        {
            return;
        }
        final int upTo = engaged;
        for (int w = 0; w < upTo; w++)
        {
            final int flag = (w + 1) * PAD;
            if ((int)FLAGS.getVolatile(parkedFlags, flag) == 1 && FLAGS.compareAndSet(parkedFlags, flag, 1, 0))
            {
                LockSupport.unpark(threads[w]);
                return;
            }
        }
    }

    private void helperLoop(final int w)
    {
        long seen = 0;
        while (!closed)
        {
            final Job j = job;
            final long g = generation;
            if (j == null || g == seen || j.finished())
            {
                awaitJob(w, seen);
                continue;
            }
            seen = g;
            try
            {
                workLoop(w, j);
            }
            catch (final FailurePoint.InjectedFailure e)
            {
                // a test's stand-in for a thread that dies: let it die (the handler reports it)
                throw e;
            }
            catch (final Throwable t)
            {
                workerFailed(Thread.currentThread(), t);
            }
        }
    }

    private void workerFailed(final Thread thread, final Throwable t)
    {
        failure = new WorkerDied(thread.getName(), t);
        final Thread caller = waiter;
        if (caller != null)
        {
            LockSupport.unpark(caller);
        }
    }

    /** What {@link #runOnWorkers} throws when a worker failed: names the thread. */
    private static final class WorkerDied extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        WorkerDied(final String thread, final Throwable cause)
        {
            super("thread " + thread + " died: " + cause, cause);
        }
    }

    private void workLoop(final int w, final Job job)
    {
        final WorkerClock clock = clocks[w];
        final IdleSettings idle = this.idle;
        int idleCount = 0;
        long parkNs = idle.minParkNs();
        boolean idling = false;
        boolean inFlight = false;
        boolean resting = false;
        long waitingSinceNs = 0;
        boolean stallReported = false;
        while (true)
        {
            failurePoint.check();
            // side work (the IO role) stays with the engaged workers
            if (w < engaged && job.sideWorkFirst() && job.sideWork(w, clock))
            {
                idling = false;
                continue;
            }
            final Phase p = current;
            if (p != null && p.tryEnter())
            {
                clock.switchTo(p.category());
                Phase.Transition transition;
                boolean worked = false;
                try
                {
                    worked = p.work(w);
                }
                finally
                {
                    transition = p.leave();
                }
                if (transition != null)
                {
                    clock.switchTo(TimeCategory.TRANSITION);
                    final Phase next = skipEmpty(transition.next(w), w);
                    if (next != null)
                    {
                        publish(next, w);
                    }
                    // else the job has no phase now: the closed one stays current (nobody can enter
                    // it), so that a phase side work publishes meanwhile (the same object, re-armed,
                    // perhaps) is never overwritten
                    idling = false;
                    continue;
                }
                if (worked)
                {
                    idling = false;
                    continue;
                }
                // entered but found nothing to claim: others hold the work; wait like any idle worker
            }
            else if (job.finished())
            {
                clock.switchTo(TimeCategory.IDLE);
                wakeAll();
                return;
            }
            if (w >= engaged)
            {
                // disengaged: rest until engaged again or the job is over (both wake it)
                if (!resting)
                {
                    clock.switchTo(TimeCategory.IDLE);
                    resting = true;
                }
                park(w, DISENGAGED_PARK_NS, job);
                continue;
            }
            if (job.sideWork(w, clock))
            {
                idling = false;
                continue;
            }
            if (!idling || resting)
            {
                resting = false;
                inFlight = job.inFlight();
                clock.switchTo(inFlight ? TimeCategory.WAIT : TimeCategory.IDLE);
                idling = true;
                idleCount = 0;
                parkNs = idle.minParkNs();
                waitingSinceNs = System.nanoTime();
            }
            else if (!stallReported && (idleCount & 1023) == 0 && inFlight
                && System.nanoTime() - waitingSinceNs > STALL_REPORT_NS)
            {
                // work in flight and nobody able to take it for this long is a bug: say where the job is
                stallReported = true;
                LOG.warn("worker {} has waited {} ms for work in flight: job {}, phase {}", w,
                    (System.nanoTime() - waitingSinceNs) / 1_000_000, job, current);
            }
            if (idleCount < idle.spins())
            {
                Thread.onSpinWait();
            }
            else if (idleCount < idle.spins() + idle.yields() || (inFlight && (inFlight = job.inFlight())))
            {
                // while work is in flight the next hand-over is microseconds away: a parked worker
                // would wake tens of microseconds late, so only a worker with nothing in flight parks
                Thread.yield();
            }
            else
            {
                park(w, parkNs, job);
                parkNs = Math.min(parkNs << 1, idle.maxParkNs());
            }
            idleCount++;
        }
    }

    /**
     * A helper between jobs: parks until a new job starts (which wakes it) or a millisecond
     * passes. Unlike {@link #park}, a finished job does not keep it awake: that is the normal
     * state between two jobs, and a helper that skipped its park then would spin at full speed
     * for as long as its group stays idle.
     */
    private void awaitJob(final int w, final long seen)
    {
        final int flag = (w + 1) * PAD;
        FLAGS.setVolatile(parkedFlags, flag, 1);
        PARKED.getAndAdd(this, 1);
        final Job j = job;
        if (!closed && (generation == seen || j == null || j.finished()))
        {
            LockSupport.parkNanos(this, HELPER_IDLE_PARK_NS);
        }
        FLAGS.setVolatile(parkedFlags, flag, 0);
        PARKED.getAndAdd(this, -1);
    }

    private void park(final int w, final long ns, final Job job)
    {
        final int flag = (w + 1) * PAD;
        FLAGS.setVolatile(parkedFlags, flag, 1);
        PARKED.getAndAdd(this, 1);
        final Phase p = current;
        if (!closed && (p == null || !p.offersWork()) && (job == null || !job.finished()))
        {
            LockSupport.parkNanos(this, ns);
        }
        FLAGS.setVolatile(parkedFlags, flag, 0);
        PARKED.getAndAdd(this, -1);
    }

    private void rethrowFailure()
    {
        final Throwable t = failure;
        if (t != null)
        {
            failure = null;
            throw new IllegalStateException(t instanceof WorkerDied ? t.getMessage() : "a worker failed: " + t,
                t instanceof WorkerDied ? t.getCause() : t);
        }
    }

    /**
     * Stops the workers, waiting for them at most {@code graceMs} in all: for a failed job, where
     * one may be stuck in code that never returns. A worker that is only finishing what it was
     * doing (writing a checkpoint, say) is given the time to, so that nothing of this job still
     * writes when the caller goes on (to resume from those checkpoints, say); one stuck for good
     * is left behind. The threads are daemons; they leave when they next look.
     */
    public void abandon(final long graceMs)
    {
        closed = true;
        final Job j = job;
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            LockSupport.unpark(threads[w]);
        }
        if (j != null)
        {
            wakeAll();
        }
        final long deadline = System.nanoTime() + graceMs * 1_000_000L;
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            final long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0)
            {
                return;
            }
            try
            {
                threads[w].join(leftMs);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            LockSupport.unpark(threads[w]);
        }
        for (int w = callerIsWorker ? 1 : 0; w < workers; w++)
        {
            try
            {
                threads[w].join(5_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
