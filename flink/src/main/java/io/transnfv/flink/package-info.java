/**
 * The engine as an Apache Flink job: one TransNFV engine per parallel subtask, packets routed
 * once by a key the chain's table declarations allow, batches of packets as the unit between
 * operators, engine state in Flink's managed state, outputs committed at checkpoints.
 *
 * <pre>
 *  batch numbers 0, 1, 2, ...  ─► BatchReader (1 subtask) ─► route each packet ─► a batch per subtask
 *  (Flink's NumberSequenceSource:   reads batch k of the       (PacketRouter)        │ partitionCustom
 *   the position is its state)      run's traffic                                    ▼
 *                                                   EngineOperator (N subtasks): one engine each,
 *                                                   state snapshotted at barriers, outputs
 *                                                   committed when the checkpoint completes
 * </pre>
 *
 * See {@code docs/flink.md}.
 */
package io.transnfv.flink;
