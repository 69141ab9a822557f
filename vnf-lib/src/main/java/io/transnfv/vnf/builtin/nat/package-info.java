/**
 * The {@code nat} VNF: endpoint-independent NAT44 with a shared external port pool
 * ({@link io.transnfv.vnf.builtin.nat.Nat}, created by
 * {@link io.transnfv.vnf.builtin.nat.NatFactory}). Configuration is read-only after
 * construction; pre- and post-processing may run on any number of threads.
 */
package io.transnfv.vnf.builtin.nat;
