package io.transnfv.engine.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A checkpoint that cannot be used: damaged, truncated, of another format version or of another
 * chain. The message names the file, says what is wrong and how to fix it.
 */
public final class CheckpointException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final boolean foreign;

    /**
     * @param file    the checkpoint file.
     * @param problem what is wrong with it, one sentence.
     * @param fix     what the user can do about it.
     */
    public CheckpointException(final Path file, final String problem, final String fix)
    {
        this(file, problem, fix, false);
    }

    private CheckpointException(final Path file, final String problem, final String fix, final boolean foreign)
    {
        super("checkpoint " + file + ": " + problem + "\nfix: " + fix);
        this.file = file;
        this.foreign = foreign;
    }

    /**
     * @param written  the fingerprint the file was written for.
     * @param expected this run's.
     * @return the refusal of a sound checkpoint written for another chain or traffic.
     */
    public static CheckpointException foreign(final Path file, final long written, final long expected)
    {
        return new CheckpointException(file, String.format("written for another chain or traffic (fingerprint %016x, this run"
            + " is %016x)", written, expected), "resume with the chain file and traffic the run was started with, or use another"
            + " checkpoint directory", true);
    }

    /** @return true if the checkpoint is sound but belongs to another chain or traffic. */
    public boolean foreign()
    {
        return foreign;
    }

    /** @return the checkpoint file the problem is in. */
    public Path file()
    {
        return file;
    }
}
