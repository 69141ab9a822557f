package io.transnfv.engine.report;

/**
 * The counters of a run at one moment, copied by the engine thread that owns them when a reader
 * asked ({@link SnapshotExchange}): immutable once published, so any thread may read it at
 * leisure without touching what the data path writes.
 *
 * @param takenNs        {@code System.nanoTime()} when it was copied.
 * @param last           true for the run's final figures, published once the run has ended.
 * @param stats          a copy of the run's counters and latency histogram ({@link RunStats#copyWith}).
 * @param batches        batches closed so far (0 for an executor without batches).
 * @param decisionCounts scheduling decisions per policy index ({@code SchedulingPolicy.ofIndex}),
 *                       empty for an executor that makes none.
 * @param timeNs         time the engine's workers spent, summed over them, per {@code TimeCategory}
 *                       ordinal; empty for an executor that does not measure it.
 */
public record RunSnapshot(long takenNs, boolean last, RunStats stats, long batches, long[] decisionCounts, long[] timeNs)
{
    /** @return the figures before the first packet: zero everywhere, taken now. */
    public static RunSnapshot empty(final RunStats zero)
    {
        return new RunSnapshot(System.nanoTime(), false, zero, 0, new long[0], new long[0]);
    }
}
