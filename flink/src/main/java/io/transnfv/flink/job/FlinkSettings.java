package io.transnfv.flink.job;

import io.transnfv.flink.operator.FailurePlan;

/**
 * The settings of a run on Flink.
 *
 * @param parallelism        engines (Flink subtasks), at least 1.
 * @param batchPackets       packets per read batch, the unit moved between operators.
 * @param checkpointEveryMs  Flink's checkpoint interval in milliseconds of wall time.
 * @param restartAttempts    restarts Flink may make after failures before the job fails.
 * @param failures           failures to inject (tests), {@link FailurePlan#NONE} in a real run.
 */
public record FlinkSettings(int parallelism, int batchPackets, long checkpointEveryMs, int restartAttempts, FailurePlan failures)
{
    /** Packets per read batch by default. */
    public static final int DEFAULT_BATCH_PACKETS = 1024;
    /** Checkpoint interval by default, in milliseconds. */
    public static final long DEFAULT_CHECKPOINT_EVERY_MS = 500;
    /** Restarts by default. */
    public static final int DEFAULT_RESTART_ATTEMPTS = 3;

    /** Checks the numbers. */
    public FlinkSettings
    {
        if (parallelism < 1 || batchPackets < 1 || checkpointEveryMs < 10 || restartAttempts < 0)
        {
            throw new IllegalArgumentException("parallelism " + parallelism + ", batch packets " + batchPackets
                + ", checkpoint interval " + checkpointEveryMs + " ms (>= 10), restarts " + restartAttempts);
        }
    }

    /** @return the defaults at {@code parallelism}. */
    public static FlinkSettings of(final int parallelism)
    {
        return new FlinkSettings(parallelism, DEFAULT_BATCH_PACKETS, DEFAULT_CHECKPOINT_EVERY_MS, DEFAULT_RESTART_ATTEMPTS,
            FailurePlan.NONE);
    }
}
