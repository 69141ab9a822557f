package io.transnfv.engine.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A directory of checkpoint files, {@code ckpt-<id>.full} and {@code ckpt-<id>.incr}. Finds the
 * newest checkpoint that can be restored (its file and every file back to its full checkpoint
 * read clean), falling back to older ones past damaged files, and deletes chains older than the
 * last two full checkpoints. One thread.
 */
public final class CheckpointStore
{
    private static final Pattern NAME = Pattern.compile("ckpt-(\\d{12})\\.(full|incr)");

    private final Path directory;

    /** @param directory the checkpoint directory (created when the first checkpoint is written). */
    public CheckpointStore(final Path directory)
    {
        this.directory = directory;
    }

    /** @return the directory. */
    public Path directory()
    {
        return directory;
    }

    /** @return the file of checkpoint {@code id}. */
    public Path file(final long id, final boolean full)
    {
        return directory.resolve(String.format("ckpt-%012d.%s", id, full ? "full" : "incr"));
    }

    /**
     * @return the checkpoint files by id, oldest first (temporary files of an interrupted write
     *         and other files are not listed).
     * @throws IOException if the directory cannot be listed.
     */
    public TreeMap<Long, Path> files() throws IOException
    {
        final TreeMap<Long, Path> files = new TreeMap<>();
        if (!Files.isDirectory(directory))
        {
            return files;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            for (final Path entry : entries)
            {
                final Matcher m = NAME.matcher(entry.getFileName().toString());
                if (m.matches())
                {
                    files.put(Long.parseLong(m.group(1)), entry);
                }
            }
        }
        return files;
    }

    /**
     * Finds the newest restorable checkpoint.
     *
     * @param chainId  the fingerprint of the chain being resumed.
     * @param refusals told about every checkpoint file refused on the way (damaged, foreign, or
     *                 on a damaged chain), with the message naming the file.
     * @return the checkpoint files to apply in order, a full one first, each read through once
     *         and found clean (their entries are not kept: a restore streams them again), or an
     *         empty list if none can be restored.
     * @throws IOException if the directory cannot be listed.
     */
    public List<CheckpointFile.Verified> newestRestorable(final long chainId, final Consumer<CheckpointException> refusals) throws IOException
    {
        final TreeMap<Long, Path> files = files();
        for (final Long newest : files.descendingKeySet())
        {
            final Deque<CheckpointFile.Verified> chain = new ArrayDeque<>();
            long id = newest;
            try
            {
                while (true)
                {
                    final Path file = files.get(id);
                    if (file == null)
                    {
                        throw new CheckpointException(files.get(newest), "its chain needs checkpoint " + id + ", which is missing",
                            "the previous checkpoint is used; keep every file back to the last full checkpoint");
                    }
                    final CheckpointFile.Verified verified = CheckpointFile.verify(file, chainId);
                    final Checkpoint checkpoint = verified.checkpoint();
                    if (checkpoint.id() != id)
                    {
                        throw new CheckpointException(file, "holds checkpoint " + checkpoint.id() + " under the name of " + id,
                            "do not rename checkpoint files; delete this one");
                    }
                    chain.addFirst(verified);
                    if (checkpoint.full())
                    {
                        break;
                    }
                    id = checkpoint.previousId();
                }
                return new ArrayList<>(chain);
            }
            catch (final CheckpointException e)
            {
                refusals.accept(e);
            }
        }
        return List.of();
    }

    /**
     * Deletes the files of checkpoints older than {@code keepFromId} (the full checkpoint before
     * the newest full one, so a damaged newest chain still has a fallback).
     *
     * @throws IOException if a file cannot be deleted.
     */
    public void deleteOlderThan(final long keepFromId) throws IOException
    {
        for (final Path file : files().headMap(keepFromId).values())
        {
            Files.deleteIfExists(file);
        }
    }
}
