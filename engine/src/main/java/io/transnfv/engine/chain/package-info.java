/**
 * A chain as the runtime receives it: VNF nodes with validated parameters, the edges of the
 * DAG with their predicates, and the run settings. Produced by the YAML loader (chains
 * module) or built in code; immutable, shared by every thread.
 */
package io.transnfv.engine.chain;
