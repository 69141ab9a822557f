package io.transnfv.engine.source;

/**
 * A reusable holder for one captured frame: the bytes, their capture length, the
 * frame's length on the wire, its timestamp and its arrival index.
 *
 * <p>The capacity is fixed at construction (a power of two, at least {@link #MIN_CAPACITY});
 * a source truncates longer frames to the capacity, counts them in
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
    private int length;
    private int originalLength;
    private long timestampNs;
    private long sequence;

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
    }

    /** @return the backing array; the frame occupies {@code [0, length())}. */
    public byte[] data()
    {
        return data;
    }

    /** @return the array's length. */
    public int capacity()
    {
        return data.length;
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
     * Describe the frame now held in {@link #data()}. Called by the filling source.
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
        this.length = length;
        this.originalLength = Math.max(length, originalLength);
        this.timestampNs = timestampNs;
        this.sequence = sequence;
    }
}
