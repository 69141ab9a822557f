/**
 * Chain executors: the serial oracle, which defines chain output equivalence, and the
 * batched engine, which must equal it. Both read a packet source, run every packet through
 * the chain's VNFs, and tell a listener about each finished packet in arrival order.
 *
 * <p>Threads: {@link io.transnfv.engine.pipeline.SerialChainExecutor} runs on the caller's
 * thread. {@link io.transnfv.engine.pipeline.BatchedChainExecutor} runs on the symmetric
 * workers of a {@link io.transnfv.engine.thread.WorkerGroup}: whoever holds the IO role reads
 * packets into a batch, pre-processes the entry VNF and finishes processed batches in
 * order; every worker joins the phases of the batch in processing (gather, the executor's
 * build/seal/execute/collapse or serial schedule, post- and pre-processing per VNF). Three
 * batch frames go round, so reading, processing and finishing overlap.
 */
package io.transnfv.engine.pipeline;
