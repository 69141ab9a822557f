package io.transnfv.engine.ingress;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.engine.thread.FailurePoint;
import io.transnfv.engine.thread.IdleSettings;
import org.agrona.concurrent.IdleStrategy;


/**
 * The ingress ring: reads a {@link PacketSource} (a capture file, the generator) on its own
 * thread into a preallocated, power-of-two LMAX Disruptor ring, and hands packets to the
 * consumer through the same {@link PacketSource} interface, in the same order. Reading and
 * generating packets then overlaps with processing them, as a NIC's receive path does. The
 * serial oracle reads through one; the engine's workers read their source themselves.
 *
 * <pre>
 *  source ──(ingress thread)──► ring [slot = PacketBuffer] ──(consumer: EventPoller)──► next(dst)
 *                                  ▲                                                  │
 *                                  └──────────── poller's sequence (backpressure) ────┘
 * </pre>
 *
 * <p>One producer (the ingress thread) and one consumer (the thread calling {@link #next} or
 * {@link #poll}), which polls through a Disruptor {@link EventPoller}: nobody waits on a
 * barrier, so no wait strategy is involved; an empty ring makes the consumer idle with the
 * engine's {@link IdleSettings}, a full ring makes the producer wait, so nothing is lost. The
 * ingress thread stamps sampled packets with their hand-over time (for latency, as the engine's
 * ingress does). A failure of the source is rethrown at the point of the stream where it
 * happened, and an ingress thread that dies any other way (its uncaught-exception handler)
 * fails the consumer's next poll instead of leaving it waiting for packets that never come.
 * Nothing is allocated per packet: the frame is copied once from its slot into the
 * caller's buffer.
 */
public final class IngressRing implements PacketSource
{
    private final PacketSource source;
    private final RingBuffer<Slot> ring;
    private final EventPoller<Slot> poller;
    private final Thread thread;
    private final IdleStrategy idle = IdleSettings.newIdleStrategy();
    private final EventPoller.Handler<Slot> taker = this::take;
    private final FailurePoint failurePoint = new FailurePoint("ingress");
    private volatile boolean closed;
    private volatile Throwable died;
    private PacketBuffer target;
    private int polled;

    /**
     * Starts the ingress thread.
     *
     * @param source the source to read; owned by the ring from now on.
     * @param slots  ring capacity, a power of two.
     */
    public IngressRing(final PacketSource source, final int slots)
    {
        this(source, slots, true);
    }

    /**
     * The ring with or without its ingress thread: without, the producer's side is driven by
     * hand through {@link #produceOne()} (the concurrency tests make it one of their actors).
     */
    IngressRing(final PacketSource source, final int slots, final boolean startThread)
    {
        if (slots < 2 || Integer.bitCount(slots) != 1)
        {
            throw new IllegalArgumentException("slots must be a power of two >= 2: " + slots);
        }
        this.source = source;
        this.ring = RingBuffer.createSingleProducer(Slot::new, slots);
        this.poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        this.thread = new Thread(this::produce, "transnfv-ingress");
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((t, e) -> died = e);
        if (startThread)
        {
            thread.start();
        }
    }

    /** @param source the source to read, through a ring of the configured size. */
    public IngressRing(final PacketSource source)
    {
        this(source, EngineConfiguration.INGRESS_RING_SLOTS);
    }

    private void produce()
    {
        while (produceOne())
        {
            // one slot per turn until the end of the stream or a failure has been published
        }
    }

    /**
     * The ingress thread's step: claims the next slot (waiting while the ring is full), reads
     * one packet of the source into it and publishes it, or publishes the end of the stream or
     * the source's failure.
     *
     * @return false once the end (or a failure) has been published: nothing follows it.
     */
    boolean produceOne()
    {
        failurePoint.check();
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
            else if (EngineConfiguration.latencySampled(slot.buffer.sequence()) && slot.buffer.ingressNs() == 0)
            {
                slot.buffer.ingressNs(System.nanoTime());
            }
        }
        catch (final SourceException e)
        {
            slot.end = true;
            slot.failure = e;
        }
        catch (final Throwable e)
        {
            slot.end = true;
            slot.failure = new SourceException(source.describe(), -1, "reading failed: " + e, e);
        }
        ring.publish(sequence);
        return !slot.end;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        while (true)
        {
            final int result = poll(dst);
            if (result != NOTHING_YET)
            {
                idle.reset();
                return result == PACKET;
            }
            idle.idle();
        }
    }

    @Override
    public int poll(final PacketBuffer dst) throws SourceException
    {
        target = dst;
        polled = NOTHING_YET;
        try
        {
            poller.poll(taker);
        }
        catch (final SourceException e)
        {
            throw e;
        }
        catch (final Exception e)
        {
            throw new SourceException(source.describe(), -1, "reading failed: " + e, e);
        }
        finally
        {
            target = null;
        }
        if (polled == NOTHING_YET)
        {
            final Throwable death = died;
            if (death != null)
            {
                throw new SourceException(source.describe(), -1, "the ingress thread died: " + death
                    + "; fix: this is a bug in the packet source; report it with the traffic", death);
            }
        }
        return polled;
    }

    /** Takes one slot into the target buffer and stops the poll there. */
    private boolean take(final Slot slot, final long sequence, final boolean endOfBatch) throws SourceException
    {
        if (slot.end)
        {
            if (slot.failure != null)
            {
                throw slot.failure;
            }
            polled = END;
            return false;
        }
        final PacketBuffer from = slot.buffer;
        final PacketBuffer dst = target;
        dst.copyFrom(from);
        dst.ingressNs(from.ingressNs());
        polled = PACKET;
        return false;
    }

    /** @return whether the source its thread reads is live. */
    @Override
    public boolean live()
    {
        return source.live();
    }

    /** @return the underlying source's counters; complete once {@link #next} returned false. */
    @Override
    public SourceStats stats()
    {
        return source.stats();
    }

    @Override
    public int maxFrameBytes()
    {
        return source.maxFrameBytes();
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
        poller.getSequence().set(Long.MAX_VALUE - 1);
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
