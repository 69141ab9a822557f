package io.transnfv.dpdk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The JNI binding to {@code libtransnfv_dpdk.so}, in the shape of Netty's epoll
 * {@code Native}: each {@code private static native ...0} returns a negative errno on
 * failure, and its wrapper turns that into a {@link DpdkException} carrying
 * {@code rte_strerror}'s text.
 *
 * <p>The EAL is process-global: {@link #initEal} runs once per process (DPDK cannot
 * initialise it twice); later calls with the same arguments return at once, with other
 * arguments they fail. The rx and tx crossings are one call per burst; the set-up calls
 * may be made by any thread, one at a time.
 */
public final class Dpdk
{
    private static final String UNAVAILABLE_REASON = NativeLibrary.load();
    private static List<String> ealArgs;

    private Dpdk()
    {
    }

    /** @return true when the native library is loaded and DPDK can be used. */
    public static boolean isAvailable()
    {
        return UNAVAILABLE_REASON == null;
    }

    /** @return why DPDK cannot be used, or null when it can. */
    public static String unavailableReason()
    {
        return UNAVAILABLE_REASON;
    }

    /** @throws DpdkException saying "DPDK unavailable: why" when the library is not loaded. */
    public static void ensureAvailable() throws DpdkException
    {
        if (UNAVAILABLE_REASON != null)
        {
            throw new DpdkException("DPDK unavailable", 0, UNAVAILABLE_REASON);
        }
    }

    /**
     * Initialise the EAL with these arguments (without a program name), once per process.
     * The calling thread keeps its CPU affinity (EAL would pin it to one CPU).
     *
     * @param args EAL arguments, e.g. {@code --no-huge --no-pci -m 256 --vdev=net_null0}.
     * @throws DpdkException if DPDK is unavailable, the EAL fails, or it was initialised
     *                       before with other arguments.
     */
    public static synchronized void initEal(final List<String> args) throws DpdkException
    {
        ensureAvailable();
        if (ealArgs != null)
        {
            if (ealArgs.equals(args))
            {
                return;
            }
            throw new DpdkException("rte_eal_init", 0, "the EAL is already initialised in this process with "
                + ealArgs + " and initialises only once; cannot use " + args);
        }
        final int ret = ealInit0(args.toArray(new String[0]));
        if (ret < 0)
        {
            throw error("rte_eal_init " + args + " (see the EAL log on stderr)", ret);
        }
        ealArgs = List.copyOf(args);
    }

    /** @return the EAL arguments in force, or null before {@link #initEal}. */
    public static synchronized List<String> ealArgs()
    {
        return ealArgs;
    }

    /** @return the error's meaning according to DPDK ({@code rte_strerror}). */
    public static String strerror(final int errno)
    {
        return isAvailable() ? strerror0(errno) : "errno " + errno;
    }

    static DpdkException error(final String operation, final int ret)
    {
        return new DpdkException(operation, -ret, strerror0(-ret));
    }

    static int check(final int ret, final String operation) throws DpdkException
    {
        if (ret < 0)
        {
            throw error(operation, ret);
        }
        return ret;
    }

    static int portCount()
    {
        return portCount0();
    }

    static int attach(final String devargs) throws DpdkException
    {
        return check(attach0(devargs), "rte_dev_probe(" + devargs + ") (the driver's reason is in the EAL log on stderr)");
    }

    static int portByName(final String name) throws DpdkException
    {
        return check(portByName0(name), "rte_eth_dev_get_port_by_name(" + name + ")");
    }

    static String driverName(final int port)
    {
        return driverName0(port);
    }

    static void portSetUp(final int port, final int rxQueues, final int txQueues, final int rxDescriptors,
        final int txDescriptors, final int mbufs, final int dataRoomBytes) throws DpdkException
    {
        check(portSetUp0(port, rxQueues, txQueues, rxDescriptors, txDescriptors, mbufs, dataRoomBytes),
            "set up port " + port + " (" + rxQueues + " rx / " + txQueues + " tx queues, " + mbufs + " mbufs)");
    }

    static ByteBuffer poolWindow(final int port)
    {
        return poolWindow0(port).order(ByteOrder.nativeOrder());
    }

    /** @return {window base address, offsets of buf_addr, data_off, data_len, next in rte_mbuf}. */
    static long[] mbufLayout(final int port)
    {
        return mbufLayout0(port);
    }

    static ByteBuffer rxDescriptors(final int port, final int queue)
    {
        return rxDescriptors0(port, queue).order(ByteOrder.nativeOrder());
    }

    static ByteBuffer txDescriptors(final int port)
    {
        return txDescriptors0(port).order(ByteOrder.nativeOrder());
    }

    static ByteBuffer txStaging(final int port)
    {
        return txStaging0(port);
    }

    static ByteBuffer counters(final int port)
    {
        return counters0(port).order(ByteOrder.nativeOrder());
    }

    static void ethStats(final int port) throws DpdkException
    {
        check(ethStats0(port), "rte_eth_stats_get(port " + port + ")");
    }

    static void portClose(final int port, final boolean detach) throws DpdkException
    {
        check(portClose0(port, detach), "close port " + port);
    }

    /**
     * Receive up to {@code max} packets from one rx queue and describe them in that
     * queue's {@link RxDescriptor} buffer. One JNI crossing per burst.
     */
    static int rxBurst(final int port, final int queue, final int max) throws DpdkException
    {
        final int n = rxBurst0(port, queue, max);
        if (n < 0)
        {
            throw error("rx burst (port " + port + ", queue " + queue + ")", n);
        }
        return n;
    }

    /**
     * Apply the first {@code count} {@link TxDescriptor}s: free the drops, transmit the
     * forwards. One JNI crossing per burst.
     *
     * @return packets the PMD accepted.
     */
    static int txBurst(final int port, final int queue, final int count) throws DpdkException
    {
        final int n = txBurst0(port, queue, count);
        if (n < 0)
        {
            throw error("tx burst (port " + port + ", queue " + queue + ")", n);
        }
        return n;
    }

    private static native int ealInit0(String[] args);

    private static native String strerror0(int errno);

    private static native int portCount0();

    private static native int attach0(String devargs);

    private static native int portByName0(String name);

    private static native String driverName0(int port);

    private static native int portSetUp0(int port, int rxQueues, int txQueues, int rxDescriptors, int txDescriptors,
        int mbufs, int dataRoomBytes);

    private static native ByteBuffer poolWindow0(int port);

    private static native long[] mbufLayout0(int port);

    private static native ByteBuffer rxDescriptors0(int port, int queue);

    private static native ByteBuffer txDescriptors0(int port);

    private static native ByteBuffer txStaging0(int port);

    private static native ByteBuffer counters0(int port);

    private static native int ethStats0(int port);

    private static native int portClose0(int port, boolean detach);

    private static native int rxBurst0(int port, int queue, int max);

    private static native int txBurst0(int port, int queue, int count);
}
