package io.transnfv.dpdk;

/**
 * Layout of one rx descriptor, written by {@code rxBurst0} for each received packet into
 * the rx queue's direct buffer (mirror of {@code transnfv_dpdk.h}, machine byte order).
 * It describes where the frame is, not what is in it: the packet view parses the frame.
 *
 * <pre>
 *   0 mbuf address (u64)          8 data offset in the pool window (u64)
 *  16 timestamp ns (u64)         24 data length (u32)   28 packet length (u32)
 *  32..39 reserved               40 segments (u16)      44 rss hash (u32)  48 flags (u32)
 * </pre>
 */
final class RxDescriptor
{
    static final int BYTES = 64;
    static final int MBUF = 0;
    static final int DATA_OFFSET = 8;
    static final int TIMESTAMP_NS = 16;
    static final int DATA_LENGTH = 24;
    static final int PACKET_LENGTH = 28;
    static final int SEGMENTS = 40;
    static final int RSS_HASH = 44;
    static final int FLAGS = 48;

    /** Flag: the PMD stamped the packet (else the timestamp is the wall clock at the burst). */
    static final int FLAG_PMD_TIME = 0x20;

    /** Most packets one burst may carry (the C side's {@code TNFV_MAX_BURST}). */
    static final int MAX_BURST = 256;

    private RxDescriptor()
    {
    }
}
