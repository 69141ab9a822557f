package io.transnfv.flink.route;

import io.transnfv.engine.source.ForwardingPacketSource;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The packets of a traffic that a {@link PacketRouter} sends to one subtask, in arrival order,
 * with their run-wide sequence numbers: what that subtask's engine sees, for the serial oracle
 * to run over. One thread.
 */
public final class SubtaskSource extends ForwardingPacketSource
{
    private final PacketRouter router;
    private final int subtask;
    private final PacketFlyweight packet = new PacketFlyweight();

    /**
     * @param source  the whole traffic; closed with this source.
     * @param router  the run's routing.
     * @param subtask the subtask whose packets to give.
     */
    public SubtaskSource(final PacketSource source, final PacketRouter router, final int subtask)
    {
        super(source);
        this.router = router;
        this.subtask = subtask;
    }

    @Override
    public int poll(final PacketBuffer dst) throws SourceException
    {
        return next(dst) ? PACKET : END;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        while (source.next(dst))
        {
            packet.wrap(dst.memory(), dst.offset(), dst.length(), dst.originalLength(), dst.linkType());
            if (router.subtaskOf(packet) == subtask)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public String describe()
    {
        return super.describe() + ", the packets of subtask " + subtask + " of " + router.subtasks();
    }
}
