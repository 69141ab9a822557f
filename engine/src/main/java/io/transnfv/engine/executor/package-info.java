/**
 * Batch executors: data path steps 4 to 6. {@link io.transnfv.engine.executor.TpgBatchExecutor}
 * builds a batch's task precedence graph, binds its versions in the
 * {@link io.transnfv.engine.state.MultiVersionStateTable}, and runs ready operations on a pool
 * of persistent executor threads chosen by a {@link io.transnfv.scheduler.SchedulingPolicy}.
 *
 * <pre>
 *  caller thread (executor 0)              executor threads 1 .. N-1 (persistent)
 *  build + seal TPG, bind versions
 *  seed frontier, epoch++ ─────────────►   wake, poll frontier, run operations
 *  poll frontier, run operations            (release dependents, finish transactions)
 *  wait for every executor ◄────────────   leave the batch
 *  collapse versions, read counters
 * </pre>
 *
 * <p>{@code execute} is called by one thread at a time; that thread takes part in the batch.
 * Nothing is allocated per operation once the arrays have grown to the largest batch.
 */
package io.transnfv.engine.executor;
