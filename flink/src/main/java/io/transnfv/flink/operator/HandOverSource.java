package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's packet source inside a Flink subtask: the task thread {@link #offer}s the batches
 * Flink delivers, the engine's IO role polls them packet by packet. Having nothing to give it
 * answers {@link #NOTHING_YET}, which closes the batch being filled (the input ran dry), so the
 * engine finishes every packet handed over without waiting for more. Not live: packet time is
 * the packets' own. One producer, one consumer.
 */
public final class HandOverSource implements PacketSource
{
    private final ConcurrentLinkedQueue<PacketBatch> queue = new ConcurrentLinkedQueue<>();
    private final SourceStats stats = new SourceStats();
    private final int maxFrameBytes;
    private final String description;
    private volatile boolean ended;
    // the consumer's: the batch being read, the position of its next packet and the packets left in it
    private PacketBatch current;
    private int position;
    private int left;

    /**
     * @param maxFrameBytes the traffic's longest frame (the engine sizes its buffers by it).
     * @param description   what the reports call this source.
     */
    public HandOverSource(final int maxFrameBytes, final String description)
    {
        this.maxFrameBytes = maxFrameBytes;
        this.description = description;
    }

    /** Task thread: hands {@code batch} to the engine. */
    public void offer(final PacketBatch batch)
    {
        queue.add(batch);
    }

    /** Task thread: no batch follows; the engine ends its run once it has read the rest. */
    public void end()
    {
        ended = true;
    }

    @Override
    public int poll(final PacketBuffer dst)
    {
        while (left == 0)
        {
            // read ended before the queue: a batch offered before end() is never missed
            final boolean endSeen = ended;
            current = queue.poll();
            if (current == null)
            {
                return endSeen ? END : NOTHING_YET;
            }
            position = 0;
            left = current.count();
        }
        position = current.copyTo(position, dst);
        left--;
        return PACKET;
    }

    @Override
    public boolean next(final PacketBuffer dst)
    {
        int read;
        while ((read = poll(dst)) == NOTHING_YET)
        {
            LockSupport.parkNanos(50_000);
        }
        return read == PACKET;
    }

    @Override
    public int maxFrameBytes()
    {
        return maxFrameBytes;
    }

    @Override
    public SourceStats stats()
    {
        return stats;
    }

    @Override
    public String describe()
    {
        return description;
    }

    @Override
    public void close()
    {
        queue.clear();
    }
}
