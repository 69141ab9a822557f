/**
 * Egress, the last stage of the data path: where processed packets leave the engine, in
 * arrival order. {@link io.transnfv.engine.egress.Egress} finishes a batch (listener, latency,
 * progress), {@link io.transnfv.engine.egress.PacketRecord} is what the chain did with a
 * packet, {@link io.transnfv.engine.egress.PcapWriter} records packets to a classic pcap file.
 *
 * <p>Each writer is owned by the one sink thread that calls it; it buffers output and
 * owns its file until {@code close()}.
 */
package io.transnfv.engine.egress;
