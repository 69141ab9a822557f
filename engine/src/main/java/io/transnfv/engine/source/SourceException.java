package io.transnfv.engine.source;

import java.io.IOException;

/**
 * A source cannot produce packets: an unreadable file header, an unsupported link type,
 * or an I/O error. The message names the source and the byte offset, e.g.
 * {@code malformed-header.pcap: byte 0: not a pcap or pcapng file (magic 0x74686973)}.
 */
public class SourceException extends IOException
{
    private final String sourceName;
    private final long byteOffset;

    /**
     * @param sourceName file name or source description.
     * @param byteOffset offset in the file where the problem is, or -1 if none applies.
     * @param message    what is wrong.
     * @param cause      underlying exception, or null.
     */
    public SourceException(final String sourceName, final long byteOffset, final String message, final Throwable cause)
    {
        super(sourceName + (byteOffset >= 0 ? ": byte " + byteOffset : "") + ": " + message, cause);
        this.sourceName = sourceName;
        this.byteOffset = byteOffset;
    }

    /**
     * @param sourceName file name or source description.
     * @param byteOffset offset in the file where the problem is, or -1 if none applies.
     * @param message    what is wrong.
     */
    public SourceException(final String sourceName, final long byteOffset, final String message)
    {
        this(sourceName, byteOffset, message, null);
    }

    /** @return the file name or source description. */
    public String sourceName()
    {
        return sourceName;
    }

    /** @return the byte offset of the problem, or -1. */
    public long byteOffset()
    {
        return byteOffset;
    }
}
