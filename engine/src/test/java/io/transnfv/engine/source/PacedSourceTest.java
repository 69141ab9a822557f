package io.transnfv.engine.source;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The virtual receive ring over a clock moved by hand: due times, renumbering, exactly the overflow dropped. */
class PacedSourceTest
{
    private static final long MS = 1_000_000L;
    private static final long START = 5_000 * MS;

    private final ManualClock clock = new ManualClock();
    private final PacketBuffer dst = new PacketBuffer();

    @Test
    void shouldDeliverEachPacketAtItsDueTimeStampedWithThatTime() throws Exception
    {
        try (PacedSource paced = new PacedSource(new IndexedSource(3, 0), PacingRate.of(1_000), 4, clock))
        {
            clock.nowNs = START;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertPacket(0, 0, START);
            clock.nowNs = START + MS / 2;
            assertEquals(PacketSource.NOTHING_YET, paced.poll(dst), "packet 1 is due a millisecond after the start");
            clock.nowNs = START + MS;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertPacket(1, 1, START + MS);
            clock.nowNs = START + 7 * MS;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertPacket(2, 2, START + 2 * MS);
            assertEquals(PacketSource.END, paced.poll(dst));
            assertEquals(0, paced.rxMissed());
            assertEquals(3, paced.offered());
        }
    }

    @Test
    void shouldDropExactlyThePacketsThatArriveWhileTheRingIsFull() throws Exception
    {
        try (PacedSource paced = new PacedSource(new IndexedSource(12, 0), PacingRate.of(1_000), 4, clock))
        {
            clock.nowNs = START;
            paced.poll(dst);
            clock.nowNs = START + MS;
            paced.poll(dst);
            // the reader stalls for 9 ms: packets 2-5 fill the four slots, 6-9 find them full; at 10 ms
            // packet 2 is taken as packet 10 arrives (a take first), so 10 finds a slot
            clock.nowNs = START + 10 * MS;
            final List<Integer> seen = new ArrayList<>();
            final List<Long> ingress = new ArrayList<>();
            while (paced.poll(dst) == PacketSource.PACKET)
            {
                assertEquals(2 + seen.size(), dst.sequence(), "delivered packets are numbered consecutively");
                seen.add(payloadIndex());
                ingress.add(dst.ingressNs());
            }
            assertEquals(List.of(2, 3, 4, 5, 10), seen);
            assertEquals(List.of(START + 2 * MS, START + 3 * MS, START + 4 * MS, START + 5 * MS, START + 10 * MS), ingress,
                "the time a packet waited in the ring is part of its latency");
            assertEquals(4, paced.rxMissed());
            clock.nowNs = START + 11 * MS;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertEquals(11, payloadIndex());
            assertEquals(PacketSource.END, paced.poll(dst));
            assertEquals(12, paced.offered());
            assertEquals(paced.offered(), paced.delivered() + paced.rxMissed());
        }
    }

    @Test
    void shouldMissNothingWhenTheReaderKeepsUp() throws Exception
    {
        try (PacedSource paced = new PacedSource(new IndexedSource(1_000, 0), PacingRate.of(1_000_000), 1, clock))
        {
            clock.nowNs = START;
            int delivered = 0;
            for (int step = 0; step < 2_000_000 && delivered < 1_000; step++)
            {
                final int read = paced.poll(dst);
                if (read == PacketSource.PACKET)
                {
                    assertEquals(START + delivered * 1_000L, dst.ingressNs());
                    delivered++;
                }
                clock.nowNs += 250;
            }
            assertEquals(1_000, delivered);
            assertEquals(0, paced.rxMissed());
        }
    }

    @Test
    void shouldReplayACapturesOwnTimingHoldingTimestampsThatStepBack() throws Exception
    {
        final long[] timestamps = {100 * MS, 103 * MS, 102 * MS, 110 * MS};
        try (PacedSource paced = new PacedSource(new IndexedSource(timestamps), PacingRate.ORIGINAL, 8, clock))
        {
            clock.nowNs = START;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            clock.nowNs = START + 2 * MS;
            assertEquals(PacketSource.NOTHING_YET, paced.poll(dst));
            clock.nowNs = START + 3 * MS;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertEquals(START + 3 * MS, dst.ingressNs());
            assertEquals(PacketSource.PACKET, paced.poll(dst), "stamped earlier than its predecessor: due with it");
            assertEquals(START + 3 * MS, dst.ingressNs());
            assertEquals(102 * MS, dst.timestampNs(), "packet time is the capture's, untouched");
            assertEquals(PacketSource.NOTHING_YET, paced.poll(dst));
            clock.nowNs = START + 10 * MS;
            assertEquals(PacketSource.PACKET, paced.poll(dst));
            assertEquals(3, payloadIndex());
            assertEquals(PacketSource.END, paced.poll(dst));
        }
    }

    @Test
    void shouldRejectARingThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new PacedSource(new IndexedSource(1, 0), PacingRate.of(1), 3, clock));
    }

    @Test
    void shouldParseRatesAndRefuseWhatIsNotOneWithAFix()
    {
        assertTrue(PacingRate.parse("original").original());
        assertEquals(250_000, PacingRate.parse("250000").packetsPerSecond());
        assertEquals(250_000, PacingRate.parse("250k").packetsPerSecond());
        assertEquals(1_500_000, PacingRate.parse("1.5M").packetsPerSecond());
        assertEquals("250000 packets/s", PacingRate.parse("250k").describe());
        for (final String bad : new String[] {"0", "-5", "0k", "fast", "", "NaN", "Infinity", "1e999", "12x"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PacingRate.parse(bad), bad);
            assertTrue(e.getMessage().contains("fix:"), e.getMessage());
        }
        assertFalse(PacingRate.parse("1").original());
    }

    private void assertPacket(final long sequence, final int index, final long ingressNs)
    {
        assertEquals(sequence, dst.sequence());
        assertEquals(index, payloadIndex());
        assertEquals(ingressNs, dst.ingressNs());
    }

    private int payloadIndex()
    {
        return dst.memory().getInt(dst.offset());
    }

    private static final class ManualClock implements LongSupplier
    {
        long nowNs;

        @Override
        public long getAsLong()
        {
            return nowNs;
        }
    }

    /** Frames whose first four bytes are their index in this source, with the given timestamps. */
    private static final class IndexedSource implements PacketSource
    {
        private final long[] timestamps;
        private final SourceStats stats = new SourceStats();
        private int next;

        IndexedSource(final int count, final long firstTimestampNs)
        {
            timestamps = new long[count];
            for (int i = 0; i < count; i++)
            {
                timestamps[i] = firstTimestampNs + i;
            }
        }

        IndexedSource(final long[] timestamps)
        {
            this.timestamps = timestamps.clone();
        }

        @Override
        public boolean next(final PacketBuffer buffer)
        {
            if (next == timestamps.length)
            {
                return false;
            }
            ByteBuffer.wrap(buffer.data()).putInt(0, next);
            buffer.commit(64, 64, timestamps[next], next);
            stats.onPacket(64);
            next++;
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
            return "indexed frames";
        }

        @Override
        public void close()
        {
        }
    }
}
