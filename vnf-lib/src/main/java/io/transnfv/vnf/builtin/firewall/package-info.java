/**
 * The {@code firewall} VNF: a stateless first-match ACL
 * ({@link io.transnfv.vnf.builtin.firewall.Acl}) in front of connection tracking
 * ({@link io.transnfv.vnf.builtin.firewall.Firewall}, created by
 * {@link io.transnfv.vnf.builtin.firewall.FirewallFactory}). Configuration is read-only after
 * construction; pre- and post-processing may run on any number of threads.
 */
package io.transnfv.vnf.builtin.firewall;
