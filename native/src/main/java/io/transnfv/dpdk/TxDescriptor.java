package io.transnfv.dpdk;

/**
 * Layout of one tx descriptor, written by {@link DpdkSink} for each verdict and read by
 * {@code txBurst0} (mirror of {@code transnfv_dpdk.h}, machine byte order).
 *
 * <pre>
 *   0 mbuf address (u64)   8 frame length (u32)   12 action (u32: 0 drop, 1 forward,
 *                                                               2 release, 3 forward a copy)
 * </pre>
 *
 * <p>For {@link #ACTION_FORWARD_COPY} the first field is the frame's offset in the port's tx
 * staging area ({@link #STAGING_FRAMES} frames of {@link DpdkConfig#MAX_FRAME_BYTES}).
 */
final class TxDescriptor
{
    static final int BYTES = 16;
    static final int MBUF = 0;
    static final int LENGTH = 8;
    static final int ACTION = 12;

    static final int ACTION_DROP = 0;
    static final int ACTION_FORWARD = 1;
    /** Free the mbuf without a verdict: the engine holds a copy of the packet. */
    static final int ACTION_RELEASE = 2;
    /** Transmit the frame staged at the descriptor's offset, in mbufs C allocates. */
    static final int ACTION_FORWARD_COPY = 3;
    static final int STAGING_FRAMES = 16;

    private TxDescriptor()
    {
    }
}
