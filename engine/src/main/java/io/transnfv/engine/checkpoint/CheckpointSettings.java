package io.transnfv.engine.checkpoint;

import java.nio.file.Path;
import java.util.Objects;

/**
 * When and where checkpoints are taken. Exactly one of the two intervals is set: a checkpoint
 * every {@code everyBatches} batches, or at the first batch boundary after each multiple of
 * {@code everyPacketTimeNs} of packet time.
 *
 * @param directory         where the checkpoint files go.
 * @param everyBatches      batches between checkpoints, or 0 when the interval is in packet time.
 * @param everyPacketTimeNs packet time between checkpoints, or 0 when the interval is in batches.
 * @param fullEvery         every {@code fullEvery}-th checkpoint is full, the others hold only the
 *                          keys changed since the previous one; 1 makes every checkpoint full.
 */
public record CheckpointSettings(Path directory, long everyBatches, long everyPacketTimeNs, int fullEvery)
{
    /** Default interval: every {@value} batches. */
    public static final long DEFAULT_EVERY_BATCHES = 400;
    /** Default: every {@value}-th checkpoint is full. */
    public static final int DEFAULT_FULL_EVERY = 10;

    /** Checks the settings. */
    public CheckpointSettings
    {
        Objects.requireNonNull(directory, "directory");
        if (everyBatches < 0 || everyPacketTimeNs < 0 || (everyBatches == 0) == (everyPacketTimeNs == 0))
        {
            throw new IllegalArgumentException("a checkpoint interval needs exactly one of batches and packet time, got "
                + everyBatches + " batches and " + everyPacketTimeNs + " ns");
        }
        if (fullEvery < 1)
        {
            throw new IllegalArgumentException("full checkpoints every " + fullEvery + " checkpoints: must be >= 1");
        }
    }

    /**
     * Parses an interval: a number of batches ({@code 100}) or a duration of packet time with a
     * unit ({@code 500ms}, {@code 2s}, {@code 250us}).
     *
     * @return {@code {batches, packetTimeNs}}, one of them 0.
     * @throws IllegalArgumentException with a sentence and a {@code fix:} line if it is neither.
     */
    public static long[] parseInterval(final String text)
    {
        final String s = text.trim();
        final String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        try
        {
            for (int u = 0; u < units.length; u++)
            {
                if (s.endsWith(units[u][0]) && !(u == 3 && (s.endsWith("ns") || s.endsWith("us") || s.endsWith("ms"))))
                {
                    final long n = Long.parseLong(s.substring(0, s.length() - units[u][0].length()).trim());
                    if (n > 0)
                    {
                        return new long[] {0, Math.multiplyExact(n, Long.parseLong(units[u][1]))};
                    }
                    throw new NumberFormatException();
                }
            }
            final long batches = Long.parseLong(s);
            if (batches > 0)
            {
                return new long[] {batches, 0};
            }
        }
        catch (final NumberFormatException | ArithmeticException e)
        {
            // falls through to the message below
        }
        throw new IllegalArgumentException("checkpoint interval '" + text + "' is neither a number of batches nor a duration\n"
            + "fix: e.g. 100 (every 100 batches) or 500ms (every 500 ms of packet time)");
    }
}
