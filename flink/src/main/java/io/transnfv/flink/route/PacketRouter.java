package io.transnfv.flink.route;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Maps a packet to one of {@code subtasks} engines. Packets that are not IP (or too damaged to
 * show addresses) carry no key: they go to subtask 0, where the chain drops or forwards them
 * without touching keyed state. One thread; allocates nothing.
 */
public final class PacketRouter
{
    private final Partitioning.Routing routing;
    private final int subtasks;

    /**
     * @param routing  the key, from the chain's {@link Partitioning}.
     * @param subtasks the engines' parallelism, at least 1.
     */
    public PacketRouter(final Partitioning.Routing routing, final int subtasks)
    {
        if (subtasks < 1)
        {
            throw new IllegalArgumentException("subtasks must be >= 1: " + subtasks);
        }
        this.routing = routing;
        this.subtasks = subtasks;
    }

    /** @return the subtask, 0 to {@code subtasks - 1}, whose engine takes {@code packet}. */
    public int subtaskOf(final PacketFlyweight packet)
    {
        return subtaskOf(routingHash(packet), subtasks);
    }

    /**
     * @return the packet's routing key, hashed: the same for every packet that must meet, whatever
     *         the parallelism; 0 for a packet with no key (it goes to subtask 0 at every parallelism).
     *         A subtask keeps it beside the state entries the packet touches, so that a restore at
     *         another parallelism can give each entry to the subtask its packets now go to.
     */
    public long routingHash(final PacketFlyweight packet)
    {
        if (routing == Partitioning.Routing.SINGLE || !packet.isValid() || !packet.isIp())
        {
            return 0L;
        }
        final long source = FlowKeys.srcHost(packet);
        final long key;
        if (routing == Partitioning.Routing.SOURCE_HOST)
        {
            key = source;
        }
        else
        {
            // unordered: both directions of a connection, and every fragment of its datagrams, meet
            final long destination = FlowKeys.dstHost(packet);
            final long low = Math.min(source, destination);
            final long high = Math.max(source, destination);
            key = FlowKeys.mix64(low * 0x9E3779B97F4A7C15L + high) ^ (packet.ipProtocol() & 0xFF);
        }
        return FlowKeys.mix64(key);
    }

    /** @return the subtask of {@code subtasks} that a packet of routing hash {@code hash} ({@link #routingHash}) goes to. */
    public static int subtaskOf(final long hash, final int subtasks)
    {
        return (int)Long.remainderUnsigned(hash, subtasks);
    }

    /** @return how packets are routed. */
    public Partitioning.Routing routing()
    {
        return routing;
    }

    /** @return the number of subtasks routed over. */
    public int subtasks()
    {
        return subtasks;
    }
}
