package io.transnfv.engine.stage;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.thread.TimeCategory;
import io.transnfv.engine.thread.WorkerClock;
import io.transnfv.tpg.txn.TransactionLog;

/**
 * Pre- and post-processing of a batch, dispatched in chunks of packets over the workers: the
 * per-chunk transaction logs each chunk declares into, and their gathering into the one log per
 * stage the executor runs. A chunk's task post-processes the stage before and pre-processes the
 * next one ({@link StageRunner} runs the VNF code); the gather copies every chunk's log into the
 * stage's at the offsets summed before it, so the stage's log holds the batch's transactions in
 * slot order whatever worker declared them.
 *
 * <pre>
 *  close (IO role)   admit + pre-process VNF 0 ─► admitted logs of the frame (per chunk)
 *  STEP s, chunk c   post-process VNF s-1 from stage log s-1 ─► pre-process VNF s ─► chunk log (s, c)
 *  prepare s         transaction/operation/extra offsets of every chunk log (s, c)
 *  GATHER s, c       chunk log (s, c) ─► stage log s at its offsets ─► executor
 * </pre>
 *
 * <p>Threads: {@link #admit} runs in the IO role on a frame no worker sees yet (its own admitted
 * logs, one set per frame); the other methods run in the phases of the batch in processing, one
 * chunk per task, with {@link #prepareGather} and {@link #stageLog} between phases. Everything is
 * allocated here, once; a large batch gets larger chunks rather than more of them.
 */
public final class StageDispatch
{
    private final StageRunner stages;
    private final StageRunner.Worker[] tools;
    private final int stageCount;
    private final int chunkPackets;
    private final TransactionLog[][] chunkLogs;
    /** Per frame, the entry VNF's chunk logs, declared by the IO role when it closes the frame. */
    private final TransactionLog[][] admittedLogs;
    private final int[][] transactionBase;
    private final int[][] operationBase;
    private final int[][] extraBase;
    private final int[] stageTransactions;
    private final TransactionLog[] stageLogs;

    /**
     * @param stages        runs the VNF code.
     * @param tools         each worker's own stage tools, by worker index.
     * @param frames        frames that go round (one set of admitted logs each).
     * @param capacity      packets a batch reads at most (sizes the chunks).
     * @param frameCapacity slots of a frame (its packets and the held fragments it may let go).
     */
    public StageDispatch(
        final StageRunner stages, final StageRunner.Worker[] tools, final int frames, final int capacity, final int frameCapacity)
    {
        this.stages = stages;
        this.tools = tools;
        this.stageCount = stages.stages();
        final int maxChunks = EngineConfiguration.STAGE_MAX_CHUNKS;
        this.chunkPackets = Math.max(EngineConfiguration.STAGE_CHUNK_PACKETS, (capacity + maxChunks - 1) / maxChunks);
        final int chunks = (frameCapacity + chunkPackets - 1) / chunkPackets;
        this.chunkLogs = new TransactionLog[stageCount][chunks];
        this.admittedLogs = new TransactionLog[frames][chunks];
        this.transactionBase = new int[stageCount][chunks];
        this.operationBase = new int[stageCount][chunks];
        this.extraBase = new int[stageCount][chunks];
        this.stageTransactions = new int[stageCount];
        this.stageLogs = new TransactionLog[stageCount];
        for (int s = 0; s < stageCount; s++)
        {
            stageLogs[s] = new TransactionLog(Math.min(capacity, 1 << 16), Math.min(capacity * 4, 1 << 18));
            for (int c = 0; c < chunks; c++)
            {
                chunkLogs[s][c] = new TransactionLog(chunkPackets, chunkPackets * 4);
            }
        }
        for (int f = 0; f < frames; f++)
        {
            for (int c = 0; c < chunks; c++)
            {
                admittedLogs[f][c] = new TransactionLog(chunkPackets, chunkPackets * 4);
            }
        }
    }

    /** @return the number of stages (VNFs). */
    public int stages()
    {
        return stageCount;
    }

    /** @return the chunks (pre- and post-processing tasks) a batch of {@code packets} is cut into. */
    public int chunks(final int packets)
    {
        return (packets + chunkPackets - 1) / chunkPackets;
    }

