package io.transnfv.dpdk;

import java.nio.ByteBuffer;

/**
 * Reads and writes the data of a chain of mbufs (a frame longer than one mbuf's data
 * room) through the pool window, following {@code next} pointers with the field offsets
 * the C side reported. The slow path of {@link DpdkSource} and {@link DpdkSink}; used by
 * the engine's thread only.
 */
final class MbufChain
{
    private final ByteBuffer window;
    private final long base;
    private final int bufAddrOffset;
    private final int dataOffOffset;
    private final int dataLenOffset;
    private final int nextOffset;

    /** @param layout {window base, offsets of buf_addr, data_off, data_len, next}. */
    MbufChain(final ByteBuffer window, final long[] layout)
    {
        this.window = window;
        this.base = layout[0];
        this.bufAddrOffset = (int)layout[1];
        this.dataOffOffset = (int)layout[2];
        this.dataLenOffset = (int)layout[3];
        this.nextOffset = (int)layout[4];
    }

    /** @return bytes of the chain copied into {@code dst}, at most {@code max}. */
    int copyOut(final long mbuf, final byte[] dst, final int max)
    {
        int copied = 0;
        for (long m = mbuf; m != 0 && copied < max; m = window.getLong((int)(m - base) + nextOffset))
        {
            final int n = Math.min(segmentLength(m), max - copied);
            window.get(segmentData(m), dst, copied, n);
            copied += n;
        }
        return copied;
    }

    /** Overwrite the chain's data with {@code length} bytes of {@code src} from index {@code from}. */
    void copyIn(final long mbuf, final ByteBuffer src, final int from, final int length)
    {
        int copied = 0;
        for (long m = mbuf; m != 0 && copied < length; m = window.getLong((int)(m - base) + nextOffset))
        {
            final int n = Math.min(segmentLength(m), length - copied);
            window.put(segmentData(m), src, from + copied, n);
            copied += n;
        }
    }

    private int segmentLength(final long m)
    {
        return window.getShort((int)(m - base) + dataLenOffset) & 0xFFFF;
    }

    private int segmentData(final long m)
    {
        final int at = (int)(m - base);
        return (int)(window.getLong(at + bufAddrOffset) - base) + (window.getShort(at + dataOffOffset) & 0xFFFF);
    }
}
