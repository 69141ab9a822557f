package io.transnfv.dpdk;

/**
 * Layout of one tx descriptor, written by {@link DpdkSink} for each verdict and read by
 * {@code txBurst0} (mirror of {@code transnfv_dpdk.h}, machine byte order).
 *
 * <pre>
 *   0 mbuf address (u64)   8 frame length (u32)   12 action (u32: 0 drop, 1 forward)
 * </pre>
 */
final class TxDescriptor
{
    static final int BYTES = 16;
    static final int MBUF = 0;
    static final int LENGTH = 8;
    static final int ACTION = 12;

    static final int ACTION_DROP = 0;
    static final int ACTION_FORWARD = 1;

    private TxDescriptor()
    {
    }
}
