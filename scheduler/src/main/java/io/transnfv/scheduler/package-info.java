/**
 * Scheduling strategies for executing a sealed task precedence graph, and the model that
 * chooses them per batch: data path step 5. Three independent dimensions, each an interface
 * with one type per choice, composed in a {@link io.transnfv.scheduler.SchedulingPolicy}:
 *
 * <pre>
 *  Exploration    which ready unit next        BreadthFirstExploration   (own deque FIFO)
 *                                              DepthFirstExploration     (own deque LIFO)
 *                                              RandomExploration         (random end, random victim)
 *  Granularity    what one executor takes      SingleOperationGranularity
 *                                              OperationGroupGranularity (a key's chain)
 *  AbortHandling  when an abort is resolved    EagerAbort (decided visibility)
 *                                              LazyAbort  (speculative, redo at batch end)
 *
 *  DecisionModel  per batch, from BatchStatistics measured on the batch's own graph:
 *                 HeuristicDecisionModel (documented rules), FeedbackDecisionModel (bandit)
 * </pre>
 *
 * <p>Strategies are immutable and shared. {@link io.transnfv.scheduler.ReadyDeques} (one
 * work-stealing deque per executor) and {@link io.transnfv.scheduler.WorkUnits} are owned by
 * one executor pool and used by its threads concurrently; decision models and statistics by
 * its coordinating thread. Depends on {@code tpg} only. See docs/design/scheduling.md.
 */
package io.transnfv.scheduler;
