/**
 * The job's operators. {@link io.transnfv.flink.operator.BatchReader} (one subtask) reads the
 * run's traffic a batch at a time and splits each batch by subtask into
 * {@link io.transnfv.flink.operator.PacketBatch}es, one array each, which Flink moves with
 * {@link io.transnfv.flink.operator.PacketBatchSerializer} (or, at parallelism 1, where the two
 * operators share a task, by reference);
 * {@link io.transnfv.flink.operator.EngineOperator} (one per subtask) runs an engine over its
 * packets on the engine's own worker threads, fed through a
 * {@link io.transnfv.flink.operator.HandOverSource}, and holds every batch until the engine has
 * finished it, so that between two records, where Flink takes its snapshots, the engine sits at
 * a batch boundary:
 *
 * <pre>
 *  task thread:   processElement(batch) ─► hand over ─► wait: finished + held = handed ─► next
 *  engine threads:                          poll ─► batches ─► listener: records, frames ─┘
 *  task thread:   snapshotState ─► engine state and counters (engine checkpoint format), each entry's owner,
 *                                  pending outputs: one {@link io.transnfv.flink.operator.SubtaskShare} in union list state
 *                 notifyCheckpointComplete ─► pending outputs committed ({@link io.transnfv.flink.operator.CommittedOutputs})
 * </pre>
 *
 * <p>Rescaling: while the engine works on a batch, the task thread notes which entries its
 * packets' VNFs declare and the packets' routing hash ({@link io.transnfv.flink.operator.EntryOwners};
 * table keys are hashes the router cannot invert). A restore at another parallelism reads every
 * old subtask's share and keeps the entries whose routing hash maps to it under the new one;
 * subtask 0 takes the summed counters and commits the staged parts of all
 * ({@link io.transnfv.flink.operator.SubtaskShare#redistribute}). A stop with a savepoint lands on
 * a read-batch boundary because the sequence source can be held there, after a number of
 * batches or at the next one once the command asks (a signal)
 * ({@link io.transnfv.flink.operator.StoppingSequenceSource}); {@link io.transnfv.flink.operator.ResumeMarks}
 * carry the request, note where the source stopped, keep each subtask's counters and state at
 * the stop for the stopped job's summary, and time the pause from the stop to the first packet
 * after the resume.
 */
package io.transnfv.flink.operator;
