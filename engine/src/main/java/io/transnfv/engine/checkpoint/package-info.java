/**
 * Checkpoints at punctuations, and resuming from them.
 *
 * <p>A batch boundary is a consistent cut: no transaction is in flight, every table holds only
 * committed values, and the sinks have been handed every packet up to the cut. At such a cut
 * the {@link io.transnfv.engine.checkpoint.Checkpointer} (called by the executor, on the thread
 * that holds the cut: the serial oracle's own thread, the engine's IO role) flushes and syncs
 * the sinks, takes the committed state of every table (only the keys each table's change log
 * says changed since the last checkpoint, with a full one every so often, streamed from the
 * tables without a copy) and writes it with the input and output positions, the run's fault
 * list and the changes of VNF parameters applied before the cut to a {@link io.transnfv.engine.checkpoint.CheckpointFile} in a
 * {@link io.transnfv.engine.checkpoint.CheckpointStore}:
 *
 * <pre>
 *  batch k done ─► hold batch k+1 ─► egress k ─► sinks: flush, fsync, lengths
 *                                              ─► changed keys (or every entry) ─► ckpt-N.tmp, fsync, rename ─► go on
 *  resume: newest checkpoint whose chain (full + incrementals) reads back clean (checked, not kept)
 *        ─► each file read again: entries into the tables as they are read ─► counters, faults, error window,
 *           parameter changes (applied to the VNFs before the first packet)
 *        ─► source: skip the packets the state holds ─► sinks: truncate to lengths
 * </pre>
 *
 * <p>Neither direction holds a checkpoint in memory: the writer streams each table from where it
 * lives, the reader streams each file through a fixed buffer, checksums computed on the way.
 *
 * <p>The format is keyed state per table under a versioned header, so a later Flink job can
 * read it as one keyed state per table. See {@code docs/reliability.md#checkpoints-and-resume}.
 */
package io.transnfv.engine.checkpoint;
