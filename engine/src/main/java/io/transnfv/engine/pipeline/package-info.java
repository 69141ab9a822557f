/**
 * Chain executors: the serial oracle, which defines chain output equivalence, and the
 * batched engine, which must equal it. Both read a packet source, run every packet through
 * the chain's VNFs, and tell a listener about each finished packet in arrival order.
 */
package io.transnfv.engine.pipeline;
