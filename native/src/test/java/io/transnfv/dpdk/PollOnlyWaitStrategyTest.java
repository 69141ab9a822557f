package io.transnfv.dpdk;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The ingress ring is polled by its consumer and gated by the sink's releases alone (runs without DPDK). */
class PollOnlyWaitStrategyTest
{
    @Test
    void shouldRefuseToWaitThroughABarrierBecauseTheRingIsOnlyPolled()
    {
        final RingBuffer<RxEvent> ring = DpdkFrontEnd.ingressRing(8, new Sequence(-1));
        final SequenceBarrier barrier = ring.newBarrier();
        assertTimeoutPreemptively(Duration.ofSeconds(10),
            () -> assertThrows(UnsupportedOperationException.class, () -> barrier.waitFor(0)),
            "a barrier wait on the empty ring must fail at once, not wait");
    }

    @Test
    void shouldGiveTheReceiverRoomOnlyForSlotsTheSinkReleased()
    {
        final Sequence released = new Sequence(-1);
        final RingBuffer<RxEvent> ring = DpdkFrontEnd.ingressRing(8, released);
        final long hi = ring.next(8);
        ring.publish(hi - 7, hi);
        assertEquals(7, ring.getCursor(), "published without anyone waiting");
        assertEquals(0, ring.remainingCapacity(), "read but unreleased slots still hold their mbufs");
        released.set(3);
        assertEquals(4, ring.remainingCapacity());
    }
}
