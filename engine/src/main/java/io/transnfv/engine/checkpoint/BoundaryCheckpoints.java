package io.transnfv.engine.checkpoint;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.ingress.Ingress;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.state.MultiVersionStateTable;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * The batched engine's checkpoints, taken at batch boundaries: when one is due after batch k,
 * the worker that finishes batch k holds the engine ({@link #batchProcessed}), so no later batch
 * starts; the IO role finishes batch k's packets and takes the checkpoint ({@link #egressed}),
 * then lets the next batch start. State, counters, input and output positions are then one cut.
 * A stopped run ends with a final checkpoint after its last batch ({@link #finalCheckpoint}).
 *
 * <pre>
 *  worker:  batch k DONE ─► due? ─► hold the engine (batch k+1 waits)
 *  IO role: egress batch k ─► take the checkpoint ─► start batch k+1
 * </pre>
 *
 * <p>Threads: {@link #resume} before the workers start; {@link #batchProcessed} by the worker
 * holding the engine; the rest by the IO role.
 */
public final class BoundaryCheckpoints
{
    private final Checkpointer checkpointer;
    private final MultiVersionStateTable state;
    private final ChainRuntime runtime;
    private final Supplier<long[]> cutCounters;
    /** The batch after which a checkpoint is due: processing holds until the IO role has taken it. */
    private volatile BatchFrame holdAfter;
    /** Packets of the source that batches finished by the egress hold (the IO role's). */
    private long packetsEgressed;
    /**
     * Fragments held aside after the last batch with packets, and that batch's last packet time:
     * the cut a stopped run takes its final checkpoint at (written by the worker that finishes a
     * batch, read by the IO role after the frame's DONE).
     */
    private int heldAtLastCut;
    private long lastCutTimeNs;
    private boolean finalDone;

    /**
     * @param checkpointer takes and restores the checkpoints.
     * @param state        the committed state a checkpoint holds.
     * @param runtime      the chain, whose counters a checkpoint carries.
     * @param cutCounters  the run's counters at a cut: the egress's and every worker's share.
     */
    public BoundaryCheckpoints(
        final Checkpointer checkpointer, final MultiVersionStateTable state, final ChainRuntime runtime,
        final Supplier<long[]> cutCounters)
    {
        this.checkpointer = checkpointer;
        this.state = state;
        this.runtime = runtime;
        this.cutCounters = cutCounters;
        // checks run at the start of a batch, so a cut after a batch holds every check before it
        checkpointer.carryCheckers(runtime);
    }

    /** @param errorBound the run's error bound, whose window the checkpoints carry across a resume. */
    public void carryErrorBound(final ErrorBound errorBound)
    {
        checkpointer.carryErrorBound(errorBound);
    }

    /** Before the workers start: the loaded checkpoint's state and counters, and the source past its packets. */
    public void resume(final RunStats stats, final Ingress ingress) throws IOException
    {
        if (checkpointer.restores())
        {
            // a warm store (a Chronicle file, Redis kept) may hold more than the checkpoint: the checkpoint is the truth
            state.clearStores();
        }
        final long[] counters = checkpointer.restore(state);
        if (counters != null)
        {
            stats.addCounters(runtime.restoreCheckpointCounters(counters));
        }
        packetsEgressed = checkpointer.resumeInputPackets();
        ingress.skip(packetsEgressed);
        if (checkpointer.resumeClockNs() != Long.MIN_VALUE)
        {
            ingress.resumeClockAt(checkpointer.resumeClockNs());
        }
        checkpointer.resumed();
    }

    /**
     * The worker that finished {@code frame} (still holding the engine): notes the cut after it
     * and whether a checkpoint is due there.
     *
     * @param heldFragments fragments held aside after the batch.
     * @return whether the engine stays held until the IO role took the checkpoint after {@code frame}.
     */
    public boolean batchProcessed(final BatchFrame frame, final int heldFragments)
    {
        if (!frame.flush)
        {
            // the end of the input's flush frame times out what is held: the cut is before it
            heldAtLastCut = heldFragments;
            lastCutTimeNs = frame.count > 0 ? frame.timeNs[frame.count - 1] : lastCutTimeNs;
        }
        // a cut needs every packet read so far in the state and the outputs: none held aside as an early fragment
        final boolean hold = frame.count > 0 && heldFragments == 0 && checkpointer.dueAfterBatch(frame.timeNs[frame.count - 1]);
        if (hold)
        {
            holdAfter = frame;
        }
        return hold;
    }

    /**
     * The IO role, after the egress finished {@code frame}: if it is the batch a checkpoint is due
     * after, no later batch has started, so state is the cut's: takes the checkpoint.
     *
     * @return whether a checkpoint was taken (the caller lets the next batch start).
     */
    public boolean egressed(final BatchFrame frame) throws IOException
    {
        packetsEgressed += frame.count;
        if (frame != holdAfter)
        {
            return false;
        }
        checkpointer.take(state, packetsEgressed, frame.timeNs[frame.count - 1], runtime.checkpointCounters(cutCounters.get()));
        holdAfter = null;
        return true;
    }

    /**
     * The IO role, once a stopped run finished every batch it read: the final checkpoint at the
     * boundary after the last of them, so that a resume goes on from where the run stopped,
     * unless fragments were held aside there (the flush that followed timed them out, which a
     * resumed run must not repeat). Once per run.
     */
    public void finalCheckpoint() throws IOException
    {
        if (finalDone)
        {
            return;
        }
        finalDone = true;
        if (heldAtLastCut == 0)
        {
            checkpointer.takeFinal(state, packetsEgressed, lastCutTimeNs, runtime.checkpointCounters(cutCounters.get()));
        }
        else
        {
            checkpointer.skipFinal(heldAtLastCut);
        }
    }
}
