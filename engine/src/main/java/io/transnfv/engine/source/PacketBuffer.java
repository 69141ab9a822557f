package io.transnfv.engine.source;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.transnfv.vnf.packet.LinkType;

/**
 * A reusable holder for one captured frame: the bytes, their capture length, the
 * frame's length on the wire, its timestamp and its arrival index.
 *
 * <p>The frame is in one of two places:
 *
 * <pre>
 *  owned     memory() = the buffer over data(), offset() = 0     a source copied the frame in (commit)
 *  attached  memory() = a region outside,   offset() = where     a source lent its memory (attach),
 *                                                                 e.g. a DPDK mbuf: no copy at all
 * </pre>
 *
 * Readers use {@link #memory()}, {@link #offset()} and {@link #length()} (or
 * {@link #copyTo}), which hold for both; {@link #data()} is only where a source copies a
 * frame in before {@link #commit}. An attached region stays the lender's: it is valid until
 * the lender takes it back (for DPDK, when the packet's verdict is applied), and nothing may
 * read or write it after that.
 *
 * <p>The capacity of the owned array is fixed at construction (a power of two, at least
 * {@link #MIN_CAPACITY}); a source truncates longer frames to the capacity, counts them in
 * {@link SourceStats#oversizedFrames()} and keeps the true length in
 * {@link #originalLength()}. Owned by one thread at a time; the source that fills it and
 * the stage that reads it hand it over through the ingress ring.
 */
public final class PacketBuffer
{
    /** Smallest capacity accepted: a full-size Ethernet frame fits. */
    public static final int MIN_CAPACITY = 2048;
    /** Default capacity: jumbo frames up to 16 KiB. */
    public static final int DEFAULT_CAPACITY = 16 * 1024;

    private final byte[] data;
    private final ByteBuffer owned;
    private ByteBuffer memory;
    private int offset;
    private int length;
    private int originalLength;
    private long timestampNs;
    private long sequence;
    private long ingressNs;
    private int linkType = LinkType.ETHERNET;

    /** Create a buffer of {@link #DEFAULT_CAPACITY} bytes. */
    public PacketBuffer()
    {
        this(DEFAULT_CAPACITY);
    }

    /**
     * @param capacity bytes; a power of two, at least {@link #MIN_CAPACITY}.
     * @throws IllegalArgumentException otherwise.
     */
    public PacketBuffer(final int capacity)
    {
        if (capacity < MIN_CAPACITY || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two >= " + MIN_CAPACITY + ", got " + capacity);
        }
        data = new byte[capacity];
        owned = ByteBuffer.wrap(data);
        memory = owned;
    }

    /**
     * @return the array this buffer owns, where a source copies a frame in before
     *         {@link #commit}; it holds the current frame only when {@link #isAttached()} is false.
     */
    public byte[] data()
    {
        return data;
    }

    /** @return the owned array's length: the longest frame a source copies in, and attaches. */
    public int capacity()
    {
        return data.length;
    }

    /**
     * @return the memory holding the frame, at {@code [offset(), offset() + length())}: a
     *         big-endian heap buffer over {@link #data()}, or the attached region. Read it with
     *         absolute accesses only; its position and limit belong to whoever made it.
     */
    public ByteBuffer memory()
    {
        return memory;
    }

    /** @return index of the frame's first byte in {@link #memory()}; 0 unless attached. */
    public int offset()
    {
        return offset;
    }

    /** @return true if the frame is in a region the source lent ({@link #attach}), not in {@link #data()}. */
    public boolean isAttached()
    {
        return memory != owned;
    }

    /** @return captured bytes held, at most {@link #capacity()}. */
    public int length()
    {
        return length;
    }

    /** @return the frame's length on the wire; at least {@link #length()}. */
    public int originalLength()
    {
        return originalLength;
    }

    /**
     * @return the frame's link layer ({@link LinkType}): {@link LinkType#ETHERNET} unless the
     *         source said otherwise after {@link #commit} or {@link #attach}.
     */
    public int linkType()
    {
        return linkType;
    }

    /**
     * Sets the frame's link layer, after {@link #commit} or {@link #attach} (which reset it to
     * Ethernet): a capture's link type other than Ethernet.
     *
     * @param linkType a type {@link LinkType#isSupported} accepts.
     * @throws IllegalArgumentException otherwise.
     */
    public void linkType(final int linkType)
    {
        if (!LinkType.isSupported(linkType))
        {
            throw new IllegalArgumentException("unsupported link type " + linkType);
        }
        this.linkType = linkType;
    }

