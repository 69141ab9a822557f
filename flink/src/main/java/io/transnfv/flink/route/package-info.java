/**
 * Routing, once, before the first VNF: which subtask's engine a packet goes to, by the key the
 * chain's table declarations allow ({@link io.transnfv.engine.chain.Partitioning}). Runs on the
 * batch reader's one thread; also used by {@code verify} to give the oracle each subtask's packets.
 */
package io.transnfv.flink.route;
