/**
 * JMH benchmarks of handing work to executor threads: the engine's batch executor on
 * transactions that do almost nothing, so that what is measured is the dispatch (graph,
 * frontier, wake-ups, the end-of-batch barrier), with the serial applier on the same batch as
 * the baseline. The benchmark thread coordinates; executor threads belong to the executor.
 */
package io.transnfv.experiments.executor;
