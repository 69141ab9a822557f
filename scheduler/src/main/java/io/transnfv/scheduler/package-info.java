/**
 * Scheduling strategies for executing a sealed task precedence graph: data path step 5.
 * Three independent dimensions, each an interface with one type per choice, composed in a
 * {@link io.transnfv.scheduler.SchedulingPolicy}:
 *
 * <pre>
 *  Exploration    which ready operation next   BreadthFirstExploration (FIFO frontier)
 *  Granularity    what one executor takes      SingleOperationGranularity
 *  AbortHandling  when an abort is resolved    EagerAbort
 * </pre>
 *
 * <p>Strategies are immutable and shared; the frontiers they create are owned by one
 * executor pool and used by its threads concurrently. Depends on {@code tpg} only.
 */
package io.transnfv.scheduler;
