/**
 * Building the Flink job, running it on a MiniCluster inside the process
 * ({@link io.transnfv.flink.job.FlinkRunner}), and reading back what it committed
 * ({@link io.transnfv.flink.job.FlinkRunResult}): per subtask the records, the forwarded frames,
 * the final counters and state; the union in arrival order for the run's outputs. A run can be
 * stopped with a savepoint after a number of packets ({@link io.transnfv.flink.job.FlinkRunner#runUntilStop},
 * a {@link io.transnfv.flink.job.FlinkStop}) and resumed from it at another parallelism
 * ({@link io.transnfv.flink.job.FlinkRunner#resume}) into the same output directory. The caller's
 * thread only.
 */
package io.transnfv.flink.job;
