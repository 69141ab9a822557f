package io.transnfv.dpdk;

import io.transnfv.engine.thread.FailurePoint;
import io.transnfv.engine.thread.IdleSettings;
import org.agrona.concurrent.IdleStrategy;

import com.lmax.disruptor.RingBuffer;

import java.nio.ByteBuffer;

/**
 * The rx thread role: polls the port's rx queues, one JNI crossing per burst, and
 * publishes each packet's descriptor into the ingress ring. Polls only when the ring has
 * room for a whole burst, and (in C) asks only for as many packets as the free mbufs hold
 * if every frame is as long as the longest counted on, so when the engine is behind, or
 * holds the mbufs, packets wait in the port (the backpressure a NIC turns into its own
 * counted {@code imissed}); nothing is dropped here. Held back either way, the receiver
 * waits with its idle strategy and does not count the wait as idle, as long as the engine
 * still gives mbufs back.
 *
 * <p>The ring's only producer. {@link #doWork()} is driven by {@link #run()} on the
 * receiver's thread, or by hand in tests.
 */
final class DpdkReceiver implements Runnable
{
    /** How often the port's own counters are refreshed while the run goes on. */
    private static final long PORT_COUNTERS_REFRESH_NS = 1_000_000_000L;

    private final DpdkPort port;
    private final RingBuffer<RxEvent> ring;
    private final int portId;
    private final int queues;
    private final int burst;
    private final long idleTimeoutNs;
    private final long maxPackets;
    private final NativeCounters counters;
    private final IdleStrategy backoff = IdleSettings.newIdleStrategy();

    private long received;
    private long heldBackPolls;
    private boolean heldBack;
    private long releasedSeen = -1;
    private volatile boolean endedHeldBack;
    private volatile boolean running = true;
    private volatile long endSequence = Long.MAX_VALUE;
    private volatile DpdkException failure;
    private final FailurePoint failurePoint = new FailurePoint("dpdk-rx");

    DpdkReceiver(final DpdkPort port, final RingBuffer<RxEvent> ring)
    {
        this.port = port;
        this.ring = ring;
        this.portId = port.id();
        this.queues = port.config().rxQueues();
        this.burst = port.config().burstPackets();
        this.idleTimeoutNs = port.config().idleTimeoutNs();
        this.maxPackets = port.config().maxPackets();
        this.counters = port.counters();
    }

    /**
     * Poll each rx queue once, as far as the ring has room and the mbuf pool allows.
     *
     * @return packets published; 0 when there were none, the ring was full or the pool low.
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
        final long polls = counters.rxHeldBackPoolLow(); // written by this thread, in rxBurst0
        heldBack = published == 0 && polls != heldBackPolls;
        heldBackPolls = polls;
        return published;
    }

    /** @return true when the last {@link #doWork()} published nothing because the mbuf pool was low. */
    boolean heldBack()
    {
        return heldBack;
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
            e.timestampNs = descriptors.getLong(d + RxDescriptor.TIMESTAMP_NS);
        }
        ring.publish(lo, hi);
    }

    /**
     * Refreshes the port's own counters ({@code rte_eth_stats_get}: missed, errors, no mbuf) once
     * a second, on this thread, which already talks to the port: readers off the data path (the
     * control plane's metrics) then see them while the run goes on, not only at its end.
     *
     * @return when they were last refreshed.
     */
    private long refreshPortCounters(final long nowNs, final long refreshedNs) throws DpdkException
    {
        if (nowNs - refreshedNs < PORT_COUNTERS_REFRESH_NS)
        {
            return refreshedNs;
        }
        port.refreshCounters();
        return nowNs;
    }

    @Override
    public void run()
    {
        long idleSinceNs = System.nanoTime();
        long refreshedNs = idleSinceNs;
        try
        {
            while (running)
            {
                failurePoint.check();
                if (doWork() > 0)
                {
                    backoff.reset();
                    idleSinceNs = System.nanoTime();
                    refreshedNs = refreshPortCounters(idleSinceNs, refreshedNs);
                    continue;
                }
                if (maxPackets != 0 && received >= maxPackets)
                {
                    break;
                }
                final long nowNs = System.nanoTime();
                refreshedNs = refreshPortCounters(nowNs, refreshedNs);
                if (ring.remainingCapacity() < burst || heldBack && engineReleasedMbufs())
                {
                    idleSinceNs = nowNs; // the engine is behind: not idle, just waiting
                }
                else if (idleTimeoutNs > 0 && nowNs - idleSinceNs >= idleTimeoutNs)
                {
                    endedHeldBack = heldBack;
                    break;
                }
                backoff.idle();
            }
        }
        catch (final DpdkException e)
        {
            failure = e;
        }
        catch (final RuntimeException | Error e)
        {
            // a receiver that dies must fail the run, never look like a port that went quiet
            final DpdkException died = new DpdkException("the receive thread of port " + port.id(), 0, "died: " + e);
            died.addSuppressed(e);
            failure = died;
        }
        finally
        {
            endSequence = ring.getCursor() + 1;
        }
    }

    /**
     * Held back by the pool, the receiver waits only as long as the engine is working: a
     * sink flush since the last look gave mbufs back. An engine that holds every mbuf and
     * waits for another packet (a batch of frames too long for the pool, see
     * {@link DpdkConfig#mbufs()}) releases none, and then the wait counts as idle.
     */
    private boolean engineReleasedMbufs()
    {
        final long released = ring.getMinimumGatingSequence();
        final boolean moved = released != releasedSeen;
        releasedSeen = released;
        return moved;
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

    /**
     * @return true when the stream ended at the idle timeout while the mbuf pool held the
     *         receiver back and the engine gave no mbuf back: packets may be left in the port.
     *         Read after {@link #endSequence()} has its final value.
     */
    boolean endedHeldBack()
    {
        return endedHeldBack;
    }

    /** @return the failure that stopped the receiver, or null. */
    DpdkException failure()
    {
        return failure;
    }
}
