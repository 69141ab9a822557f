/**
 * The task precedence graph (TPG) of one batch: data path steps 3 and 4.
 *
 * <pre>
 *  packet processing phase          punctuation (state access phase)
 *  addTransaction(t) ──► per-key    seal() ──► previous-write links, TD / PD edges (CSR),
 *  entry lists ordered by           LD from statement order, unresolved-dependency counts
 *  (timestamp, sequence, op)
 * </pre>
 *
 * <p>Built by one thread (the batching thread) and then read, never written, by executor
 * threads; {@link io.transnfv.tpg.graph.OperationStateMachine} holds the only state that
 * executors change concurrently. Owns flat primitive arrays recycled batch after batch; the
 * work per batch follows the batch's operations and touched keys, never the key space.
 * After Mao et al., "MorphStream: Adaptive Scheduling for Scalable Transactional Stream
 * Processing on Multicores" (SIGMOD 2023), as applied to NFV by TransNFV.
 */
package io.transnfv.tpg.graph;
