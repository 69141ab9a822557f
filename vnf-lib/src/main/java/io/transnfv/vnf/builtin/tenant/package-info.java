/**
 * The two VNFs a multi-tenant chain is compiled with (docs/tenants.md): the classifier at the
 * entry, which sends each packet to the output of the first tenant whose {@link
 * io.transnfv.vnf.builtin.tenant.TenantMatch} accepts it or drops it as {@code no-tenant}, and
 * one limiter per tenant, a token bucket in packet time kept as transactional state so the
 * engine and the serial oracle drop the same packets.
 *
 * <pre>
 *                 ┌─ out "a" ─► a (limiter) ─► a-&lt;vnf&gt; ─► ...   tenant a's chain
 *   ingress ──────┼─ out "b" ─► b (limiter) ─► b-&lt;vnf&gt; ─► ...   tenant b's chain
 *   (classifier)  └─ no match: drop ingress:no-tenant
 * </pre>
 *
 * <p>Neither type is registered with the {@link io.transnfv.vnf.api.VnfRegistry}: chains name
 * tenants, not these types, and the chain loader builds their factories with each tenant's
 * rules. Configuration is read-only after construction; pre- and post-processing may run on
 * any number of threads.
 */
package io.transnfv.vnf.builtin.tenant;
