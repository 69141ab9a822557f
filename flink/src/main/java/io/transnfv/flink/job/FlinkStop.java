package io.transnfv.flink.job;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * A run stopped with a savepoint ({@link FlinkRunner#runUntilStop}): where the savepoint is, and
 * where the run stood, so that {@link FlinkRunner#resume} can go on from it, at the same or
 * another parallelism, into the same output directory. Kept between processes as a small
 * properties file ({@link #write}, {@link #read}).
 *
 * @param savepoint       the savepoint's path, as Flink gave it.
 * @param parallelism     the engines' parallelism of the stopped job.
 * @param packets         packets of the traffic read before the stop (a read batch boundary).
 * @param stoppedAtMicros wall time the stop was asked, in microseconds since the epoch.
 */
public record FlinkStop(String savepoint, int parallelism, long packets, long stoppedAtMicros)
{
    /** Writes the stop to {@code file} (aside, then renamed over it). */
    public void write(final Path file) throws IOException
    {
        final Properties p = new Properties();
        p.setProperty("savepoint", savepoint);
        p.setProperty("parallelism", Integer.toString(parallelism));
        p.setProperty("packets", Long.toString(packets));
        p.setProperty("stopped-at-micros", Long.toString(stoppedAtMicros));
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))
        {
            p.store(out, "a TransNFV run on Flink stopped with a savepoint");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * @return the stop {@link #write} wrote to {@code file}.
     * @throws IOException if the file cannot be read or is no stop.
     */
    public static FlinkStop read(final Path file) throws IOException
    {
        final Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            p.load(in);
        }
        try
        {
            return new FlinkStop(required(p, "savepoint", file), Integer.parseInt(required(p, "parallelism", file)),
                Long.parseLong(required(p, "packets", file)), Long.parseLong(required(p, "stopped-at-micros", file)));
        }
        catch (final NumberFormatException e)
        {
            throw new IOException(file + " is not a stop written by transnfv: " + e.getMessage(), e);
        }
    }

    private static String required(final Properties p, final String key, final Path file) throws IOException
    {
        final String value = p.getProperty(key);
        if (value == null)
        {
            throw new IOException(file + " is not a stop written by transnfv: no '" + key + "'");
        }
        return value;
    }
}
