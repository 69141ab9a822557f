/**
 * The {@code load-balancer} VNF: per-connection server choice, least-loaded of d sampled
 * candidates ({@link io.transnfv.vnf.builtin.lb.LoadBalancer}, created by
 * {@link io.transnfv.vnf.builtin.lb.LoadBalancerFactory}; candidates from
 * {@link io.transnfv.vnf.builtin.lb.CandidateSampler}). Configuration is read-only after
 * construction; pre- and post-processing may run on any number of threads.
 */
package io.transnfv.vnf.builtin.lb;
