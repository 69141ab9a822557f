package io.transnfv.dpdk;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Settings of the DPDK front end; runs without DPDK. */
class DpdkConfigTest
{
    @Test
    void shouldSplitEalArgumentsOnWhiteSpaceHonouringQuotes()
    {
        assertEquals(List.of("--no-huge", "-m", "256", "--vdev=net_pcap0,rx_pcap=/tmp/a b.pcap", ""),
            DpdkConfig.splitArgs("  --no-huge -m 256\t--vdev='net_pcap0,rx_pcap=/tmp/a b.pcap' \"\" "));
    }

    @Test
    void shouldRejectAnUnbalancedQuote()
    {
        assertThrows(IllegalArgumentException.class, () -> DpdkConfig.splitArgs("--vdev='net_null0"));
    }

    @Test
    void shouldSizeTheRingAboveTwiceWhatTheExecutorHoldsSoItCannotDeadlock()
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS).forBatch(10_000);
        assertTrue(config.ringPackets() >= 2 * (10_000 + 2 * config.burstPackets()), "ring " + config.ringPackets());
        assertEquals(1, Integer.bitCount(config.ringPackets()));
        assertEquals(DpdkConfig.DEFAULT_RING_PACKETS, DpdkConfig.of(DpdkConfig.NO_NIC_ARGS).forBatch(1024).ringPackets());
    }

    @Test
    void shouldRejectARingThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> DpdkConfig.of(DpdkConfig.NO_NIC_ARGS).withRing(3000));
    }

    @Test
    void shouldCountEveryMbufThePortCanHoldInThePool()
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS).withQueues(2, 1);
        assertTrue(config.mbufs() >= config.ringPackets() + 2 * config.rxDescriptors() + config.txDescriptors());
    }

    @Test
    void shouldKeepThePoolAtOneMbufPerPacketWithTheDefaultDataRoom()
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS);
        assertEquals(1, config.mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES));
        assertEquals(4096 + 1024 + 1024 + 2 * 256, config.mbufs(), "ring + rx and tx descriptors + two bursts of slack");
        assertEquals(4096 + 1024 + 1024 + 2 * 256 + 100, config.forBatch(256).withExtraMbufs(100).mbufs());
        assertEquals(5, config.rxMbufsPerPacket(), "a 9216-byte frame in 2048-byte mbufs");
    }

    @Test
    void shouldSizeThePoolForAFullRingOfFullSizeFramesInSmallMbufs()
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS);
        assertEquals(3, config.withDataRoom(512).mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES));
        assertEquals(4096 * 3 + 1024 + 1024 + 2 * 256, config.withDataRoom(512).mbufs());
        assertEquals(6, config.withDataRoom(256).mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES));
        assertEquals(4096 * 6 + 1024 + 1024 + 2 * 256, config.withDataRoom(256).mbufs());
        assertEquals(1, config.withDataRoom(1518).mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES));
        assertEquals(2, config.withDataRoom(1517).mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES));
        assertEquals(36, config.withDataRoom(256).rxMbufsPerPacket());
        assertEquals(1, config.withDataRoom(9216).rxMbufsPerPacket());
    }

    /**
     * The invariant of {@link DpdkConfig#mbufs()}: whatever the executor may hold (up to the
     * ring less two bursts, of full-size frames; or two batches of 256 frames of up to
     * 9216 bytes), the pool still has the mbufs for at least one more packet, so the
     * receiver cannot wait forever for the executor while the executor waits for a packet.
     */
    @Test
    void shouldLeaveTheReceiverMbufsForAnotherPacketWhateverTheExecutorHolds()
    {
        for (final int burst : new int[] {1, 32, 256})
        {
            for (int dataRoom = 256; dataRoom <= 65407; dataRoom++)
            {
                final DpdkConfig config = DpdkConfig.of(DpdkConfig.NO_NIC_ARGS).withBurst(burst).withDataRoom(dataRoom).forBatch(256);
                final long keptByThePort = (long)config.rxQueues() * config.rxDescriptors()
                    + (long)config.txQueues() * config.txDescriptors() + config.extraMbufs();
                final long forPackets = config.mbufs() - keptByThePort;
                final long fullSizeHeld = (long)(config.ringPackets() - 2 * burst) * config.mbufsPerFrame(DpdkConfig.FULL_SIZE_FRAME_BYTES);
                final long jumboHeld = 2L * 256 * config.rxMbufsPerPacket();
                final String what = "data room " + dataRoom + ", burst " + burst + ", " + config.mbufs() + " mbufs";
                assertTrue(forPackets - fullSizeHeld >= config.rxMbufsPerPacket(), what);
                assertTrue(forPackets - jumboHeld >= config.rxMbufsPerPacket(), what);
            }
        }
    }
}
