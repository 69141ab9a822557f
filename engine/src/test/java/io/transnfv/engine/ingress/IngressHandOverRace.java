package io.transnfv.engine.ingress;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The ingress ring's hand-over from its producer (the ingress thread's step) to its consumer
 * (the thread polling it): the producer publishes four packets and the end of the stream
 * through a ring of two slots, so every slot is written again while the consumer may still be
 * copying out of it; the consumer polls once without waiting, then drains the ring to its end.
 * Every packet's sequence, length, timestamp and bytes are a function of its index, so a
 * packet read before its slot was published, or while the producer overwrote it, shows up as
 * torn. r1: what the first poll saw: -1 nothing yet, else the index of the packet it got whole,
 * -2 a torn packet, -3 the end of the stream. r2: how many packets came whole and in order,
 * one after the other from the first, before the end. Run by {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = "-1, 4", expect = ACCEPTABLE, desc = "the first poll came before the first publication; all four came whole, in order")
@Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "the first poll got the first packet whole; all four came whole, in order")
@Outcome(id = {"-2, .*", ".*, [0-3]"}, expect = FORBIDDEN, desc = "a packet was torn, skipped, repeated or out of order")
@Outcome(expect = FORBIDDEN, desc = "the first poll saw a later packet or the end before the first packet")
@State
public class IngressHandOverRace
{
    private static final int PACKETS = 4;
    private static final int NOTHING = -1;
    private static final int TORN = -2;
    private static final int ENDED = -3;

    private final IngressRing ring = new IngressRing(new IndexedSource(), 2, false);
    private final PacketBuffer dst = new PacketBuffer(PacketBuffer.MIN_CAPACITY);

    @Actor
    public void producer()
    {
        while (ring.produceOne())
        {
            // four packets, then the end of the stream
        }
    }

    @Actor
    public void consumer(final II_Result r)
    {
        final int first = take();
        r.r1 = first;
        int inOrder = first == 0 ? 1 : 0;
        boolean broken = first == TORN || first > 0;
        int seen = first;
        while (seen != ENDED)
        {
            seen = take();
            if (seen == NOTHING || seen == ENDED)
            {
                continue;
            }
            if (!broken && seen == inOrder)
            {
                inOrder++;
            }
            else
            {
                // keep draining: a producer waiting on a full ring must reach its end
                broken = true;
            }
        }
        r.r2 = inOrder;
    }

    /** One poll: what it saw, checked against the packet its index names. */
    private int take()
    {
        final int result;
        try
        {
            result = ring.poll(dst);
        }
        catch (final Exception e)
        {
            return TORN;
        }
        if (result == PacketSource.NOTHING_YET)
        {
            return NOTHING;
        }
        if (result == PacketSource.END)
        {
            return ENDED;
        }
        final long index = dst.sequence();
        if (index < 0 || index >= PACKETS || dst.length() != lengthOf(index) || dst.timestampNs() != timestampOf(index))
        {
            return TORN;
        }
        final byte[] bytes = dst.data();
        for (int i = 0; i < dst.length(); i++)
        {
            if (bytes[i] != byteOf(index, i))
            {
                return TORN;
            }
        }
        return (int)index;
    }

    private static int lengthOf(final long index)
    {
        return 60 + 97 * (int)index;
    }

    private static long timestampOf(final long index)
    {
        return 1_000_000L * (index + 1);
    }

    private static byte byteOf(final long index, final int i)
    {
        return (byte)(index * 31 + i);
    }

    /** Four packets whose every field is a function of their index. */
    private static final class IndexedSource implements PacketSource
    {
        private final SourceStats stats = new SourceStats();
        private long next;

        @Override
        public boolean next(final PacketBuffer buffer)
        {
            if (next == PACKETS)
            {
                return false;
            }
            final long index = next++;
            final int length = lengthOf(index);
            final byte[] bytes = buffer.data();
            for (int i = 0; i < length; i++)
            {
                bytes[i] = byteOf(index, i);
            }
            buffer.commit(length, length, timestampOf(index), index);
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
            return "indexed packets";
        }

        @Override
        public void close()
        {
            // nothing held
        }
    }
}
