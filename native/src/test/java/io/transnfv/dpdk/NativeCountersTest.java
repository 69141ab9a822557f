package io.transnfv.dpdk;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NativeCountersTest
{
    @Test
    void shouldPrintThePortsStatisticsAsTestpmdDoes()
    {
        final ByteBuffer memory = ByteBuffer.allocate((NativeCounters.ETH_OBYTES + 1) * 8);
        memory.putLong(NativeCounters.ETH_IPACKETS * 8, 193);
        memory.putLong(NativeCounters.ETH_IMISSED * 8, 2);
        memory.putLong(NativeCounters.ETH_IBYTES * 8, 25_714);
        memory.putLong(NativeCounters.ETH_IERRORS * 8, 1);
        memory.putLong(NativeCounters.ETH_RX_NOMBUF * 8, 3);
        memory.putLong(NativeCounters.ETH_OPACKETS * 8, 120);
        memory.putLong(NativeCounters.ETH_OERRORS * 8, 4);
        memory.putLong(NativeCounters.ETH_OBYTES * 8, 15_980);
        // testpmd's nic_stats_display, byte for byte (without the throughput lines)
        assertEquals(""
            + "  ######################## NIC statistics for port 0  ########################\n"
            + "  RX-packets: 193        RX-missed: 2          RX-bytes:  25714\n"
            + "  RX-errors: 1\n"
            + "  RX-nombuf:  3         \n"
            + "  TX-packets: 120        TX-errors: 4          TX-bytes:  15980\n"
            + "  ############################################################################\n",
            new NativeCounters(memory).nicStatistics(0));
        assertEquals(25_714L, new NativeCounters(memory).toMap().get("port_ibytes"));
        assertEquals(15_980L, new NativeCounters(memory).toMap().get("port_obytes"));
    }
}
