package io.transnfv.dpdk;

import io.transnfv.engine.thread.IdleSettings;
import org.agrona.concurrent.IdleStrategy;

import com.lmax.disruptor.RingBuffer;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;

import java.nio.ByteBuffer;

/**
 * A {@link PacketSource} over the ingress ring: each {@link #next} takes the next
 * published packet and hands the engine the frame where it is. A frame in one mbuf (the
 * fast path) is not copied: the engine's buffer is {@linkplain PacketBuffer#attach attached}
 * to the mbuf's data through the pool window, so the chain reads and rewrites the mbuf
 * itself. A frame in a chain of mbufs (longer than the data room) is copied into the
 * buffer's own array and counted in {@link #framesCopied()}; the sink copies it back. The
 * mbuf stays in native memory, and the view valid, until {@link DpdkSink} applies its
 * verdict.
 *
 * <p>Driven by the engine's thread, which must also drive the front end's sink (every
 * executor calls its listener on the thread that calls {@code next}). When the ring is
 * empty it first flushes the sink's pending verdicts, so a partial tx burst never waits
 * for more traffic. The stream ends when the receiver stops (idle timeout, packet limit,
 * {@link #close()}); an rx failure is thrown from {@code next}.
 */
public final class DpdkSource implements PacketSource
{
    private final DpdkFrontEnd frontEnd;
    private final RingBuffer<RxEvent> ring;
    private final ByteBuffer frames;
    private final MbufChain chains;
    private final DpdkReceiver receiver;
    private final DpdkSink sink;
    private final SourceStats stats = new SourceStats();
    private final IdleStrategy backoff = IdleSettings.newIdleStrategy();
    private long nextSequence;
    private long framesCopied;
    private boolean ended;

    DpdkSource(final DpdkFrontEnd frontEnd, final RingBuffer<RxEvent> ring, final DpdkReceiver receiver, final DpdkSink sink)
    {
        this.frontEnd = frontEnd;
        this.ring = ring;
        this.frames = frontEnd.port().frames();
        this.chains = frontEnd.port().chains();
        this.receiver = receiver;
        this.sink = sink;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws DpdkException
    {
        final long sequence = nextSequence;
        if (sequence > ring.getCursor() && !awaitSlowPath(sequence))
        {
            return false;
        }
        final RxEvent e = ring.get(sequence);
        final int length;
        if (e.segments == 1)
        {
            length = Math.min(e.dataLength, dst.capacity());
            dst.attach(frames, e.dataOffset, length, e.packetLength, e.timestampNs, sequence);
        }
        else
        {
            length = copyChainSlowPath(e, dst, sequence);
        }
        if (length < e.packetLength)
        {
            stats.onOversizedFrame();
        }
        stats.onPacket(length);
        nextSequence = sequence + 1;
        return true;
    }

    /**
     * Takes the next packet if the receiver has published one; otherwise applies the sink's
     * pending verdicts (so a partial tx burst never waits for more traffic) and says so.
     */
    @Override
    public int poll(final PacketBuffer dst) throws DpdkException
    {
        final long sequence = nextSequence;
        if (sequence > ring.getCursor())
        {
            if (ended)
            {
                return END;
            }
            sink.flush();
            if (sequence >= receiver.endSequence() && sequence > ring.getCursor())
            {
                return awaitSlowPath(sequence) ? poll(dst) : END;
            }
            return NOTHING_YET;
        }
        return next(dst) ? PACKET : END;
    }

    /** A frame spread over a chain of mbufs has no contiguous view: it is copied into the buffer's array. */
    private int copyChainSlowPath(final RxEvent e, final PacketBuffer dst, final long sequence)
    {
        final int length = chains.copyOut(e.mbuf, dst.data(), Math.min(e.packetLength, dst.capacity()));
        dst.commit(length, e.packetLength, e.timestampNs, sequence);
        framesCopied++;
        return length;
    }

    private boolean awaitSlowPath(final long sequence) throws DpdkException
    {
        if (ended)
        {
            return false;
        }
        sink.flush();
        backoff.reset();
        while (sequence > ring.getCursor())
        {
            if (sequence >= receiver.endSequence() && sequence > ring.getCursor())
            {
                ended = true;
                summarise();
                final DpdkException failure = receiver.failure();
                if (failure != null)
                {
                    throw failure;
                }
                return false;
            }
            backoff.idle();
        }
        return true;
    }

    /**
     * Adds the front end's ingress findings to the warnings the run report prints. Malformed
     * frames are not among them: the packet view finds those, and the report counts them
     * as the chain's ingress drops, as on every other source.
     */
    private void summarise() throws DpdkException
    {
        final NativeCounters counters = frontEnd.port().refreshCounters();
        if (counters.portRxLosses() > 0)
        {
            stats.warn("dpdk: the port lost " + counters.portRxLosses() + " packets before rx (imissed/ierrors/rx_nombuf)");
        }
        if (receiver.endedHeldBack())
        {
            final DpdkConfig config = frontEnd.port().config();
            stats.warn("dpdk: the stream ended with rx held back by the mbuf pool (" + config.mbufs() + " mbufs of "
                + config.dataRoomBytes() + " B): the engine held them and gave none back for the idle timeout, so packets"
                + " may be left in the port; a larger data room (--dpdk-data-room) or smaller batches avoid it");
        }
    }

    /**
     * @return frames copied out of their mbufs into the engine's buffers: those that arrived
     *         as chains of mbufs; 0 when every frame fits in one mbuf. Engine thread.
     */
    public long framesCopied()
    {
        return framesCopied;
    }

    /** @return the arrival index the next packet gets (= packets delivered). */
    public long delivered()
    {
        return nextSequence;
    }

    /** @return true: a port's packets cannot be read again, and its quiet spells are real time. */
    @Override
    public boolean live()
    {
        return true;
    }

    @Override
    public SourceStats stats()
    {
        return stats;
    }

    @Override
    public String describe()
    {
        return frontEnd.describe();
    }

    /** Stops the receiver, applies pending verdicts and closes the port (the whole front end). */
    @Override
    public void close() throws DpdkException
    {
        frontEnd.close();
    }
}
