package io.transnfv.engine.ingress;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.YieldingWaitStrategy;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.engine.thread.IdleBackoff;


/**
 * The ingress ring: reads a {@link PacketSource} (a capture file, the generator) on its own
 * thread into a preallocated, power-of-two LMAX Disruptor ring, and hands packets to the
 * executor through the same {@link PacketSource} interface, in the same order. Reading and
 * generating packets then overlaps with processing them, as a NIC's receive path does.
 *
 * <pre>
 *  source ──(ingress thread)──► ring [slot = PacketBuffer] ──(executor thread)──► next(dst)
 *                                  ▲                                           │
 *                                  └──────── consumer sequence (backpressure) ─┘
 * </pre>
 *
 * <p>One producer (the ingress thread) and one consumer (the thread calling {@link #next});
 * a full ring makes the producer wait, so nothing is lost. A failure of the source is
 * rethrown by {@link #next} at the point of the stream where it happened. Nothing is
 * allocated per packet: the frame is copied once from its slot into the caller's buffer.
 */
public final class IngressRing implements PacketSource
{
    /** Default number of slots. */
    public static final int DEFAULT_SLOTS = 1024;

    private final PacketSource source;
    private final RingBuffer<Slot> ring;
    private final Sequence consumed = new Sequence(-1);
    private final Thread thread;
    private final IdleBackoff backoff = new IdleBackoff();
    private volatile boolean closed;
    private long next;

    /**
     * Starts the ingress thread.
     *
     * @param source the source to read; owned by the ring from now on.
     * @param slots  ring capacity, a power of two.
     */
    public IngressRing(final PacketSource source, final int slots)
    {
        if (slots < 2 || Integer.bitCount(slots) != 1)
        {
            throw new IllegalArgumentException("slots must be a power of two >= 2: " + slots);
        }
        this.source = source;
        this.ring = RingBuffer.createSingleProducer(Slot::new, slots, new YieldingWaitStrategy());
        ring.addGatingSequences(consumed);
        this.thread = new Thread(this::produce, "transnfv-ingress");
        thread.setDaemon(true);
        thread.start();
    }

    private void produce()
    {
        while (true)
        {
            final long sequence = ring.next();
            final Slot slot = ring.get(sequence);
            slot.end = false;
            slot.failure = null;
            try
            {
                if (closed || !source.next(slot.buffer))
                {
                    slot.end = true;
                }
            }
            catch (final SourceException e)
            {
                slot.end = true;
                slot.failure = e;
            }
            catch (final RuntimeException e)
            {
                slot.end = true;
                slot.failure = new SourceException(source.describe(), -1, "reading failed: " + e, e);
            }
            ring.publish(sequence);
            if (slot.end)
            {
                return;
            }
        }
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        final long sequence = next;
        while (ring.getCursor() < sequence)
        {
            backoff.idle();
        }
        backoff.reset();
        final Slot slot = ring.get(sequence);
        if (slot.end)
        {
            if (slot.failure != null)
            {
                throw slot.failure;
            }
            return false;
        }
        final PacketBuffer from = slot.buffer;
        final int length = Math.min(from.length(), dst.capacity());
        from.copyTo(dst.data(), 0, length);
        dst.commit(length, from.originalLength(), from.timestampNs(), from.sequence());
        next = sequence + 1;
        consumed.set(sequence);
        return true;
    }

    /** @return the underlying source's counters; complete once {@link #next} returned false. */
    @Override
    public SourceStats stats()
    {
        return source.stats();
    }

    @Override
    public String describe()
    {
        return source.describe();
    }

    @Override
    public void close() throws SourceException
    {
        closed = true;
        // let a producer blocked on a full ring finish its slot and see `closed`
        consumed.set(Long.MAX_VALUE - 1);
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        source.close();
    }

    private static final class Slot
    {
        final PacketBuffer buffer = new PacketBuffer();
        boolean end;
        SourceException failure;
    }
}
