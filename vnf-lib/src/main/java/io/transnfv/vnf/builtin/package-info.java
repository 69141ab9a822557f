/**
 * The built-in VNF types, one package each ({@code nat}, {@code lb}, {@code trojan},
 * {@code firewall}, {@code portscan}, {@code monitor}), registered through
 * {@code META-INF/services/io.transnfv.vnf.api.VnfFactory}, plus {@link
 * io.transnfv.vnf.builtin.PacketClock}, the packet-time arithmetic they share. Package
 * {@code tenant} holds the classifier and limiter a chain of tenants is compiled with; they are
 * not registered, since chains name tenants rather than these types.
 *
 * <p>Every VNF here follows the same rules: pre-processing reads only the packet and the
 * configuration; state functions are stateless singletons created at setup; time is packet
 * time; per-flow entries expire on FIN/RST and when idle, and an idle entry a packet finds
 * before the sweep removed it is treated exactly as the sweep would have left it, so
 * results do not depend on where the expiry ticks fall. Instances are configured once and
 * then read-only, so pre- and post-processing may run on several threads at once.
 */
package io.transnfv.vnf.builtin;
