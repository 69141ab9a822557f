/**
 * Egress, the last stage of the data path: where processed packets leave the engine.
 * {@link io.transnfv.engine.egress.PcapWriter} records them to a classic pcap file.
 *
 * <p>Each writer is owned by the one sink thread that calls it; it buffers output and
 * owns its file until {@code close()}.
 */
package io.transnfv.engine.egress;
