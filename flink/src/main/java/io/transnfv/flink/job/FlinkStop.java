package io.transnfv.flink.job;

/**
 * A run stopped with a savepoint ({@link FlinkRunner#runUntilStop}): where the savepoint is, and
 * where the run stood, so that {@link FlinkRunner#resume} can go on from it, at the same or
 * another parallelism, into the same output directory.
 *
 * @param savepoint       the savepoint's path, as Flink gave it.
 * @param parallelism     the engines' parallelism of the stopped job.
 * @param packets         packets of the traffic read before the stop (a read batch boundary).
 * @param stoppedAtMicros wall time the stop was asked, in microseconds since the epoch.
 */
public record FlinkStop(String savepoint, int parallelism, long packets, long stoppedAtMicros)
{
}
