package io.transnfv.dpdk;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The C side's per-port counters (a u64 array in native memory, {@code enum tnfv_counter}
 * in {@code transnfv_dpdk.h}). Written by the rx and tx crossings; read here off the hot
 * path, possibly a little stale.
 */
public final class NativeCounters
{
    static final int RX_BURSTS = 0;
    static final int RX_EMPTY_POLLS = 1;
    static final int RX_PACKETS = 2;
    static final int RX_BYTES = 3;
    static final int RX_MULTI_SEGMENT = 4;
    static final int TX_BURSTS = 5;
    static final int TX_PACKETS = 6;
    static final int TX_BYTES = 7;
    static final int TX_RETRIES = 8;
    static final int DROP_VERDICT = 9;
    static final int DROP_TX_FULL = 10;
    static final int ETH_IPACKETS = 11;
    static final int ETH_OPACKETS = ETH_IPACKETS + 1;
    static final int ETH_IMISSED = ETH_IPACKETS + 2;
    static final int ETH_IERRORS = ETH_IPACKETS + 3;
    static final int ETH_OERRORS = ETH_IPACKETS + 4;
    static final int ETH_RX_NOMBUF = ETH_IPACKETS + 5;
    static final int RX_POOL_LOW = ETH_RX_NOMBUF + 1;

    static final int HELD_RELEASED = RX_POOL_LOW + 1;
    static final int TX_COPIED = HELD_RELEASED + 1;
    static final int DROP_NO_MBUF = TX_COPIED + 1;
    static final int ETH_IBYTES = DROP_NO_MBUF + 1;
    static final int ETH_OBYTES = ETH_IBYTES + 1;

    private static final int COUNT = ETH_OBYTES + 1;

    private final ByteBuffer counters;
    private long[] frozen;

    NativeCounters(final ByteBuffer counters)
    {
        this.counters = counters;
    }

    long get(final int counter)
    {
        final long[] values = frozen;
        return values != null ? values[counter] : counters.getLong(counter * 8);
    }

    /** Keep the last values: the native memory is freed when the port closes. */
    void freeze()
    {
        final long[] values = new long[COUNT];
        for (int i = 0; i < COUNT; i++)
        {
            values[i] = counters.getLong(i * 8);
        }
        frozen = values;
    }

    /** @return rx crossings that returned packets. */
    public long rxBursts()
    {
        return get(RX_BURSTS);
    }

    /** @return rx crossings that returned no packet. */
    public long rxEmptyPolls()
    {
        return get(RX_EMPTY_POLLS);
    }

    /** @return packets received. */
    public long rxPackets()
    {
        return get(RX_PACKETS);
    }

    /** @return tx crossings. */
    public long txBursts()
    {
        return get(TX_BURSTS);
    }

    /** @return packets the PMD accepted for transmission. */
    public long txPackets()
    {
        return get(TX_PACKETS);
    }

    /** @return packets freed because post-processing dropped them. */
    public long droppedByVerdict()
    {
        return get(DROP_VERDICT);
    }

    /** @return packets freed because the tx queue stayed full through every retry. */
    public long droppedTxFull()
    {
        return get(DROP_TX_FULL);
    }

    /** @return tx bursts the PMD took only in part at first (backpressure from the port). */
    public long txRetries()
    {
        return get(TX_RETRIES);
    }

    /**
     * @return rx polls that asked for fewer packets than they could, or for none, because
     *         the free mbufs could not hold the burst if every frame were as long as the
     *         longest counted on ({@link DpdkConfig#MAX_FRAME_BYTES}): backpressure from the
     *         mbuf pool, the packets wait in the port. Written by the receiver thread.
     */
    public long rxHeldBackPoolLow()
    {
        return get(RX_POOL_LOW);
    }

    /** @return frames longer than one mbuf's data room (chains of mbufs). */
    public long multiSegmentFrames()
    {
        return get(RX_MULTI_SEGMENT);
    }

