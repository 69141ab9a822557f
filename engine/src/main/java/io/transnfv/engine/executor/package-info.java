/**
 * Batch executors: data path steps 4 to 6. {@link io.transnfv.engine.executor.TpgBatchExecutor}
 * builds a batch's task precedence graph, lets a {@link io.transnfv.scheduler.DecisionModel}
 * choose the batch's {@link io.transnfv.scheduler.SchedulingPolicy} from the graph's measured
 * statistics, binds its versions in the {@link io.transnfv.engine.state.MultiVersionStateTable},
 * and runs its units on a pool of persistent executor threads, each with its own
 * work-stealing deque.
 *
 * <pre>
 *  caller thread (executor 0)              executor threads 1 .. N-1 (persistent)
 *  build + seal TPG, measure, decide
 *  bind versions, partition into units
 *  seed deques, epoch++ ───────────────►   wake; take from own deque, else steal
 *  take / steal, run units                  run units, release dependents (push own deque)
 *  wait for every executor ◄────────────   all operations processed: leave the batch
 *  lazy abort: resolve + re-execute
 *  collapse versions, counters, feedback
 * </pre>
 *
 * <p>{@code execute} is called by one thread at a time; that thread takes part in the batch.
 * Nothing is allocated per operation once the arrays have grown to the largest batch; no
 * counter is shared by all executors.
 */
package io.transnfv.engine.executor;
