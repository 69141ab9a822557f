/**
 * Chain executors: the serial oracle, which defines chain output equivalence, and the
 * batched engine, which must equal it. Both read a packet source, run every packet through
 * the chain's VNFs, and tell a listener about each finished packet in arrival order.
 *
 * <p>Threads: {@link io.transnfv.engine.pipeline.SerialChainExecutor} runs on the caller's
 * thread. {@link io.transnfv.engine.pipeline.BatchedChainExecutor} runs on the symmetric
 * workers of a {@link io.transnfv.engine.thread.WorkerGroup}: whoever holds the IO role reads
 * packets into a batch, pre-processes the entry VNF and finishes processed batches in
 * order; every worker joins the phases of the batch in processing (gather, the executor's
 * build/seal/execute/collapse or serial schedule, post- and pre-processing per VNF). Three
 * batch frames go round, so reading, processing and finishing overlap.
 *
 * <pre>
 *  IO role     source ─► ingress ─► batch (FrameRing, Punctuation) ─► admit (StageDispatch)
 *  batch k     [fragments] ─► STEP 0 ─► GATHER 0 ─► executor: graph, schedule, execute
 *              ─► STEP 1: post-process VNF 0, pre-process VNF 1 ─► ... ─► DONE
 *  IO role     egress (Egress) ─► [checkpoint (BoundaryCheckpoints)] ─► frame FREE
 * </pre>
 *
 * The batched engine keeps only this orchestration: the frames and their hand-over are in
 * {@code batch}, the chunked pre- and post-processing in {@code stage}, the executor in
 * {@code executor}, the cut at a batch boundary in {@code checkpoint} and the workers' time
 * accounting in {@code report}.
 *
 * <p>Checkpoints ({@link io.transnfv.engine.checkpoint}): when one is due after batch k, the
 * engine does not start batch k+1 until the IO role has finished batch k's packets and taken
 * the checkpoint, so state, counters, input and output positions are one cut; the oracle takes
 * its checkpoints between two packets on its own thread.
 *
 * <p>{@link io.transnfv.engine.pipeline.EquivalenceCheck} judges an executor against the oracle:
 * it counts the differing records and final state entries (per table), the packets missing,
 * duplicated or out of order, and, for a chain with a {@code stale-reads} table, the differences
 * no stale read can explain (those of VNFs the stale table does not reach), which
 * {@code transnfv verify} uses to pass such a chain on the relaxation it asked for.
 */
package io.transnfv.engine.pipeline;