    /** @return packets the port missed or could not receive (imissed + ierrors + rx_nombuf), at the last snapshot. */
    public long portRxLosses()
    {
        return get(ETH_IMISSED) + get(ETH_IERRORS) + get(ETH_RX_NOMBUF);
    }

    /** @return mbufs freed before their packet's verdict because the engine holds a copy (IP fragments waiting for their first). */
    public long heldReleased()
    {
        return get(HELD_RELEASED);
    }

    /** @return frames transmitted from a copy, in mbufs allocated for them (held IP fragments let go). */
    public long txCopied()
    {
        return get(TX_COPIED);
    }

    /** @return copied frames dropped because the pool had no free mbufs for them. */
    public long droppedNoMbuf()
    {
        return get(DROP_NO_MBUF);
    }

    /**
     * The port's statistics as DPDK's testpmd prints them ({@code show port stats}), for the run
     * summary; the counters are as of the port's last refresh ({@link DpdkPort#refreshCounters()}).
     * testpmd's "since last show" throughput lines are left out: the summary gives the run's rates.
     *
     * <pre>
     *   ######################## NIC statistics for port 0  ########################
     *   RX-packets: 193        RX-missed: 0          RX-bytes:  25714
     *   RX-errors: 0
     *   RX-nombuf:  0
     *   TX-packets: 193        TX-errors: 0          TX-bytes:  25714
     *   ############################################################################
     * </pre>
     *
     * @param port the port's id.
     * @return the block, lines ended by {@code \n}.
     */
    public String nicStatistics(final int port)
    {
        // testpmd's nic_stats_display (app/test-pmd/config.c), its printf formats in Java's
        final String border = "########################";
        return String.format(Locale.ROOT, "  %s NIC statistics for port %-2d %s\n", border, port, border)
            + String.format(Locale.ROOT, "  RX-packets: %-10d RX-missed: %-10d RX-bytes:  %d\n", get(ETH_IPACKETS), get(ETH_IMISSED),
                get(ETH_IBYTES))
            + String.format(Locale.ROOT, "  RX-errors: %d\n", get(ETH_IERRORS))
            + String.format(Locale.ROOT, "  RX-nombuf:  %-10d\n", get(ETH_RX_NOMBUF))
            + String.format(Locale.ROOT, "  TX-packets: %-10d TX-errors: %-10d TX-bytes:  %d\n", get(ETH_OPACKETS), get(ETH_OERRORS),
                get(ETH_OBYTES))
            + "  " + border + "############################" + border + "\n";
    }

    /** @return every counter by name, for reports. */
    public Map<String, Long> toMap()
    {
        final Map<String, Long> m = new LinkedHashMap<>();
        m.put("rx_bursts", get(RX_BURSTS));
        m.put("rx_empty_polls", get(RX_EMPTY_POLLS));
        m.put("rx_packets", get(RX_PACKETS));
        m.put("rx_bytes", get(RX_BYTES));
        m.put("rx_multi_segment", get(RX_MULTI_SEGMENT));
        m.put("rx_held_back_pool_low", get(RX_POOL_LOW));
        m.put("tx_bursts", get(TX_BURSTS));
        m.put("tx_packets", get(TX_PACKETS));
        m.put("tx_bytes", get(TX_BYTES));
        m.put("tx_retries", get(TX_RETRIES));
        m.put("drop_verdict", get(DROP_VERDICT));
        m.put("drop_tx_full", get(DROP_TX_FULL));
        m.put("held_released", get(HELD_RELEASED));
        m.put("tx_copied", get(TX_COPIED));
        m.put("drop_no_mbuf", get(DROP_NO_MBUF));
        m.put("port_ipackets", get(ETH_IPACKETS));
        m.put("port_opackets", get(ETH_OPACKETS));
        m.put("port_imissed", get(ETH_IMISSED));
        m.put("port_ierrors", get(ETH_IERRORS));
        m.put("port_oerrors", get(ETH_OERRORS));
        m.put("port_rx_nombuf", get(ETH_RX_NOMBUF));
        m.put("port_ibytes", get(ETH_IBYTES));
        m.put("port_obytes", get(ETH_OBYTES));
        return m;
    }
}