    /**
     * The IO role: admits the closed {@code frame} (ring slot {@code frameIndex}) and declares
     * the entry VNF's transactions, chunk by chunk, into the frame's admitted logs.
     */
    public void admit(final BatchFrame frame, final int frameIndex, final int worker)
    {
        final TransactionLog[] logs = admittedLogs[frameIndex];
        final StageRunner.Worker own = tools[worker];
        for (int c = 0, from = 0; from < frame.count; c++, from += chunkPackets)
        {
            stages.admit(frame, from, Math.min(frame.count, from + chunkPackets), logs[c], own);
        }
    }

    /** A batch starts: stage 0's chunk logs are the ones the IO role declared into when it closed ring slot {@code frameIndex}. */
    public void useAdmitted(final int frameIndex)
    {
        chunkLogs[0] = admittedLogs[frameIndex];
    }

    /** Declares the entry VNF's transactions again, for {@code frame}'s slots in the order the fragment stage left them. */
    public void preProcessEntryAgain(final BatchFrame frame, final int worker)
    {
        final TransactionLog[] logs = chunkLogs[0];
        final StageRunner.Worker own = tools[worker];
        for (int c = 0, from = 0; from < frame.count; c++, from += chunkPackets)
        {
            stages.preProcess(frame, 0, from, Math.min(frame.count, from + chunkPackets), logs[c], own);
        }
    }

    /** STEP {@code s}, chunk {@code chunk}: post-process stage {@code s - 1} and pre-process stage {@code s} for the chunk's packets. */
    public void step(final BatchFrame frame, final int s, final int chunk, final int worker, final WorkerClock clock)
    {
        final int from = chunk * chunkPackets;
        final int to = Math.min(frame.count, from + chunkPackets);
        final StageRunner.Worker own = tools[worker];
        if (s > 0 && stageTransactions[s - 1] > 0)
        {
            stages.postProcess(frame, s - 1, from, to, stageLogs[s - 1], transactionBase[s - 1][chunk], own);
        }
        if (s < stageCount)
        {
            clock.switchTo(TimeCategory.PREPROCESS);
            stages.preProcess(frame, s, from, to, chunkLogs[s][chunk], own);
            clock.switchTo(TimeCategory.POSTPROCESS);
        }
    }

    /**
     * Between the STEP and GATHER phases of stage {@code s}: each of the first {@code chunks}
     * chunk logs' place in the stage's log, and the stage's log made ready for them.
     *
     * @return the stage's transactions; with none, the stage's log is left as it is and nothing is to gather.
     */
    public int prepareGather(final int s, final int chunks)
    {
        int txns = 0;
        int ops = 0;
        int extras = 0;
        final TransactionLog[] logs = chunkLogs[s];
        for (int c = 0; c < chunks; c++)
        {
            transactionBase[s][c] = txns;
            operationBase[s][c] = ops;
            extraBase[s][c] = extras;
            txns += logs[c].transactionCount();
            ops += logs[c].operationCount();
            extras += logs[c].extraTotal();
        }
        stageTransactions[s] = txns;
        if (txns > 0)
        {
            stageLogs[s].prepareGather(txns, ops, extras);
        }
        return txns;
    }

    /** GATHER {@code s}, chunk {@code chunk}: the chunk's log into the stage's at its place. */
    public void gather(final int s, final int chunk)
    {
        final TransactionLog log = chunkLogs[s][chunk];
        if (log.transactionCount() > 0)
        {
            stageLogs[s].gather(log, transactionBase[s][chunk], operationBase[s][chunk], extraBase[s][chunk]);
        }
    }

    /**
     * Runs the fused segment ({@link FusedSegment}) on {@code frame}, after the STEP phase of its
     * first stage declared that stage's transactions into the chunk logs; the STEP of the stage
     * after the segment then post-processes nothing (the segment did), and pre-processes that stage.
     */
    public void runFused(final FusedSegment segment, final BatchFrame frame, final int worker)
    {
        segment.run(frame, chunkLogs[segment.firstStage()], chunkPackets, tools[worker]);
        stageTransactions[segment.lastStage()] = 0;
    }

    /** @return stage {@code s}'s log, gathered: what the executor runs. */
    public TransactionLog stageLog(final int s)
    {
        return stageLogs[s];
    }
}
