/**
 * Batch executors: data path steps 4 to 6, the state access phase of a batch.
 * {@link io.transnfv.engine.executor.TpgBatchExecutor} runs it as four phases that every worker
 * shares (any worker joins, the last to leave closes the phase and runs the step after it).
 *
 * <pre>
 *  BUILD     workers, one pass over the log each: the chains of their key shards (graph),
 *            then the shards' bindings to committed values (state)
 *  ─► one worker: measure the graph, the decision model chooses the batch's policy
 *  SEAL      workers, by chunks of transactions: in-place marks, dependency counts, initial
 *            states; independent transactions and ready operations listed per chunk
 *  ─► one worker: operation groups if chosen, deques reset
 *  EXECUTE   workers: own deque, steal, claim a chunk of ready operations or of independent
 *            transactions; run operations on the multi-version table, release dependents
 *  ─► one worker: lazy abort resolution (undo, re-execute readers in serial order)
 *  COLLAPSE  workers, by key shard: last live versions written back, emptied keys deleted
 *  ─► one worker: counters, feedback to the decision model, the caller's next phase
 * </pre>
 *
 * <p>Standalone, the caller of {@code execute} is worker 0 and the executor's own threads the
 * others; inside a chain run, the chain engine's workers run these phases between their
 * pre- and post-processing. Nothing is allocated per operation once the arrays have grown to
 * the largest batch; no counter is shared by all executors on the per-operation path.
 */
package io.transnfv.engine.executor;
