/**
 * The packet view VNFs program against: a reusable, allocation-free flyweight over a
 * frame's bytes ({@link io.transnfv.vnf.packet.PacketFlyweight}), header rewrites with
 * incremental checksum updates, the folding of packet identity into {@code long} keys
 * ({@link io.transnfv.vnf.packet.FlowKeys}), the packet an ICMP or ICMPv6 error quotes
 * ({@link io.transnfv.vnf.packet.IcmpErrorQuote}), IPv4 and IPv6 addresses and prefixes for
 * configuration ({@link io.transnfv.vnf.packet.Cidr}, {@link io.transnfv.vnf.packet.Ipv6Cidr})
 * and a frame writer used by tests and the synthetic traffic generator.
 *
 * <p>Stage: pre- and post-processing. Each worker thread owns its flyweights; none of
 * the types here is thread-safe, and none allocates on its per-packet methods except
 * the report helpers ({@link io.transnfv.vnf.packet.Ipv4#format(int)},
 * {@link io.transnfv.vnf.packet.FiveTupleFormat}).
 */
package io.transnfv.vnf.packet;
