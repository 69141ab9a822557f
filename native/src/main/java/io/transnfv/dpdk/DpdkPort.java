package io.transnfv.dpdk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One started DPDK ethdev port with its mbuf pool: the EAL initialised if need be, the
 * port attached (hot-plugged vdev) or found, configured with its rx/tx queues and
 * started. Holds the direct buffers shared with C: the pool window (the mbufs' memory,
 * where frames are read and rewritten in place), the per-queue rx descriptors, the tx
 * descriptors and the counters.
 *
 * <p>The pool window comes in two byte orders over the same memory: {@link #window()} in
 * the machine's order, for the mbuf fields C lays out, and {@link #frames()} in network
 * order, the memory the engine's packet buffers are attached to.
 *
 * <p>Opened and closed by one thread; the queues' buffers then belong to the threads that
 * drive them (rx: the receiver; tx: the sink).
 */
public final class DpdkPort implements AutoCloseable
{
    private final DpdkConfig config;
    private final int port;
    private final boolean attached;
    private final String driver;
    private final ByteBuffer window;
    private final ByteBuffer frames;
    private final ByteBuffer[] rxDescriptors;
    private final ByteBuffer txDescriptors;
    private final ByteBuffer txStaging;
    private final NativeCounters counters;
    private final MbufChain chains;
    private boolean closed;

    private DpdkPort(final DpdkConfig config, final int port, final boolean attached)
    {
        this.config = config;
        this.port = port;
        this.attached = attached;
        this.driver = Dpdk.driverName(port);
        this.window = Dpdk.poolWindow(port);
        this.frames = window.duplicate().order(ByteOrder.BIG_ENDIAN);
        this.rxDescriptors = new ByteBuffer[config.rxQueues()];
        for (int q = 0; q < rxDescriptors.length; q++)
        {
            rxDescriptors[q] = Dpdk.rxDescriptors(port, q);
        }
        this.txDescriptors = Dpdk.txDescriptors(port);
        this.txStaging = Dpdk.txStaging(port);
        this.counters = new NativeCounters(Dpdk.counters(port));
        this.chains = new MbufChain(window, Dpdk.mbufLayout(port));
    }

    /**
     * Start the EAL (first time in the process), attach or find the port, set it up and start it.
     *
     * @param config the settings.
     * @return the started port.
     * @throws DpdkException if DPDK is unavailable or any step fails, with DPDK's error text.
     */
    public static DpdkPort open(final DpdkConfig config) throws DpdkException
    {
        Dpdk.initEal(config.ealArgs());
        final boolean attach = config.attachDevargs() != null;
        final int port;
        if (attach)
        {
            port = Dpdk.attach(config.attachDevargs());
        }
        else if (config.port().isEmpty())
        {
            if (Dpdk.portCount() == 0)
            {
                throw new DpdkException("find a port", 0, "DPDK has no port: give a --vdev (e.g. --vdev=net_pcap0,"
                    + "rx_pcap=in.pcap,tx_pcap=out.pcap) or bind a NIC to a DPDK driver (see the EAL log on stderr "
                    + "for devices that failed to probe)");
            }
            port = 0;
        }
        else if (config.port().chars().allMatch(Character::isDigit))
        {
            port = Integer.parseInt(config.port());
        }
        else
        {
            port = Dpdk.portByName(config.port());
        }
        try
        {
            Dpdk.portSetUp(port, config.rxQueues(), config.txQueues(), config.rxDescriptors(), config.txDescriptors(),
                config.mbufs(), config.dataRoomBytes());
        }
        catch (final DpdkException e)
        {
            if (attach)
            {
                try
                {
                    Dpdk.portClose(port, true);
                }
                catch (final DpdkException suppressed)
                {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return new DpdkPort(config, port, attach);
    }

    /** @return the settings. */
    public DpdkConfig config()
    {
        return config;
    }

    /** @return the ethdev port id. */
    public int id()
    {
        return port;
    }

    /** @return the PMD's name, e.g. {@code net_pcap}. */
    public String driver()
    {
        return driver;
    }

    /** @return the C side's counters. */
    public NativeCounters counters()
    {
        return counters;
    }

    /** @return the port's counters refreshed from {@code rte_eth_stats_get}. */
    public NativeCounters refreshCounters() throws DpdkException
    {
        if (!closed)
        {
            Dpdk.ethStats(port);
        }
        return counters;
    }

    ByteBuffer window()
    {
        return window;
    }

    ByteBuffer frames()
    {
        return frames;
    }

    MbufChain chains()
    {
        return chains;
    }

    ByteBuffer rxDescriptors(final int queue)
    {
        return rxDescriptors[queue];
    }

    ByteBuffer txDescriptors()
    {
        return txDescriptors;
    }

    /** @return where the sink puts frames C transmits from a copy ({@link TxDescriptor#ACTION_FORWARD_COPY}). */
    ByteBuffer txStaging()
    {
        return txStaging;
    }

    /**
     * Stop and close the port (a pcap vdev writes out its tx file here), detach it if it was
     * hot-plugged, and free the pool. Every mbuf still in flight is freed with the pool.
     */
    @Override
    public void close() throws DpdkException
    {
        if (!closed)
        {
            closed = true;
            counters.freeze();
            Dpdk.portClose(port, attached);
        }
    }
}
