/**
 * The engine: the runtime that turns a chain and a packet source into batches of transactions
 * executed in parallel, equal in output to the serial oracle. The data path, step by step,
 * with the package of each stage (the "data path step" other package docs cite):
 *
 * <pre>
 *  1  receive        source, ingress     packets read into a batch's frame; packet time, ticks
 *  2  pre-process    stage               each VNF declares its packets' transactions, per chunk
 *  3  punctuate      batch               a Punctuation closes the frame: one batch
 *  3-4 build, seal   io.transnfv.tpg.graph   the batch's task precedence graph
 *  5  schedule       io.transnfv.scheduler   the batch's scheduling policy
 *  4-6 execute       executor on state   operations on the multi-version state table
 *  7  post-process   stage               rewrite, forward, drop, alert; route to the next VNF
 *  8  egress         egress              finished packets in arrival order: records, pcap, latency
 * </pre>
 *
 * Steps 2 to 7 repeat per VNF of the chain. {@code pipeline} ties the stages to the workers of
 * {@code thread} (and holds the serial oracle); {@code chain} is the chain as the runtime
 * receives it, {@code report} the run's counters and report.
 * {@link io.transnfv.engine.EngineConfiguration} holds the engine's tuning constants.
 */
package io.transnfv.engine;
