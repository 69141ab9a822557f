/**
 * The state table: data path steps 4 to 6. Committed values live in place, per table in
 * {@link io.transnfv.engine.state.MultiVersionStateTable#SHARDS} open-addressing shards
 * ({@link io.transnfv.engine.state.TableShard}: key and value side by side, one probe per
 * access); a batch adds versions only for keys several of its transactions touch, one per
 * writing entry, stamped with the batch's epoch so nothing is cleared between batches.
 *
 * <pre>
 *  BUILD     the graph's builders probe the shards under their graph shard (KeyDirectory):
 *            the key's slot is found or inserted, and its location kept by the graph
 *  EXECUTE   in place (one transaction's key): read/write the committed value, undo on abort;
 *            versioned: write a version, read by walking previous writes back
 *  COLLAPSE  per graph shard, in parallel: last live version into the slot; emptied keys deleted
 * </pre>
 *
 * <p>Threads: a graph shard's builder and collapser own its table shards; executors write
 * versions and in-place values in between, ordered by the graph's dependencies (each entry
 * has one writer). Slots never move while a batch runs: a shard that would have to grow
 * throws {@link io.transnfv.engine.state.MultiVersionStateTable.ShardFull} and the executor
 * restarts the batch after growing it. Committed state is read and written directly only
 * between batches (housekeeping, dumps) or by the serial schedule, which keeps an undo log.
 */
package io.transnfv.engine.state;
