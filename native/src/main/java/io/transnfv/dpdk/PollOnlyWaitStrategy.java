package io.transnfv.dpdk;

import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

/**
 * The wait strategy of the DPDK ingress ring, which nobody waits on: {@link DpdkSource}
 * polls the ring's cursor and idles with its own backoff, {@link DpdkReceiver} polls the
 * ring's remaining capacity, and the ring hands out no {@link SequenceBarrier}. The
 * Disruptor still asks for a strategy: its sequencer signals it on every publish (a no-op
 * here; the default {@code BlockingWaitStrategy} would take a monitor per rx burst), and
 * only a barrier would call {@link #waitFor}, which therefore refuses instead of spinning.
 */
final class PollOnlyWaitStrategy implements WaitStrategy
{
    static final PollOnlyWaitStrategy INSTANCE = new PollOnlyWaitStrategy();

    private PollOnlyWaitStrategy()
    {
    }

    /** @throws UnsupportedOperationException always: consumers of this ring poll its cursor. */
    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier)
    {
        throw new UnsupportedOperationException("the DPDK ingress ring is polled (DpdkSource reads its cursor), "
            + "never waited on through a barrier");
    }

    /** Nobody blocks on this ring: nothing to wake. Called by the producer on every publish. */
    @Override
    public void signalAllWhenBlocking()
    {
    }
}
