package io.transnfv.engine.egress;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.report.RunStats;

/**
 * The egress side of the IO role: finishes a processed batch in arrival order. Every packet
 * goes to the listener (the sink, the records file, a checker), sampled packets get their
 * latency (wall time from hand-over to here, the same point for every executor), and the
 * batch counts as finished for progress.
 *
 * <p>Owned by whichever worker holds the IO role; the role's hand-over orders every call.
 */
public final class Egress
{
    private final RunStats stats;
    private final PacketListener listener;

    /**
     * @param stats    where latency and the finished count go.
     * @param listener told about every packet, or null.
     */
    public Egress(final RunStats stats, final PacketListener listener)
    {
        this.stats = stats;
        this.listener = listener;
    }

    /** Finishes every packet of {@code frame} (DONE), in arrival order. */
    public void finish(final BatchFrame frame)
    {
        final int count = frame.count;
        final long[] ingressNs = frame.ingressNs;
        final long doneNs = System.nanoTime();
        final PacketListener listener = this.listener;
        if (listener != null)
        {
            for (int i = 0; i < count; i++)
            {
                listener.onPacket(frame.records[i], frame.buffers[i], frame.packets[i]);
            }
        }
        for (int i = 0; i < count; i++)
        {
            final long start = ingressNs[i];
            if (start != 0)
            {
                stats.recordLatencyNs(doneNs - start);
            }
        }
        stats.addFinished(count);
    }
}
