package io.transnfv.engine.batch;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The batch frames that go round, the three positions on the ring, and the engine flag that
 * says whether a batch is in processing. The IO role fills the frame at the fill position and
 * closes it READY; a worker that holds the engine takes the READY frame at the process position
 * through its phases to DONE; the IO role finishes the DONE frame at the emit position and frees
 * it. Each position is moved by its one owner only.
 *
 * <pre>
 *         fill ──► FREE ─► FILLING ─► READY                           (IO role)
 *      process ──►                    READY ─► PROCESSING ─► DONE     (worker holding the engine)
 *         emit ──►                                           DONE ─► FREE (IO role)
 * </pre>
 *
 * <p>The engine flag ({@code idle} 1, held 0) is won by a compare-and-set: whoever wins it may
 * start the next READY batch, and no batch starts while another holds it (the IO role holds it
 * to answer state lookups and for a due checkpoint). Frames are allocated by
 * {@link #allocate} before the workers start.
 */
public final class FrameRing
{
    /** The pipeline's depth, not a tuning knob: one frame filling, one in the engine, one draining. */
    public static final int FRAMES = BatchMemory.FRAMES;

    private final BatchFrame[] frames = new BatchFrame[FRAMES];
    private final AtomicInteger engineIdle = new AtomicInteger(1);
    private volatile int fillIndex;
    private volatile int emitIndex;
    private volatile int processIndex;

    /** Before the workers start: the frames, each with {@code slots} slots and a packet buffer of {@code bufferBytes}. */
    public void allocate(final int slots, final int bufferBytes)
    {
        for (int f = 0; f < FRAMES; f++)
        {
            frames[f] = new BatchFrame(slots, bufferBytes);
        }
    }

    /** @return the frame at ring slot {@code index}. */
    public BatchFrame frame(final int index)
    {
        return frames[index];
    }

    /** @return the ring slot the IO role fills next. */
    public int fillIndex()
    {
        return fillIndex;
    }

    /** @return the frame the IO role fills next. */
    public BatchFrame filling()
    {
        return frames[fillIndex];
    }

    /** The IO role closed and admitted the filling frame: READY for the workers, and the fill position moves on. */
    public void filled(final BatchFrame frame)
    {
        frame.state(BatchFrame.READY);
        fillIndex = next(fillIndex);
    }

    /** @return the frame the IO role finishes next (DONE when it is to be finished). */
    public BatchFrame emitting()
    {
        return frames[emitIndex];
    }

    /** The IO role finished {@code frame}'s packets: cleared, FREE, and the emit position moves on. */
    public void emitted(final BatchFrame frame)
    {
        frame.clear();
        frame.state(BatchFrame.FREE);
        emitIndex = next(emitIndex);
    }

    /** @return the ring slot of the batch in processing, or of the next one to process. */
    public int processIndex()
    {
        return processIndex;
    }

    /** @return the frame at the process position. */
    public BatchFrame processing()
    {
        return frames[processIndex];
    }

    /**
     * The worker holding the engine: {@code frame} is through the chain, DONE for the IO role,
     * and the process position moves on.
     *
     * @return the new process position.
     */
    public int processed(final BatchFrame frame)
    {
        frame.state(BatchFrame.DONE);
        final int nextIndex = next(processIndex);
        processIndex = nextIndex;
        return nextIndex;
    }

    /** @return whether every frame is FREE: nothing read, in processing or unfinished. */
    public boolean allFree()
    {
        for (final BatchFrame frame : frames)
        {
            if (frame.state() != BatchFrame.FREE)
            {
                return false;
            }
        }
        return true;
    }

    /** @return whether no batch is in processing and nobody holds the engine. */
    public boolean engineIdle()
    {
        return engineIdle.get() == 1;
    }

    /** @return whether this caller won the engine: it was idle, and now nobody else starts a batch. */
    public boolean holdEngine()
    {
        return engineIdle.get() == 1 && engineIdle.compareAndSet(1, 0);
    }

    /** The engine is idle again: whoever wins it next may start a batch. */
    public void releaseEngine()
    {
        engineIdle.set(1);
    }

    /**
     * The caller holds the engine: the frame at the process position if it is READY (the engine
     * stays held for it), else the engine is released. The workers may have taken a batch the
     * caller saw close, and finished it, meanwhile: only a batch really waiting is started.
     *
     * @return the frame to start, or null.
     */
    public BatchFrame readyOrRelease()
    {
        final BatchFrame next = frames[processIndex];
        if (next.state() == BatchFrame.READY)
        {
            return next;
        }
        engineIdle.set(1);
        return null;
    }

    /**
     * After the engine was released: wins it if the IO role made the next batch ready meanwhile
     * and nobody else took it. Between seeing it ready and winning the flag, another worker may
     * have started it, finished it, and the IO role freed it (a preempted thread sees all of that
     * happen): so the batch is looked at again once the flag is won, and if it is not ready the
     * flag is released and the look repeated, so that a batch the IO role closed while this
     * caller held the flag is not left waiting.
     *
     * @return the frame to start, the engine held for it; or null.
     */
    public BatchFrame claimReady()
    {
        while (true)
        {
            if (frames[processIndex].state() != BatchFrame.READY || !engineIdle.compareAndSet(1, 0))
            {
                return null;
            }
            final BatchFrame won = frames[processIndex];
            if (won.state() == BatchFrame.READY)
            {
                return won;
            }
            engineIdle.set(1);
        }
    }

    /** @return the frames' states and counts and the positions, for a diagnostic. */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("frames=[");
        for (final BatchFrame frame : frames)
        {
            sb.append(frame == null ? "-" : frame.state() + ":" + frame.count).append(' ');
        }
        return sb.append("] fill=").append(fillIndex).append(" emit=").append(emitIndex).append(" process=").append(processIndex)
            .append(" engineIdle=").append(engineIdle.get()).toString();
    }

    private static int next(final int index)
    {
        return index + 1 == FRAMES ? 0 : index + 1;
    }
}
