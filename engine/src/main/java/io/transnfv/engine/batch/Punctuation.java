package io.transnfv.engine.batch;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.report.SchedulerReport;

import java.util.ArrayList;
import java.util.List;

/**
 * When a batch closes: the knob between latency and throughput. A batch closes before a packet
 * when the next packet would make it too big, too long in packet time or would cross a
 * housekeeping tick, and also, with the packets it has, when its first packet has waited too
 * long in wall time, when the input has nothing more right now, or when the workers have run
 * out of work (as Flink's buffer timeout and DPDK's bursts do). At low load batches are then
 * small and latency short; at high load they grow and throughput wins. Chain output
 * equivalence does not depend on where punctuations fall.
 *
 * <pre>
 *  size      count reached the batch limit           interval  packet time since the first ≥ T
 *  tick      the next packet crosses an expiry tick  age       first packet waited ≥ the age limit
 *            or a state checker's punctuation
 *  idle      the input has no packet right now       engine    the workers are idle (count ≥ limit / 4)
 * </pre>
 *
 * <p>With a latency target L the limits adapt to what the engine measures: the age limit is
 * L / 4, and the batch limit is the number of packets the engine processes in L / 2 at the cost
 * per packet measured over recent batches (never above the configured batch size). Without a
 * target the limits are the configured batch size and no age limit. Used by the ingress (which
 * closes batches) and told by the pipeline how long batches took; one thread at a time, handed
 * over with the IO role.
 */
public final class Punctuation
{
    /** Closed at the batch limit. */
    public static final int SIZE = 0;
    /** Closed at the packet-time interval. */
    public static final int INTERVAL = 1;
    /** Closed before a packet that crosses a housekeeping tick, or before which the state checkers run. */
    public static final int TICK = 2;
    /** Closed because its first packet reached the age limit. */
    public static final int AGE = 3;
    /** Closed because the input had no packet right now. */
    public static final int IDLE_INPUT = 4;
    /** Closed because the workers had nothing to do. */
    public static final int ENGINE_IDLE = 5;
    /** Closed at the end of the input. */
    public static final int END_OF_INPUT = 6;

    private static final String[] REASONS = {"size", "interval", "tick", "age", "idle-input", "engine-idle", "end-of-input"};
    private static final double COST_WEIGHT = EngineConfiguration.PUNCTUATION_COST_WEIGHT;
    private static final int HUNGRY_FRACTION = EngineConfiguration.PUNCTUATION_ENGINE_IDLE_FRACTION;

    private final int maxBatch;
    private final long intervalNs;
    private final long latencyTargetNs;
    private final long[] closed = new long[REASONS.length];
    private long packetsClosed;
    private int batchLimit;
    private long ageLimitNs;
    private double costNsPerPacket;
    private long minLimit = Long.MAX_VALUE;
    private long maxLimit;

    /**
     * @param maxBatch        the configured batch size (transactions at the entry VNF), at least 1.
     * @param intervalNs      the configured packet-time interval, at least 1.
     * @param latencyTargetNs the latency target, or 0 for none.
     */
    public Punctuation(final int maxBatch, final long intervalNs, final long latencyTargetNs)
    {
        if (maxBatch < 1 || intervalNs < 1 || latencyTargetNs < 0)
        {
            throw new IllegalArgumentException("batch " + maxBatch + ", interval " + intervalNs + " ns, target " + latencyTargetNs + " ns");
        }
        this.maxBatch = maxBatch;
        this.intervalNs = intervalNs;
        this.latencyTargetNs = latencyTargetNs;
        this.batchLimit = maxBatch;
        this.ageLimitNs = latencyTargetNs > 0 ? Math.max(1, latencyTargetNs / 4) : Long.MAX_VALUE;
    }

    /** @return the most packets the next batch may take now. */
    public int batchLimit()
    {
        return batchLimit;
    }

    /** @return the packet-time interval after which a batch closes. */
    public long intervalNs()
    {
        return intervalNs;
    }

    /** @return the wall-clock age of the first packet at which a batch closes, or {@link Long#MAX_VALUE}. */
    public long ageLimitNs()
    {
        return ageLimitNs;
    }

    /** @return the fewest packets a batch must have to close because the workers are idle. */
    public int engineIdleMinimum()
    {
        return Math.max(1, batchLimit / HUNGRY_FRACTION);
    }

    /** Counts a batch of {@code packets} packets closed for {@code reason}. */
    public void onClosed(final int reason, final int packets)
    {
        closed[reason]++;
        packetsClosed += packets;
    }

    /**
     * Tells how long a batch took through the chain, from its first phase to its last; with a
     * latency target, the limits follow the measured cost per packet.
     */
    public void onProcessed(final int packets, final long processingNs)
    {
        if (packets <= 0)
        {
            return;
        }
        final double cost = (double)processingNs / packets;
        costNsPerPacket = costNsPerPacket == 0 ? cost : costNsPerPacket + COST_WEIGHT * (cost - costNsPerPacket);
        if (latencyTargetNs > 0)
        {
            final long fits = (long)((latencyTargetNs / 2.0) / Math.max(1.0, costNsPerPacket));
            batchLimit = (int)Math.max(1, Math.min(maxBatch, fits));
            minLimit = Math.min(minLimit, batchLimit);
            maxLimit = Math.max(maxLimit, batchLimit);
        }
    }

    /** @return the name of close reason {@code reason}. */
    public static String reasonName(final int reason)
    {
        return REASONS[reason];
    }

    /** @return what the punctuation did, for the run report (allocates; at the end of a run). */
    public SchedulerReport.PunctuationReport report()
    {
        long batches = 0;
        final List<SchedulerReport.CloseReason> reasons = new ArrayList<>();
        for (int r = 0; r < REASONS.length; r++)
        {
            batches += closed[r];
            if (closed[r] > 0)
            {
                reasons.add(new SchedulerReport.CloseReason(REASONS[r], closed[r]));
            }
        }
        final boolean target = latencyTargetNs > 0;
        return new SchedulerReport.PunctuationReport(reasons, batches == 0 ? 0.0 : Math.round(10.0 * packetsClosed / batches) / 10.0,
            maxBatch, intervalNs, latencyTargetNs, target ? ageLimitNs : 0,
            target ? (int)Math.min(minLimit, batchLimit) : 0, target ? (int)Math.max(maxLimit, batchLimit) : 0,
            target ? Math.round(costNsPerPacket) : 0);
    }
}
