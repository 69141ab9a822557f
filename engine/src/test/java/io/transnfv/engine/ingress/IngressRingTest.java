package io.transnfv.engine.ingress;

import io.transnfv.engine.source.Generator;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.source.SourceStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class IngressRingTest
{
    @Test
    void shouldDeliverEveryPacketInOrderWithItsBytesAndTimestamp() throws SourceException
    {
        final GeneratorConfig config = GeneratorConfig.parse("packets=50000,seed=11");
        final PacketBuffer direct = new PacketBuffer();
        final PacketBuffer viaRing = new PacketBuffer();
        try (Generator reference = new Generator(config); IngressRing ring = new IngressRing(new Generator(config), 64))
        {
            long n = 0;
            while (reference.next(direct))
            {
                assertTrue(ring.next(viaRing), "packet " + n);
                assertEquals(direct.sequence(), viaRing.sequence());
                assertEquals(direct.timestampNs(), viaRing.timestampNs());
                assertArrayEquals(Arrays.copyOf(direct.data(), direct.length()), Arrays.copyOf(viaRing.data(), viaRing.length()));
                n++;
            }
            assertFalse(ring.next(viaRing));
            assertEquals(50000, n);
            assertEquals(50000, ring.stats().packets());
        }
    }

    @Test
    void shouldRethrowTheSourcesFailureWhereItHappened() throws SourceException
    {
        try (IngressRing ring = new IngressRing(new FailingSource(3), 4))
        {
            final PacketBuffer buffer = new PacketBuffer();
            assertTrue(ring.next(buffer));
            assertTrue(ring.next(buffer));
            assertTrue(ring.next(buffer));
            final SourceException e = assertThrows(SourceException.class, () -> ring.next(buffer));
            assertTrue(e.getMessage().contains("broken at 3"), e.getMessage());
        }
    }

    @Test
    void shouldCloseWhileTheProducerWaitsOnAFullRing() throws SourceException
    {
        final IngressRing ring = new IngressRing(new Generator(GeneratorConfig.parse("packets=1000000")), 8);
        final PacketBuffer buffer = new PacketBuffer();
        assertTrue(ring.next(buffer));
        ring.close();
    }

    private static final class FailingSource implements PacketSource
    {
        private final int failAt;
        private final SourceStats stats = new SourceStats();
        private int n;

        FailingSource(final int failAt)
        {
            this.failAt = failAt;
        }

        @Override
        public boolean next(final PacketBuffer dst) throws SourceException
        {
            if (n == failAt)
            {
                throw new SourceException("failing", 100, "broken at " + n);
            }
            dst.commit(60, 60, n, n);
            n++;
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
            return "failing";
        }

        @Override
        public void close()
        {
        }
    }
}
