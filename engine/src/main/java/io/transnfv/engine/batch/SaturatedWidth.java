package io.transnfv.engine.batch;

import java.util.Arrays;

/**
 * How many workers pay when the input keeps every worker busy, measured rather than assumed.
 * On a machine where a packet's buffer, record and state lines are dear to move between cores,
 * two workers can process fewer packets per second than one; elsewhere they process nearly
 * twice as many. Which holds depends on the machine, the chain and the traffic, and can change
 * during a run, so the engine tries both, as the scheduler's width choice tries the graph
 * against the serial schedule: while saturated, it alternates windows of batches on one worker
 * and on all of them, takes the median wall time per packet of each, engages the faster (all
 * workers unless one is faster by more than a margin), holds that for a long stretch, then
 * measures again.
 *
 * <pre>
 *  PROBING:  window all, window one, window all, window one, ... (rounds of each)
 *              each window: skip its first batch (the hand-over), then time batches closed
 *  decide:   median ns/packet on one < (1 - margin) × median on all ─► one, else all
 *  HOLDING:  holdBatches saturated batches at that width ─► PROBING again
 *  a batch that is not saturated (the load fell) ─► start over when saturated again
 * </pre>
 *
 * <p>Throughput is read where the IO role closes batches: with every frame in use, a batch
 * closes when one leaves the engine, so batches closed per second is the engine's rate. Which
 * workers run a batch never changes its outputs. Decided by the IO role, one thread at a time.
 */
public final class SaturatedWidth
{
    private static final int PROBING = 0;
    private static final int HOLDING = 1;

    private final int workers;
    private final int windowBatches;
    private final int rounds;
    private final long holdBatches;
    private final double margin;
    private final double[][] nsPerPacket;
    private final double[] sorted;
    private int phase = PROBING;
    private int window;
    private int batchInWindow;
    private long windowStartNs;
    private long windowPackets;
    private long held;
    private int width;
    private long probes;
    private long choseOne;

    /**
     * @param workers       the run's workers, at least 2 for a choice to exist.
     * @param windowBatches batches timed per window, at least 1 (one more is skipped at its start).
     * @param rounds        windows per width in one probe, at least 1.
     * @param holdBatches   saturated batches a choice is kept before measuring again, at least 1.
     * @param margin        how much faster one worker must be to be chosen, in [0, 1).
     */
    public SaturatedWidth(final int workers, final int windowBatches, final int rounds, final long holdBatches, final double margin)
    {
        if (workers < 1 || windowBatches < 1 || rounds < 1 || holdBatches < 1 || margin < 0 || margin >= 1)
        {
            throw new IllegalArgumentException("workers " + workers + ", window " + windowBatches + ", rounds " + rounds
                + ", hold " + holdBatches + ", margin " + margin);
        }
        this.workers = workers;
        this.windowBatches = windowBatches;
        this.rounds = rounds;
        this.holdBatches = holdBatches;
        this.margin = margin;
        this.nsPerPacket = new double[2][rounds];
        this.sorted = new double[rounds];
        this.width = workers;
    }

    /**
     * A saturated batch closed.
     *
     * @param nowNs   the wall clock when it closed.
     * @param packets its packets.
     * @return the workers to engage now.
     */
    public int onSaturated(final long nowNs, final int packets)
    {
        if (workers == 1)
        {
            return 1;
        }
        if (phase == HOLDING)
        {
            if (++held >= holdBatches)
            {
                restart();
            }
            return width;
        }
        if (batchInWindow++ == 0)
        {
            // the window's first batch ran partly at the width before: time from its close on
            windowStartNs = nowNs;
            windowPackets = 0;
            return width;
        }
        windowPackets += packets;
        if (batchInWindow <= windowBatches)
        {
            return width;
        }
        final int arm = window & 1;
        nsPerPacket[arm][window >> 1] = windowPackets == 0 ? 0 : (double)(nowNs - windowStartNs) / windowPackets;
        window++;
        batchInWindow = 0;
        if (window < 2 * rounds)
        {
            width = (window & 1) == 0 ? workers : 1;
            return width;
        }
        probes++;
        final boolean one = median(nsPerPacket[1]) < (1 - margin) * median(nsPerPacket[0]);
        if (one)
        {
            choseOne++;
        }
        width = one ? 1 : workers;
        phase = HOLDING;
        held = 0;
        return width;
    }

    /** The load fell below saturation: the next saturated stretch measures afresh. */
    public void onUnsaturated()
    {
        if (phase == PROBING && window == 0 && batchInWindow == 0)
        {
            return;
        }
        restart();
    }

    private void restart()
    {
        phase = PROBING;
        window = 0;
        batchInWindow = 0;
        width = workers;
    }

    private double median(final double[] values)
    {
        System.arraycopy(values, 0, sorted, 0, rounds);
        Arrays.sort(sorted);
        return (rounds & 1) == 1 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
    }

    /** @return probes completed: times both widths were measured and one chosen. */
    public long probes()
    {
        return probes;
    }

    /** @return probes that chose one worker. */
    public long choseOne()
    {
        return choseOne;
    }
}
