package io.transnfv.engine.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a source read and what it could not: packets and bytes delivered, and unreadable
 * records counted by cause, with a warning naming the byte offset of each.
 *
 * <p>Written by the source's thread only (the {@code on...} methods); other threads may
 * read the counters for reports, seeing possibly stale values. Warnings are kept up to
 * {@link #MAX_WARNINGS}; later ones are only counted.
 */
public final class SourceStats
{
    /** Most warning messages kept. */
    public static final int MAX_WARNINGS = 100;

    private long packets;
    private long bytes;
    private long truncatedRecords;
    private long badRecordLength;
    private long oversizedFrames;
    private long truncatedFrames;
    private long skippedBlocks;
    private long droppedWarnings;
    private final List<String> warnings = new ArrayList<>();

    /** @return packets delivered. */
    public long packets()
    {
        return packets;
    }

    /** @return captured bytes delivered (after any truncation to the buffer capacity). */
    public long bytes()
    {
        return bytes;
    }

    /** @return records cut off by the end of the file (header or data incomplete). */
    public long truncatedRecords()
    {
        return truncatedRecords;
    }

    /** @return records or blocks with an impossible length field; reading the file stopped there. */
    public long badRecordLength()
    {
        return badRecordLength;
    }

    /** @return frames longer than the packet buffer, delivered truncated to its capacity. */
    public long oversizedFrames()
    {
        return oversizedFrames;
    }

    /**
     * @return frames captured shorter than they were on the wire (a snap length), delivered as
     *         captured: the chain processes them on their headers when those were captured.
     */
    public long truncatedFrames()
    {
        return truncatedFrames;
    }

    /** @return pcapng blocks of unknown or unused types that were skipped (not an error). */
    public long skippedBlocks()
    {
        return skippedBlocks;
    }

    /** @return total unreadable records of every cause. */
    public long unreadableRecords()
    {
        return truncatedRecords + badRecordLength;
    }

    /** @return warnings, each naming the source and byte offset; unmodifiable. */
    public List<String> warnings()
    {
        return Collections.unmodifiableList(warnings);
    }

    /**
     * Count a delivered packet.
     *
     * @param capturedBytes bytes delivered.
     */
    public void onPacket(final int capturedBytes)
    {
        packets++;
        bytes += capturedBytes;
    }

    /** Count a frame truncated to the buffer capacity. */
    public void onOversizedFrame()
    {
        oversizedFrames++;
    }

    /** Count a frame captured shorter than it was on the wire. */
    public void onTruncatedFrame()
    {
        truncatedFrames++;
    }

    /** Count a skipped pcapng block. */
    public void onSkippedBlock()
    {
        skippedBlocks++;
    }

    /**
     * Count a record cut off by the end of the file.
     *
     * @param warning message naming the source and byte offset.
     */
    public void onTruncatedRecord(final String warning)
    {
        truncatedRecords++;
        warn(warning);
    }

    /**
     * Count a record with an impossible length.
     *
     * @param warning message naming the source and byte offset.
     */
    public void onBadRecordLength(final String warning)
    {
        badRecordLength++;
        warn(warning);
    }

    /**
     * Record a warning that is not a counted record (e.g. a timestamp resolution fallback).
     *
     * @param warning message naming the source and byte offset.
     */
    public void warn(final String warning)
    {
        if (warnings.size() < MAX_WARNINGS)
        {
            warnings.add(warning);
        }
        else
        {
            droppedWarnings++;
        }
    }

    @Override
    public String toString()
    {
        return "packets=" + packets + " bytes=" + bytes + " truncatedRecords=" + truncatedRecords +
            " badRecordLength=" + badRecordLength + " oversizedFrames=" + oversizedFrames +
            " truncatedFrames=" + truncatedFrames +
            " skippedBlocks=" + skippedBlocks + " warnings=" + (warnings.size() + droppedWarnings);
    }
}
