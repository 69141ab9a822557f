/**
 * JMH benchmarks of committed-state tables: the oracle's and the engine's open-addressing
 * maps and the baselines' preallocated shared table, read and written through the same
 * {@code StateStore} interface on the same keys. Each benchmark thread owns its state.
 */
package io.transnfv.experiments.state;
