package io.transnfv.dpdk;

import java.util.ArrayList;
import java.util.List;

/**
 * Every setting of the DPDK front end, with its default. Immutable; {@code with...}
 * methods return a changed copy.
 *
 * @param ealArgs        EAL arguments (no program name), e.g. {@link #NO_NIC_ARGS} plus a {@code --vdev}.
 * @param port           the port to use: a number, a device name ({@code net_pcap0}), or empty
 *                       for the first port.
 * @param attachDevargs  a virtual device to hot-plug after EAL start-up and detach on close
 *                       (e.g. {@code net_pcap1,rx_pcap=in.pcap,tx_pcap=out.pcap}), or null;
 *                       lets one process use many vdevs although the EAL starts once.
 * @param rxQueues       rx queues, polled round-robin by one receiver thread (arrival order is
 *                       poll order). Default 1.
 * @param txQueues       tx queues configured; the sink uses queue 0. Default 1.
 * @param rxDescriptors  rx ring size per queue (the PMD may adjust it). Default 1024.
 * @param txDescriptors  tx ring size per queue. Default 1024.
 * @param burstPackets   most packets per rx or tx crossing, 1 to 256. Default 32.
 * @param ringPackets    ingress ring size, a power of two: the bound on packets in flight
 *                       between rx and verdict. It must exceed what the executor holds before
 *                       it hands out verdicts (its batch) plus two bursts; see {@link #forBatch}.
 * @param dataRoomBytes  mbuf data room; longer frames arrive as chains of mbufs, which the
 *                       source copies for the engine (the one case that is not zero-copy), and
 *                       the pool grows to hold them (see {@link #mbufs()}). 256-65407, default 2048.
 * @param idleTimeoutNs  end of stream after this long without a packet while the ring had room;
 *                       0 = never (run until closed). Default 0.
 * @param maxPackets     end of stream after this many packets; 0 = no limit.
 * @param extraMbufs     mbufs added to the pool for a PMD that keeps its own (net_pcap's
 *                       {@code infinite_rx} holds the whole file, one mbuf per packet). Default 0.
 */
