/**
 * Packet sources, the first stage of the data path: the pure-Java pcap/pcapng reader
 * ({@link io.transnfv.engine.source.PcapSource}) and the deterministic synthetic traffic
 * generator ({@link io.transnfv.engine.source.Generator}).
 *
 * <p>A source is driven by one thread (the ingress thread), which calls
 * {@link io.transnfv.engine.source.PacketSource#next(PacketBuffer)} to fill a reusable
 * {@link io.transnfv.engine.source.PacketBuffer}. The source stamps each packet with its
 * arrival index ({@code sequence}): that order is the order chain output equivalence
 * refers to. The source owns its file channel and its
 * {@link io.transnfv.engine.source.SourceStats}; nothing here is thread-safe.
 */
package io.transnfv.engine.source;
