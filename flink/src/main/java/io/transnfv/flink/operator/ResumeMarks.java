package io.transnfv.flink.operator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;

/**
 * Small files in a run's output directory that time a job, a stop with a savepoint and the resume
 * after it: the reader notes when it read the job's first packet ({@code first-read}, kept across
 * restarts, so that the job's processing time spans its failures), the command asks for a stop at
 * the next read batch ({@code stop-requested}, on a signal), the sequence source notes the batch it
 * has stopped at ({@code paused}: every batch before it emitted, none from it on), and each subtask
 * of a job resumed from a snapshot notes the wall time of the first packet it hands to its engine
 * ({@code resumed/<subtask>}). Times are microseconds since the epoch, so that a stop in one
 * process and a resume in another compare, and so do a reader and engines in separate JVMs. Any
 * thread.
 */
public final class ResumeMarks
{
    private static final String PAUSED = "paused";
    private static final String STOP_REQUESTED = "stop-requested";
    /** Per subtask, its counters, VNF counters, state and latencies at the stop's cut: the summary of a stopped job. */
    public static final String STOPPED = "stopped";
    private static final String RESUMED = "resumed";
    private static final String FIRST_READ = "first-read";

    private ResumeMarks()
    {
    }

    /** @return now, in microseconds since the epoch. */
    public static long nowMicros()
    {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /**
     * Notes that the source has emitted every batch before {@code batch}, and none from it on. A
     * source restarted after a failure notes again, where it stops then.
     */
    static void notePaused(final Path directory, final long batch) throws IOException
    {
        final Path mark = directory.resolve(PAUSED);
        final Path tmp = mark.resolveSibling(PAUSED + ".tmp");
        Files.writeString(tmp, Long.toString(batch), StandardCharsets.US_ASCII);
        Files.move(tmp, mark, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * @return the batch the source stopped at ({@link #notePaused}): the number of read batches
     *         before the stop.
     * @throws IOException if the source has not stopped.
     */
    public static long pausedAtBatch(final Path directory) throws IOException
    {
        return Long.parseLong(Files.readString(directory.resolve(PAUSED), StandardCharsets.US_ASCII).trim());
    }

    /**
     * Keeps subtask {@code subtask}'s end at a cut taken while the source is held (an
     * {@link OutputPart} with only its end), replacing the one of an earlier such cut: the last is
     * the stop's savepoint's.
     */
    static void noteStoppedEnd(final Path directory, final int subtask, final byte[] end) throws IOException
    {
        final Path stopped = Files.createDirectories(directory.resolve(STOPPED));
        final Path mark = stopped.resolve(String.format("%04d.part", subtask));
        final Path tmp = stopped.resolve(String.format("%04d.part.tmp", subtask));
        Files.write(tmp, end);
        Files.move(tmp, mark, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Asks the sequence source to stop at the next batch it would emit (a signal to the command). */
    public static void requestStop(final Path directory) throws IOException
    {
        write(directory.resolve(STOP_REQUESTED));
    }

    /** @return true once a stop at the next batch was asked for ({@link #requestStop}). */
    static boolean stopRequested(final Path directory)
    {
        return Files.exists(directory.resolve(STOP_REQUESTED));
    }

    /** @return true once the source has noted {@link #notePaused}. */
    public static boolean paused(final Path directory)
    {
        return Files.exists(directory.resolve(PAUSED));
    }

    /** Notes that {@code subtask} handed its first packet after a resume to its engine, now. */
    static void noteFirstPacket(final Path directory, final int subtask) throws IOException
    {
        Files.createDirectories(directory.resolve(RESUMED));
        write(directory.resolve(RESUMED).resolve(Integer.toString(subtask)));
    }

    /** @return the earliest first packet after a resume any subtask noted, in epoch microseconds; empty if none did. */
    public static OptionalLong firstPacketMicros(final Path directory) throws IOException
    {
        final Path resumed = directory.resolve(RESUMED);
        if (!Files.isDirectory(resumed))
        {
            return OptionalLong.empty();
        }
        long first = Long.MAX_VALUE;
        try (DirectoryStream<Path> marks = Files.newDirectoryStream(resumed))
        {
            for (final Path mark : marks)
            {
                if (mark.getFileName().toString().endsWith(".tmp"))
                {
                    continue;
                }
                first = Math.min(first, Long.parseLong(Files.readString(mark, StandardCharsets.US_ASCII).trim()));
            }
        }
        return first == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(first);
    }

    /** Notes that the job read its first packet, now; a restarted reader keeps the first attempt's mark. */
    static void noteFirstRead(final Path directory) throws IOException
    {
        write(directory.resolve(FIRST_READ));
    }

    /** @return when the job read its first packet ({@link #noteFirstRead}), in epoch microseconds; empty if it read none. */
    public static OptionalLong firstReadMicros(final Path directory) throws IOException
    {
        final Path mark = directory.resolve(FIRST_READ);
        return Files.exists(mark) ? OptionalLong.of(Long.parseLong(Files.readString(mark, StandardCharsets.US_ASCII).trim()))
            : OptionalLong.empty();
    }

    /** Forgets the marks of a previous segment of the run. */
    public static void clear(final Path directory) throws IOException
    {
        Files.deleteIfExists(directory.resolve(FIRST_READ));
        Files.deleteIfExists(directory.resolve(PAUSED));
        Files.deleteIfExists(directory.resolve(STOP_REQUESTED));
        deleteFiles(directory.resolve(STOPPED));
        deleteFiles(directory.resolve(RESUMED));
    }

    private static void deleteFiles(final Path marks) throws IOException
    {
        if (Files.isDirectory(marks))
        {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(marks))
            {
                for (final Path mark : files)
                {
                    Files.delete(mark);
                }
            }
        }
    }

    private static void write(final Path mark) throws IOException
    {
        if (!Files.exists(mark))
        {
            final Path tmp = mark.resolveSibling(mark.getFileName() + ".tmp");
            Files.writeString(tmp, Long.toString(nowMicros()), StandardCharsets.US_ASCII);
            Files.move(tmp, mark, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
