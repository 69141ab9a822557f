/**
 * VNF instances as a runtime holds them: the names a VNF declared at setup resolved to ids
 * ({@link io.transnfv.vnf.instance.VnfInstance}), the catalogue of every state table of a
 * chain, a single-version state store for serial execution, the recorder of one packet's
 * post-processing actions, and what every state store shares: the sorted visit behind
 * {@code forEach} and the text dump final-state equivalence is judged on. Used by the VNF
 * harness, the serial oracle and the engine.
 *
 * <p>Threads: set up on one thread, then read-only except for the store and the recorder,
 * which belong to the executing thread, and the counter stripes, one per runtime thread.
 */
package io.transnfv.vnf.instance;
