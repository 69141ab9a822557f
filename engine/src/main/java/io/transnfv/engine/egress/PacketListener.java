package io.transnfv.engine.egress;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Told about every packet once the chain is done with it, in arrival order: the sink for
 * forwarded packets, the writer of per-packet records, equivalence checkers. Called by one
 * thread at a time; everything passed is only valid during the call. A listener whose output
 * fails throws {@link java.io.UncheckedIOException}: the run fails, and {@code run} throws its
 * {@link java.io.IOException}.
 */
@FunctionalInterface
public interface PacketListener
{
    /**
     * @param record what the chain did with the packet.
     * @param buffer the frame as it leaves the chain (rewrites applied).
     * @param packet a view over {@code buffer}.
     */
    void onPacket(PacketRecord record, PacketBuffer buffer, PacketFlyweight packet);
}
