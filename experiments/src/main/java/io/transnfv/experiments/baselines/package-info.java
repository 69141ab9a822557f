/**
 * The baselines the engine is measured against, each a
 * {@link io.transnfv.engine.pipeline.ChainExecutor} running the same VNF pre- and
 * post-processing code over the same traffic: No-Lock (shared state, no synchronisation,
 * no ordering), CHC-style (Khalid &amp; Akella, NSDI'19: per-flow state at the instance that
 * owns the flow, cross-flow state in a shared store behind per-key locks), Partitioned
 * (FlexState-style: every executor owns a private copy of the state, no sharing) and the
 * serial oracle itself.
 *
 * <p>Threads: the thread that calls {@code run} reads the source, hands each batch to the
 * workers (it is worker 0 itself) and finishes packets in arrival order; helper worker
 * threads are started by the executor and stopped by {@code close}. What each baseline models
 * and leaves out is written down in {@code docs/experiments.md}.
 */
package io.transnfv.experiments.baselines;
