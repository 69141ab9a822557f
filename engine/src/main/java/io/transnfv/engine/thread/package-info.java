/**
 * Support for the engine's polling threads (ingress, driver, engine, DPDK receiver): what a
 * thread does while it waits for work. Each instance is owned by one thread.
 */
package io.transnfv.engine.thread;
