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

    /**
     * @param file    the checkpoint file.
     * @param problem what is wrong with it, one sentence.
     * @param fix     what the user can do about it.
     */
    public CheckpointException(final Path file, final String problem, final String fix)
    {
        super("checkpoint " + file + ": " + problem + "\nfix: " + fix);
        this.file = file;
    }

    /** @return the checkpoint file the problem is in. */
    public Path file()
    {
        return file;
    }
}
