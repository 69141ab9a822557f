package io.transnfv.flink.job;

import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.util.stats.StatsSummarySnapshot;

/**
 * Flink's own figures for a job's checkpoints, savepoints included, as its JobManager's
 * checkpoint statistics keep them: the same on a MiniCluster ({@link #of}) and on a cluster
 * (its REST endpoint, {@link RestCheckpointStats}). A duration is Flink's end-to-end one, from
 * the trigger to the last subtask's acknowledgement; a state size is the bytes of every
 * operator's state in the checkpoint, which for this job are the engines' full snapshots.
 *
 * @param completed        checkpoints completed; -1 if the JobManager did not say.
 * @param failed           checkpoints failed or declined; -1 if the JobManager did not say.
 * @param p50DurationMs    the median duration of the completed ones, in milliseconds; -1 if none completed.
 * @param maxDurationMs    the longest, in milliseconds; -1 if none completed.
 * @param latestStateBytes the state size of the latest completed one; -1 if none completed.
 * @param maxStateBytes    the largest state size of the completed ones; -1 if none completed.
 */
public record FlinkCheckpoints(long completed, long failed, double p50DurationMs, long maxDurationMs, long latestStateBytes,
    long maxStateBytes)
{
    /** What a JobManager that did not answer gives. */
    static final FlinkCheckpoints UNKNOWN = new FlinkCheckpoints(-1, -1, -1, -1, -1, -1);

    /** @return true if at least one checkpoint completed, so that the durations and sizes are known. */
    public boolean measured()
    {
        return completed > 0 && maxDurationMs >= 0;
    }

    /** @return the figures of a job's checkpoint statistics; all zero and unknown for a job that kept none. */
    static FlinkCheckpoints of(final CheckpointStatsSnapshot stats)
    {
        if (stats == null)
        {
            return new FlinkCheckpoints(0, 0, -1, -1, -1, -1);
        }
        final long completed = stats.getCounts().getNumberOfCompletedCheckpoints();
        final long failed = stats.getCounts().getNumberOfFailedCheckpoints();
        final StatsSummarySnapshot durations = stats.getSummaryStats().getEndToEndDurationStats();
        final StatsSummarySnapshot sizes = stats.getSummaryStats().getStateSizeStats();
        if (completed == 0 || durations.getCount() == 0)
        {
            return new FlinkCheckpoints(completed, failed, -1, -1, -1, -1);
        }
        // the history keeps the latest checkpoints and savepoints apart: the later of the two is the latest
        AbstractCheckpointStats latest = null;
        for (final AbstractCheckpointStats c : stats.getHistory().getCheckpoints())
        {
            if (c.getStatus() == CheckpointStatsStatus.COMPLETED && (latest == null || c.getCheckpointId() > latest.getCheckpointId()))
            {
                latest = c;
            }
        }
        final double p50 = durations.getQuantile(0.5);
        return new FlinkCheckpoints(completed, failed, Double.isNaN(p50) ? -1 : p50, durations.getMaximum(),
            latest == null ? sizes.getMaximum() : latest.getStateSize(), sizes.getMaximum());
    }
}
