/**
 * JMH benchmarks of handing work to executor threads: the engine's batch executor on
 * transactions that do almost nothing, so that what is measured is the dispatch (graph, the
 * phases every worker joins and their hand-over from one to the next, idle workers waking),
 * with the serial applier on the same batch as the baseline. The benchmark thread is worker
 * 0; the other executor threads belong to the executor.
 */
package io.transnfv.experiments.executor;
