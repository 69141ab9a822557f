package io.transnfv.engine.egress;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.report.RunStats;

/**
 * The egress side of the IO role: finishes a processed batch in arrival order. Every packet
 * goes to the listener (the sink, the records file, a checker), sampled packets get their
 * latency (wall time from hand-over to here, the same point for every executor), and the
 * batch counts as finished for progress.
 *
 * <p>Packets are also judged against the error bound here, in arrival order as the serial
 * oracle judges them: crossing it asks the run to stop ({@link RunControl}).
 *
 * <p>Owned by whichever worker holds the IO role; the role's hand-over orders every call.
 */
public final class Egress
{
    private final RunStats stats;
    private final PacketListener listener;
    private final ErrorBound errorBound;
    private final RunControl control;

    /**
     * @param stats      where latency and the finished count go.
     * @param listener   told about every packet, or null.
     * @param errorBound judges the share of faulted packets.
     * @param control    asked to stop when the error bound is crossed.
     */
    public Egress(final RunStats stats, final PacketListener listener, final ErrorBound errorBound, final RunControl control)
    {
        this.stats = stats;
        this.listener = listener;
        this.errorBound = errorBound;
        this.control = control;
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
        final ErrorBound errorBound = this.errorBound;
        for (int i = 0; i < count; i++)
        {
            final PacketRecord record = frame.records[i];
            if (errorBound.onPacket(record.timestampNs(), record.faulted()))
            {
                control.requestStop(RunControl.StopCause.ERROR_BOUND, errorBound.exceeded());
            }
        }
        for (int i = 0; i < count; i++)
        {
            final long start = ingressNs[i];
            if (start != 0)
            {
                stats.recordLatencyNs(doneNs - start, frame.records[i]);
            }
        }
        stats.addFinished(count);
    }
}
