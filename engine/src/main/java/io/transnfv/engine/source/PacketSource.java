package io.transnfv.engine.source;

import java.io.Closeable;

/**
 * A stream of frames in arrival order, the order chain output equivalence refers to.
 *
 * <p>Driven by one thread. {@link #next(PacketBuffer)} fills the caller's buffer and
 * assigns consecutive 0-based sequence numbers; it allocates nothing per packet. Records
 * a source cannot read are counted in {@link #stats()} rather than thrown, so a damaged
 * file yields what it can; only an unusable source (e.g. an unreadable file header)
 * throws {@link SourceException}.
 */
public interface PacketSource extends Closeable
{
    /** {@link #poll} result: a frame was read. */
    int PACKET = 1;
    /** {@link #poll} result: no frame is available now (a live port, a paced replay); try again later. */
    int NOTHING_YET = 0;
    /** {@link #poll} result: the stream has ended. */
    int END = -1;

    /**
     * Reads the next frame if one is available now, without waiting for one.
     *
     * @param dst buffer to fill; its previous content is overwritten.
     * @return {@link #PACKET}, {@link #NOTHING_YET} or {@link #END}. The default waits as
     *         {@link #next} does: a file or a generator always has the next frame at hand.
     * @throws SourceException if the source cannot be read at all.
     */
    default int poll(final PacketBuffer dst) throws SourceException
    {
        return next(dst) ? PACKET : END;
    }

    /**
     * Read the next frame.
     *
     * @param dst buffer to fill; its previous content is overwritten.
     * @return true if a frame was read, false at the end of the stream.
     * @throws SourceException if the source cannot be read at all.
     */
    boolean next(PacketBuffer dst) throws SourceException;

    /**
     * @return the longest frame this source gives, in bytes (a reader sizes its buffers by it:
     *         a longer frame is truncated to the buffer and counted as oversized). By default a
     *         jumbo frame, {@link PacketBuffer#DEFAULT_CAPACITY}.
     */
    default int maxFrameBytes()
    {
        return PacketBuffer.DEFAULT_CAPACITY;
    }

    /**
     * @return true if the source is live: it cannot be replayed (a port, not a file or a
     *         generator), so its packet times only come from packets arriving. On a live source
     *         the executors also advance packet time with the wall clock while no packet comes,
     *         so that idle state still expires; on a replayable one packet time is the
     *         packets' alone, which keeps every executor equal to the serial oracle. False by
     *         default.
     */
    default boolean live()
    {
        return false;
    }

    /** @return counters of what was read and what was not. */
    SourceStats stats();

    /** @return a one-line description for reports, e.g. the file and its format. */
    String describe();

    /**
     * Release the source's resources.
     *
     * @throws SourceException if closing fails.
     */
    @Override
    void close() throws SourceException;
}
