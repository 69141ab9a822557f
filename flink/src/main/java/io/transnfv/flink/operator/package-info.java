/**
 * The job's operators. {@link io.transnfv.flink.operator.BatchReader} (one subtask) reads the
 * run's traffic a batch at a time and splits each batch by subtask;
 * {@link io.transnfv.flink.operator.EngineOperator} (one per subtask) runs an engine over its
 * packets on the engine's own worker threads, fed through a
 * {@link io.transnfv.flink.operator.HandOverSource}, and holds every batch until the engine has
 * finished it, so that between two records, where Flink takes its snapshots, the engine sits at
 * a batch boundary:
 *
 * <pre>
 *  task thread:   processElement(batch) ─► hand over ─► wait: finished + held = handed ─► next
 *  engine threads:                          poll ─► batches ─► listener: records, frames ─┘
 *  task thread:   snapshotState ─► engine state and counters (engine checkpoint format) + pending outputs
 *                 notifyCheckpointComplete ─► pending outputs committed ({@link io.transnfv.flink.operator.CommittedOutputs})
 * </pre>
 */
package io.transnfv.flink.operator;
