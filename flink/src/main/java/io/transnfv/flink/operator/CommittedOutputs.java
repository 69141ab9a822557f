package io.transnfv.flink.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * A subtask's outputs, committed in two phases. At a checkpoint barrier the outputs produced
 * since the last one are staged as a part file named by subtask and checkpoint id in
 * {@code pending/}, and the part's name goes into the operator's checkpointed state; when Flink
 * says the checkpoint completed, every staged part up to it moves into {@code committed/}. A
 * restored subtask commits the parts its restored state names (a completion it may have missed)
 * and never those staged after its checkpoint, whose packets the source replays. Moves are
 * atomic renames and a part already moved counts as committed, so a commit may be repeated.
 * Checkpoint ids only grow within a job, so part names sort in commit order.
 *
 * <p>The task thread only.
 */
public final class CommittedOutputs
{
    /** Where staged parts wait for their checkpoint. */
    public static final String PENDING = "pending";
    /** Where committed parts are: the run's outputs. */
    public static final String COMMITTED = "committed";

    private final Path pending;
    private final Path committed;
    private final int subtask;
    private final List<String> staged = new ArrayList<>();

    /**
     * @param directory the run's output directory, shared by the subtasks.
     * @param subtask   this subtask's index.
     */
    public CommittedOutputs(final Path directory, final int subtask) throws IOException
    {
        this.pending = Files.createDirectories(directory.resolve(PENDING));
        this.committed = Files.createDirectories(directory.resolve(COMMITTED));
        this.subtask = subtask;
    }

    /** @return the name of the part of {@code subtask} at checkpoint {@code checkpointId}. */
    public static String partName(final int subtask, final long checkpointId)
    {
        return String.format(Locale.ROOT, "%04d-%019d.part", subtask, checkpointId);
    }

    /** @return the checkpoint id in a part's name. */
    static long checkpointOf(final String part)
    {
        return Long.parseLong(part.substring(5, 24));
    }

    /**
     * Stages {@code bytes} as this subtask's part at {@code checkpointId} (written aside, synced,
     * renamed into {@code pending/}).
     */
    public void stage(final long checkpointId, final byte[] bytes) throws IOException
    {
        final String name = partName(subtask, checkpointId);
        final Path tmp = pending.resolve(name + ".tmp");
        Files.write(tmp, bytes);
        move(tmp, pending.resolve(name));
        staged.add(name);
    }

    /** @return the staged parts not yet committed, for the checkpointed state. */
    public List<String> staged()
    {
        return List.copyOf(staged);
    }

    /** On restore: the parts the restored state names become this subtask's staged ones. */
    public void restore(final Iterable<String> parts)
    {
        staged.clear();
        for (final String part : parts)
        {
            staged.add(part);
        }
    }

    /**
     * Commits every staged part at or before {@code checkpointId}: Flink completed that checkpoint,
     * whose state holds everything those parts' packets did.
     *
     * @throws IllegalStateException if a part to commit is neither staged nor committed (lost).
     */
    public void commitUpTo(final long checkpointId) throws IOException
    {
        for (final Iterator<String> it = staged.iterator(); it.hasNext(); )
        {
            final String part = it.next();
            if (checkpointOf(part) > checkpointId)
            {
                continue;
            }
            final Path from = pending.resolve(part);
            final Path to = committed.resolve(part);
            if (Files.exists(from))
            {
                move(from, to);
            }
            else if (!Files.exists(to))
            {
                throw new IllegalStateException("output part " + part + " of a completed checkpoint is neither in " + pending
                    + " nor in " + committed + ": it was removed while the job ran");
            }
            it.remove();
        }
    }

    private static void move(final Path from, final Path to) throws IOException
    {
        try
        {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException e)
        {
            throw new UncheckedIOException("the output directory cannot rename atomically; fix: put it on a local file system", e);
        }
    }
}
