/**
 * JMH benchmarks of the transactional core: TPG build and batch execution per operation,
 * over batch size, key space and skew. Each benchmark runs single-threaded in JMH's own
 * thread; the executor under test owns its worker threads. Nothing here is on a data path.
 */
package io.transnfv.experiments.core;
