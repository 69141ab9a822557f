/**
 * State stores: where a table's committed state lives between batches when it is not in the
 * heap (YAML {@code store:}). The multi-version state table stays in front of every store: each
 * batch binds its touched keys into the heap before the graph is built, and writes the changed
 * ones back after the collapse, so the graph, the schedules and chain output equivalence are the
 * same whatever the store.
 *
 * <pre>
 *  batch k:  gather ──► BIND ──► build, seal, execute, collapse ──► WRITE BACK ──► post-process
 *                       │         (heap shards only)                 │
 *                       ▼                                            ▼
 *                 StateBackend.load(touched keys)          StateBackend.store(changed keys)
 *                 Chronicle: a lookup per key              Chronicle: a put or remove per key
 *                 Redis: HMGET per table, one flush        Redis: HSET/HDEL per table, one flush
 * </pre>
 *
 * <p>Threads: bind and write-back run on the worker that starts and ends a stage's batch, one
 * at a time; between batches the coordinating thread reads and changes committed state through
 * the state table, which forwards a stored table's accesses to its backend. Heap tables pay
 * nothing per operation: the check is per batch, and per committed-state access between batches.
 */
package io.transnfv.engine.state.store;
