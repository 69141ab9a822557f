package io.transnfv.vnf.packet;

/**
 * A test on a parsed packet, used by chain edges to route packets between VNFs.
 *
 * <p>Implementations are called on the hot path: they must not allocate, block or keep
 * a reference to the flyweight beyond the call.
 */
@FunctionalInterface
public interface PacketPredicate
{
    /**
     * Decide whether the packet matches.
     *
     * @param packet a wrapped packet, valid only for the duration of the call.
     * @return true if the packet matches.
     */
    boolean test(PacketFlyweight packet);
}
