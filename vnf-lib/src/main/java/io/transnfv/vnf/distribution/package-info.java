/**
 * Skewed distributions over ranks, shared by the built-in VNFs (the load balancer's
 * candidate sampling) and by whatever generates traffic or workloads (the packet generator,
 * the benchmarks). Immutable once built; safe to share between threads.
 */
package io.transnfv.vnf.distribution;
