package io.transnfv.engine.checkpoint;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A UTF-8 text file of lines (the per-packet records) that checkpoints commit: created empty, or
 * reopened for a resumed run and truncated back to the length the checkpoint committed. Counts
 * the lines written. One thread.
 */
public final class CommittedTextFile extends Writer implements CommittedOutput
{
    private final String name;
    private final FileChannel channel;
    private final Writer out;
    private long lines;

    private CommittedTextFile(final String name, final FileChannel channel, final long lines)
    {
        this.name = name;
        this.channel = channel;
        this.out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel), StandardCharsets.UTF_8), 1 << 16);
        this.lines = lines;
    }

    /**
     * Opens {@code file} for a run: empty for a fresh run, cut back to {@code from} for a resumed one.
     *
     * @param name what the file is, as the checkpoint names it (e.g. {@code records}).
     * @param from the committed position to continue at, or null to start empty.
     * @return the open file, positioned at its end.
     * @throws IOException naming the file if it cannot be opened, or is shorter than committed.
     */
    public static CommittedTextFile open(final String name, final Path file, final Checkpoint.Output from) throws IOException
    {
        final FileChannel channel = openCommitted(file, from);
        return new CommittedTextFile(name, channel, from == null ? 0 : from.items());
    }

    /**
     * Opens a committed sink's file: created or emptied for a fresh run; for a resumed run, checked
     * to hold at least the committed bytes, truncated to them and positioned at the end.
     *
     * @throws IOException naming the file when it is shorter than the checkpoint says.
     */
    public static FileChannel openCommitted(final Path file, final Checkpoint.Output from) throws IOException
    {
        if (from == null)
        {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        }
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
        try
        {
            if (channel.size() < from.bytes())
            {
                throw new IOException(file + " holds " + channel.size() + " bytes, but the checkpoint committed " + from.bytes()
                    + " bytes of " + from.name() + ": it was replaced or cut after the run stopped\n"
                    + "fix: restore the file the interrupted run wrote, or start the run afresh without --resume");
            }
            channel.truncate(from.bytes());
            channel.position(from.bytes());
            return channel;
        }
        catch (final IOException | RuntimeException e)
        {
            channel.close();
            throw e;
        }
    }

    @Override
    public void write(final char[] chars, final int offset, final int length) throws IOException
    {
        for (int i = offset, end = offset + length; i < end; i++)
        {
            if (chars[i] == '\n')
            {
                lines++;
            }
        }
        out.write(chars, offset, length);
    }

    @Override
    public void write(final String text, final int offset, final int length) throws IOException
    {
        for (int i = offset, end = offset + length; i < end; i++)
        {
            if (text.charAt(i) == '\n')
            {
                lines++;
            }
        }
        out.write(text, offset, length);
    }

    @Override
    public Checkpoint.Output commit() throws IOException
    {
        out.flush();
        channel.force(false);
        return new Checkpoint.Output(name, channel.position(), lines);
    }

    /** @return lines written, with those of the run this one resumes. */
    public long lines()
    {
        return lines;
    }

    @Override
    public void flush() throws IOException
    {
        out.flush();
    }

    @Override
    public void close() throws IOException
    {
        out.close();
    }
}
