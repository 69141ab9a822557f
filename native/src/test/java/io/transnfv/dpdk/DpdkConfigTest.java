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
}
