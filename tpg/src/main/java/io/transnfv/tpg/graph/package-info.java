/**
 * The task precedence graph (TPG) of one batch: data path steps 3 and 4.
 *
 * <pre>
 *  scatter(chunk)    by chunk of transactions, in parallel: every entry hashed into its key shard
 *  buildShard(s)     by key shard, in parallel: entries appended to their key's chain in serial
 *                    order; the key directory (the state table) found or inserted the key
 *  sealChunk(chunk)  by chunk, in parallel: dependency counts (TD, PD: the previous write;
 *                    LD: statement order), ready operations, independent transactions
 * </pre>
 *
 * <p>Built by the workers (one may build it all: {@code buildAll}), then read, never written,
 * by executors; {@link io.transnfv.tpg.graph.OperationStateMachine} holds the only state that
 * executors change concurrently. Keys one transaction touches stay in place, with no versions
 * and no edges (docs/design/tpg.md). Flat primitive arrays recycled batch after batch; the
 * work per batch follows the batch's operations and touched keys, never the key space.
 * After Mao et al., "MorphStream: Adaptive Scheduling for Scalable Transactional Stream
 * Processing on Multicores" (SIGMOD 2023), as applied to NFV by TransNFV.
 */
package io.transnfv.tpg.graph;
