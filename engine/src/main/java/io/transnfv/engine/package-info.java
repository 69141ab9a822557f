/**
 * The engine: the runtime that turns a chain and a packet source into batches of transactions
 * executed in parallel, equal in output to the serial oracle. Its stages, in data-path order:
 * {@code source} → {@code ingress} → {@code batch} → (graph: {@code io.transnfv.tpg.graph}) →
 * (schedule: {@code io.transnfv.scheduler}) → {@code executor} (on {@code state}) →
 * {@code stage} (pre- and post-processing) → {@code egress}; {@code pipeline} ties them to the
 * workers of {@code thread}. {@link io.transnfv.engine.EngineConfiguration} holds its tuning
 * constants.
 */
package io.transnfv.engine;