    /** @return true if fewer bytes were captured than the frame had (snap length or capacity). */
    public boolean isTruncated()
    {
        return length < originalLength;
    }

    /** @return capture timestamp in nanoseconds since the Unix epoch, as the source recorded it. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @return 0-based arrival index assigned by the source. */
    public long sequence()
    {
        return sequence;
    }

    /**
     * Describe the frame now held in {@link #data()}, which the filling source just copied
     * there. Ends any attachment.
     *
     * @param length         captured bytes, 0 to {@link #capacity()}.
     * @param originalLength bytes on the wire; raised to {@code length} if smaller.
     * @param timestampNs    capture time in nanoseconds.
     * @param sequence       arrival index.
     */
    public void commit(final int length, final int originalLength, final long timestampNs, final long sequence)
    {
        if (length < 0 || length > data.length)
        {
            throw new IllegalArgumentException("length " + length + " outside 0-" + data.length);
        }
        this.memory = owned;
        this.offset = 0;
        this.length = length;
        this.originalLength = Math.max(length, originalLength);
        this.timestampNs = timestampNs;
        this.sequence = sequence;
        this.ingressNs = 0;
        this.linkType = LinkType.ETHERNET;
    }

    /**
     * Hold a frame that stays where the source has it, without copying: a view over
     * {@code region} that the stages read and rewrite in place. Called by the filling source,
     * which keeps the region valid until the packet's verdict has been applied.
     *
     * @param region         memory holding the frame; kept by reference, its state untouched.
     * @param offset         index of the frame's first byte in {@code region}.
     * @param length         captured bytes, 0 to {@link #capacity()}; the frame must lie below
     *                       the region's limit.
     * @param originalLength bytes on the wire; raised to {@code length} if smaller.
     * @param timestampNs    capture time in nanoseconds.
     * @param sequence       arrival index.
     */
    public void attach(final ByteBuffer region, final int offset, final int length, final int originalLength,
        final long timestampNs, final long sequence)
    {
        if (length < 0 || length > data.length)
        {
            throw new IllegalArgumentException("length " + length + " outside 0-" + data.length);
        }
        Objects.checkFromIndexSize(offset, length, region.limit());
        this.memory = region;
        this.offset = offset;
        this.length = length;
        this.originalLength = Math.max(length, originalLength);
        this.timestampNs = timestampNs;
        this.sequence = sequence;
        this.ingressNs = 0;
        this.linkType = LinkType.ETHERNET;
    }

    /**
     * @return the wall-clock time ({@link System#nanoTime()}) at which the frame was handed over
     *         to the engine, for latency: set by a source that knows it (a paced replay: the
     *         packet's scheduled arrival), else 0 and the reader stamps sampled packets itself.
     */
    public long ingressNs()
    {
        return ingressNs;
    }

    /**
     * Gives the frame a new arrival index, after commit or attach: a source that passes on only
     * some of another source's frames (a paced replay that drops at ingress) numbers what it
     * delivers consecutively again.
     *
     * @param sequence the 0-based arrival index among the frames delivered.
     */
    public void sequence(final long sequence)
    {
        this.sequence = sequence;
    }

    /** Sets the wall-clock hand-over time (see {@link #ingressNs()}); after commit or attach. */
    public void ingressNs(final long ingressNs)
    {
        this.ingressNs = ingressNs;
    }

    /**
     * Become a copy of {@code from}'s frame (truncated to this buffer's capacity), with its
     * original length, timestamp, sequence and link type; the ingress time is not copied.
     */
    public void copyFrom(final PacketBuffer from)
    {
        final int n = Math.min(from.length(), data.length);
        from.copyTo(data, 0, n);
        commit(n, from.originalLength(), from.timestampNs(), from.sequence());
        linkType = from.linkType;
    }

    /**
     * Copy the frame's first bytes out, from wherever it is.
     *
     * @param dst       where to copy to.
     * @param dstOffset index in {@code dst} of the first byte written.
     * @param count     bytes to copy, at most {@link #length()}.
     * @throws IndexOutOfBoundsException if {@code count} exceeds the frame or {@code dst}.
     */
    public void copyTo(final byte[] dst, final int dstOffset, final int count)
    {
        Objects.checkFromIndexSize(0, count, length);
        if (memory == owned)
        {
            System.arraycopy(data, 0, dst, dstOffset, count);
        }
        else
        {
            memory.get(offset, dst, dstOffset, count);
        }
    }
}