public record DpdkConfig(
    List<String> ealArgs, String port, String attachDevargs, int rxQueues, int txQueues, int rxDescriptors,
    int txDescriptors, int burstPackets, int ringPackets, int dataRoomBytes, long idleTimeoutNs, long maxPackets,
    int extraMbufs)
{
    /** EAL arguments for a machine without a DPDK NIC or hugepages (add a {@code --vdev}). */
    public static final List<String> NO_NIC_ARGS =
        List.of("--no-huge", "--no-pci", "-m", "256", "--no-shconf", "--no-telemetry", "-l", "0", "--log-level=*:warning");

    /** Default ingress ring size. */
    public static final int DEFAULT_RING_PACKETS = 4096;
    /** Default packets per crossing. */
    public static final int DEFAULT_BURST_PACKETS = 32;
    /** Default mbuf data room: a full-size Ethernet frame fits in one mbuf. */
    public static final int DEFAULT_DATA_ROOM_BYTES = 2048;
    /** A full-size Ethernet frame (1500 bytes of payload, 14 of header, 4 of FCS or VLAN tag): the pool's unit. */
    public static final int FULL_SIZE_FRAME_BYTES = 1518;
    /**
     * The longest frame the receiver counts on: jumbo frames. The C side lowers it to the
     * port's {@code max_rx_pktlen} when that is smaller ({@code TNFV_MAX_FRAME_BYTES}).
     */
    public static final int MAX_FRAME_BYTES = 9216;

    /** Checks the settings. */
    public DpdkConfig
    {
        ealArgs = List.copyOf(ealArgs);
        port = port == null ? "" : port;
        if (rxQueues < 1 || rxQueues > 16 || txQueues < 1 || txQueues > 16)
        {
            throw new IllegalArgumentException("rx and tx queues must be 1-16: " + rxQueues + ", " + txQueues);
        }
        if (burstPackets < 1 || burstPackets > RxDescriptor.MAX_BURST)
        {
            throw new IllegalArgumentException("burst must be 1-" + RxDescriptor.MAX_BURST + ": " + burstPackets);
        }
        if (Integer.bitCount(ringPackets) != 1 || ringPackets < 4 * burstPackets)
        {
            throw new IllegalArgumentException("ring must be a power of two of at least 4 bursts: " + ringPackets);
        }
        if (dataRoomBytes < 256 || dataRoomBytes > 65535 - 128)
        {
            throw new IllegalArgumentException("mbuf data room must be 256-65407 bytes: " + dataRoomBytes);
        }
        if (idleTimeoutNs < 0 || maxPackets < 0 || extraMbufs < 0)
        {
            throw new IllegalArgumentException("idle timeout and packet limit must be >= 0");
        }
    }

    /**
     * @param ealArgs EAL arguments.
     * @return the defaults: first port, one queue each way, bursts of 32, a 4096-packet ring.
     */
    public static DpdkConfig of(final List<String> ealArgs)
    {
        return new DpdkConfig(ealArgs, "", null, 1, 1, 1024, 1024, DEFAULT_BURST_PACKETS, DEFAULT_RING_PACKETS, DEFAULT_DATA_ROOM_BYTES, 0, 0, 0);
    }

    /**
     * @param heldPackets most packets the executor holds before verdicts come out (its
     *                    batch, e.g. the chain's punctuation transactions).
     * @return this config with a ring large enough never to deadlock against such an executor.
     */
    public DpdkConfig forBatch(final int heldPackets)
    {
        final int need = heldPackets + 2 * burstPackets;
        int ring = DEFAULT_RING_PACKETS;
        while (ring < 2 * need)
        {
            ring <<= 1;
        }
        return withRing(ring);
    }

    /** @return a copy using this port (number, device name, or empty for the first). */
    public DpdkConfig withPort(final String newPort)
    {
        return new DpdkConfig(ealArgs, newPort, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy that hot-plugs this vdev and uses it as the port. */
    public DpdkConfig withAttach(final String devargs)
    {
        return new DpdkConfig(ealArgs, port, devargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy with these queue counts. */
    public DpdkConfig withQueues(final int rx, final int tx)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rx, tx, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy with this burst size. */
    public DpdkConfig withBurst(final int packets)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            packets, Math.max(ringPackets, Integer.highestOneBit(Math.max(1, 4 * packets - 1)) << 1),
            dataRoomBytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy with this ring size. */
    public DpdkConfig withRing(final int packets)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, packets, dataRoomBytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy that ends the stream after this long without packets (0 = never). */
    public DpdkConfig withIdleTimeoutNs(final long ns)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, ns, maxPackets, extraMbufs);
    }

    /** @return a copy that ends the stream after this many packets (0 = no limit). */
    public DpdkConfig withMaxPackets(final long packets)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, idleTimeoutNs, packets, extraMbufs);
    }

    /** @return a copy with this mbuf data room (frames longer than it arrive as mbuf chains). */
    public DpdkConfig withDataRoom(final int bytes)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, bytes, idleTimeoutNs, maxPackets, extraMbufs);
    }

    /** @return a copy whose pool has this many more mbufs, for PMDs that keep some. */
    public DpdkConfig withExtraMbufs(final int mbufs)
    {
        return new DpdkConfig(ealArgs, port, attachDevargs, rxQueues, txQueues, rxDescriptors, txDescriptors,
            burstPackets, ringPackets, dataRoomBytes, idleTimeoutNs, maxPackets, mbufs);
    }

    /**
     * The pool's size: a full ring of full-size frames, plus the mbufs the port keeps.
     *
     * <pre>
     *   ring packets × ceil(1518 / data room)   the packets in flight, S mbufs each
     *   + rx queues × rx descriptors           a NIC keeps an mbuf in each rx descriptor
     *   + tx queues × tx descriptors           and in each tx one until it has sent it
     *   + 2 × 256                              slack, from which the rx reserve is met
     *   + extra mbufs                          kept by the PMD (net_pcap's infinite_rx)
     * </pre>
     *
     * <p>S is 1 from a 1518-byte data room up, so at the default 2048 bytes the pool is the
     * per-packet size it always was; at 512 bytes S is 3, at 256 bytes 6.
     *
     * <p>Invariant: the receiver never waits forever for mbufs. Before each burst it asks
     * only for as many packets as the free mbufs hold at M = {@link #rxMbufsPerPacket()} each
     * (at most 36), so it waits only while the engine holds the mbufs, and the engine stops
     * giving them back only when it holds packets it cannot finish without another (its
     * batch). By the ring's contract the executor holds H ≤ ring − 2 × burst packets. If each
     * takes at most S mbufs (any frame up to S × data room ≥ 1518 bytes), at least
     * {@code ring × S + 512 − H × S ≥ 2 × burst × S + 512 > M} mbufs are free: at least one
     * more packet comes in. With longer frames, k mbufs each, this holds while
     * {@code H × k + M ≤ ring × S + 512}: after {@link #forBatch} with batches of up to 292
     * packets (two batches held, a ring of at least 4096; the bundled chains use 256), for
     * every frame up to {@link #MAX_FRAME_BYTES} at every data room, since M ≤ 7 × S. Beyond
     * that (larger batches of mostly jumbo frames in small mbufs) a stall is possible: with
     * an idle timeout it ends the stream and the run report says why; without one the
     * receiver keeps waiting.
     *
     * @return mbufs in the pool.
     */
    int mbufs()
    {
        return ringPackets * mbufsPerFrame(FULL_SIZE_FRAME_BYTES) + rxQueues * rxDescriptors + txQueues * txDescriptors
            + 2 * RxDescriptor.MAX_BURST + extraMbufs;
    }

    /**
     * @return mbufs the receiver keeps free for each packet of a burst:
     *         ceil({@link #MAX_FRAME_BYTES} / data room) (the C side may count on less when
     *         the port's frames are shorter). 1 from a 9216-byte data room up, 5 at 2048, 36 at 256.
     */
    int rxMbufsPerPacket()
    {
        return mbufsPerFrame(MAX_FRAME_BYTES);
    }

    /** @return mbufs a frame of this many bytes takes: ceil(frameBytes / data room). */
    int mbufsPerFrame(final int frameBytes)
    {
        return (frameBytes + dataRoomBytes - 1) / dataRoomBytes;
    }

    /**
     * Split an EAL argument string on white space, honouring single and double quotes.
     *
     * @param text e.g. {@code --no-huge --vdev=net_pcap0,rx_pcap=in.pcap}.
     * @return the arguments.
     */
    public static List<String> splitArgs(final String text)
    {
        final List<String> args = new ArrayList<>();
        final StringBuilder arg = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (quote != 0)
            {
                if (c == quote)
                {
                    quote = 0;
                }
                else
                {
                    arg.append(c);
                }
            }
            else if (c == '\'' || c == '"')
            {
                quote = c;
                any = true;
            }
            else if (Character.isWhitespace(c))
            {
                if (any)
                {
                    args.add(arg.toString());
                    arg.setLength(0);
                    any = false;
                }
            }
            else
            {
                arg.append(c);
                any = true;
            }
        }
        if (quote != 0)
        {
            throw new IllegalArgumentException("unbalanced quote in DPDK arguments: " + text);
        }
        if (any)
        {
            args.add(arg.toString());
        }
        return args;
    }
}
