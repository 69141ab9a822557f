/**
 * Building the Flink job, running it on a MiniCluster inside the process
 * ({@link io.transnfv.flink.job.FlinkRunner}), and reading back what it committed
 * ({@link io.transnfv.flink.job.FlinkRunResult}): per subtask the records, the forwarded frames,
 * the final counters and state; the union in arrival order for the run's outputs. The caller's
 * thread only.
 */
package io.transnfv.flink.job;
