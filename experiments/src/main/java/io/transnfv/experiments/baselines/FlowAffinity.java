package io.transnfv.experiments.baselines;

import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Which instance owns a packet's flow in the baselines that partition traffic (CHC-style,
 * Partitioned): a hash of the source host. Keying on the host rather than the 5-tuple keeps
 * every per-flow entry the built-in VNFs declare (5-tuple, internal endpoint, host) at one
 * instance, the way CHC's root steers all of a flow's packets to one instance.
 */
final class FlowAffinity
{
    private FlowAffinity()
    {
    }

    /** @return the instance in {@code [0, instances)} that owns {@code packet}'s flow. */
    static int ownerOf(final PacketFlyweight packet, final int instances)
    {
        return (int)Math.floorMod(FlowKeys.mix64(FlowKeys.srcHost(packet)), (long)instances);
    }
}
