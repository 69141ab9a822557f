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
    /**
     * Read the next frame.
     *
     * @param dst buffer to fill; its previous content is overwritten.
     * @return true if a frame was read, false at the end of the stream.
     * @throws SourceException if the source cannot be read at all.
     */
    boolean next(PacketBuffer dst) throws SourceException;

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
