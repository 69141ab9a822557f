package io.transnfv.dpdk;

import io.transnfv.engine.thread.IdleBackoff;

import com.lmax.disruptor.RingBuffer;

import java.nio.ByteBuffer;

/**
 * The rx thread role: polls the port's rx queues, one JNI crossing per burst, and
 * publishes each packet's descriptor into the ingress ring. Polls only when the ring has
 * room for a whole burst, so when the engine is behind, packets wait in the port (the
 * backpressure a NIC turns into its own counted {@code imissed}); nothing is dropped here.
 *
 * <p>The ring's only producer. {@link #doWork()} is driven by {@link #run()} on the
 * receiver's thread, or by hand in tests.
 */
final class DpdkReceiver implements Runnable
{
    private final DpdkPort port;
    private final RingBuffer<RxEvent> ring;
    private final int portId;
    private final int queues;
    private final int burst;
    private final long idleTimeoutNs;
    private final long maxPackets;
    private final IdleBackoff backoff = new IdleBackoff();

    private long received;
    private volatile boolean running = true;
    private volatile long endSequence = Long.MAX_VALUE;
    private volatile DpdkException failure;

    DpdkReceiver(final DpdkPort port, final RingBuffer<RxEvent> ring)
    {
        this.port = port;
        this.ring = ring;
        this.portId = port.id();
        this.queues = port.config().rxQueues();
        this.burst = port.config().burstPackets();
        this.idleTimeoutNs = port.config().idleTimeoutNs();
        this.maxPackets = port.config().maxPackets();
    }

    /**
     * Poll each rx queue once, as far as the ring has room.
     *
     * @return packets published; 0 when there were none or the ring was full.
     * @throws DpdkException if an rx burst fails.
     */
    int doWork() throws DpdkException
    {
        int published = 0;
        for (int q = 0; q < queues; q++)
        {
            final long room = ring.remainingCapacity();
            final long left = maxPackets == 0 ? Long.MAX_VALUE : maxPackets - received;
            if (room < burst || left == 0)
            {
                break;
            }
            final int n = Dpdk.rxBurst(portId, q, (int)Math.min(burst, left));
            if (n > 0)
            {
                publish(port.rxDescriptors(q), n);
                received += n;
                published += n;
            }
        }
        return published;
    }

    private void publish(final ByteBuffer descriptors, final int n)
    {
        final long hi = ring.next(n);
        final long lo = hi - n + 1;
        for (int i = 0; i < n; i++)
        {
            final int d = i * RxDescriptor.BYTES;
            final RxEvent e = ring.get(lo + i);
            e.mbuf = descriptors.getLong(d + RxDescriptor.MBUF);
            e.dataOffset = (int)descriptors.getLong(d + RxDescriptor.DATA_OFFSET);
            e.dataLength = descriptors.getInt(d + RxDescriptor.DATA_LENGTH);
            e.packetLength = descriptors.getInt(d + RxDescriptor.PACKET_LENGTH);
            e.segments = descriptors.getShort(d + RxDescriptor.SEGMENTS) & 0xFFFF;
            e.malformed = descriptors.get(d + RxDescriptor.MALFORMED);
            e.timestampNs = descriptors.getLong(d + RxDescriptor.TIMESTAMP_NS);
        }
        ring.publish(lo, hi);
    }

    @Override
    public void run()
    {
        long idleSinceNs = System.nanoTime();
        try
        {
            while (running)
            {
                if (doWork() > 0)
                {
                    backoff.reset();
                    idleSinceNs = System.nanoTime();
                    continue;
                }
                if (maxPackets != 0 && received >= maxPackets)
                {
                    break;
                }
                final long nowNs = System.nanoTime();
                if (ring.remainingCapacity() < burst)
                {
                    idleSinceNs = nowNs; // the engine is behind: not idle, just waiting
                }
                else if (idleTimeoutNs > 0 && nowNs - idleSinceNs >= idleTimeoutNs)
                {
                    break;
                }
                backoff.idle();
            }
        }
        catch (final DpdkException e)
        {
            failure = e;
        }
        finally
        {
            endSequence = ring.getCursor() + 1;
        }
    }

    /** Ask {@link #run()} to stop after its current poll. Any thread. */
    void stop()
    {
        running = false;
    }

    /** @return packets received so far (receiver thread; others see a stale value). */
    long received()
    {
        return received;
    }

    /** @return the ring sequence the stream ends at, or {@link Long#MAX_VALUE} while running. */
    long endSequence()
    {
        return endSequence;
    }

    /** @return the failure that stopped the receiver, or null. */
    DpdkException failure()
    {
        return failure;
    }
}
