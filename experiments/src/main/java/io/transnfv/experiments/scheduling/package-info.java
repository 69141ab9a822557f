/**
 * The scheduling-space benchmark of issue 4: every static scheduling policy, the adaptive
 * heuristic and the adaptive feedback model, side by side with the serial oracle, on
 * synthetic load-balancer batches and on contention, abort and phase-changing workloads,
 * at the {@code TransactionLog}/{@code BatchExecutor} level. Runs in its own JVM from
 * {@link io.transnfv.experiments.scheduling.SchedulingBenchmarkMain#main}; nothing here is on a
 * data path.
 */
package io.transnfv.experiments.scheduling;
