package io.transnfv.cli;

import io.transnfv.engine.egress.PcapWriter;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The files a command writes, claimed before it does any work and written under temporary
 * names until it has succeeded:
 *
 * <pre>
 *   claim ──► every target checked: not an input, not another output, not a directory,
 *   │         its directory exists; a temporary file created beside it (proves it is writable)
 *   ▼
 *   the run writes the temporary files ({@link #writePath})
 *   │
 *   ├── success: {@link #commit} moves each into place (atomically where the file system can)
 *   └── failure: {@link #close} removes them, so no partial file is left under a real name
 * </pre>
 *
 * A write that fails while the command runs (a full disk) becomes a {@link WriteFailed}
 * ({@link #failed}) naming the output by its option and its own name, not the temporary one.
 *
 * A target that exists and is not a regular file (a device such as {@code /dev/null}, a pipe)
 * is written directly: it cannot be replaced and holds nothing to protect. So is a target the
 * caller names in place: one whose committed part a checkpoint records, cut back on resume. Used by the
 * command's main thread only.
 */
final class OutputFiles implements AutoCloseable
{
    private final Map<Path, Path> temporaryByTarget = new LinkedHashMap<>();
    private final Map<Path, String> optionByTarget = new LinkedHashMap<>();
    private final List<Path> committed = new ArrayList<>();

    private OutputFiles()
    {
    }

    /**
     * Checks every output against every input and against each other, and creates each
     * output's temporary file.
     *
     * @param inputs  the files the command reads, by the option that named them (values may be null).
     * @param outputs the files it writes, by the option that named them (values may be null).
     * @param inPlace the outputs among them written directly, with no temporary file.
     * @return the claimed outputs; close it to remove what was not committed.
     * @throws UsageProblem naming the first output that cannot be written, and why.
     */
    static OutputFiles claim(final Map<String, Path> inputs, final Map<String, Path> outputs, final Set<Path> inPlace)
    {
        final Map<String, Path> given = new LinkedHashMap<>();
        outputs.forEach((option, path) ->
        {
            if (path != null)
            {
                given.put(option, path);
            }
        });
        for (final Map.Entry<String, Path> output : given.entrySet())
        {
            checkTarget(output.getKey(), output.getValue());
            for (final Map.Entry<String, Path> input : inputs.entrySet())
            {
                if (input.getValue() != null && sameFile(output.getValue(), input.getValue()))
                {
                    throw new UsageProblem(output.getKey() + " " + output.getValue() + " is the file the command reads ("
                        + input.getKey() + " " + input.getValue() + "); writing it would destroy the input while it is read.",
                        "write " + output.getKey() + " to another file, e.g. " + output.getKey() + " "
                            + sibling(output.getValue(), "-out") + ".");
                }
            }
            for (final Map.Entry<String, Path> other : given.entrySet())
            {
                if (other.getKey().equals(output.getKey()))
                {
                    break;
                }
                if (sameFile(output.getValue(), other.getValue()))
                {
                    throw new UsageProblem(other.getKey() + " " + other.getValue() + " and " + output.getKey() + " "
                        + output.getValue() + " name the same file; one would overwrite the other.",
                        "give each output its own file.");
                }
            }
        }
        final OutputFiles files = new OutputFiles();
        try
        {
            for (final Map.Entry<String, Path> output : given.entrySet())
            {
                final Path target = output.getValue();
                files.optionByTarget.put(target, output.getKey());
                files.temporaryByTarget.put(target, inPlace.contains(target) ? files.probed(output.getKey(), target)
                    : files.createTemporary(output.getKey(), target));
            }
        }
        catch (final RuntimeException e)
        {
            files.close();
            throw e;
        }
        return files;
    }

    /**
     * @param target an output given to {@link #claim}.
     * @return where to write it until {@link #commit}.
     */
    Path writePath(final Path target)
    {
        return Objects.requireNonNull(temporaryByTarget.get(target), "not a claimed output");
    }

    /**
     * Moves every output into place; call once everything is written and closed.
     *
     * @throws IOException if one cannot be moved; the ones not yet moved are removed on {@link #close}.
     */
    void commit() throws IOException
    {
        for (final Map.Entry<Path, Path> output : temporaryByTarget.entrySet())
        {
            final Path target = output.getKey();
            final Path temporary = output.getValue();
            if (!temporary.equals(target))
            {
                try
                {
                    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                catch (final AtomicMoveNotSupportedException e)
                {
                    try
                    {
                        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                    catch (final IOException moveFailed)
                    {
                        throw failed(target, moveFailed);
                    }
                }
                catch (final IOException e)
                {
                    throw failed(target, e);
                }
            }
            committed.add(target);
        }
    }

    /**
     * Names a failed write of an output. Any thread may call it once the outputs are claimed
     * (an engine thread whose sink failed).
     *
     * @param target  an output given to {@link #claim}.
     * @param failure what writing it (its temporary file, or itself) threw.
     * @return the failure as the command reports it: the option, the file and the reason.
     */
    WriteFailed failed(final Path target, final IOException failure)
    {
        if (failure instanceof WriteFailed named)
        {
            return named;
        }
        final String option = optionByTarget.get(target);
        final String output = (option == null ? "" : option + " ") + target;
        if (failure instanceof PcapWriter.MixedLinkTypes mixed)
        {
            return new WriteFailed(output, mixed.getMessage(), mixed.fix(), failure);
        }
        return new WriteFailed(output, writeReason(failure), "make room on its file system or choose another path, then run again",
            failure);
    }

    /**
     * An output that could not be written while the command ran: exit status 1 and one line,
     * {@code cannot write --out out.pcap: no space left on device; fix: ...}; the outputs'
     * temporary files are removed as after any failure.
     */
    static final class WriteFailed extends IOException
    {
        private static final long serialVersionUID = 1L;

        WriteFailed(final String output, final String reason, final String fix, final IOException cause)
        {
            super("cannot write " + output + ": " + reason + "; fix: " + fix, cause);
        }
    }

    private static String writeReason(final IOException e)
    {
        if (e instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        final String reason = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
        if (reason == null || reason.isEmpty())
        {
            return e.getClass().getSimpleName();
        }
        return Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }

    /** Removes the temporary file of every output not committed. */
    @Override
    public void close()
    {
        for (final Map.Entry<Path, Path> output : temporaryByTarget.entrySet())
        {
            if (!committed.contains(output.getKey()) && !output.getValue().equals(output.getKey()))
            {
                try
                {
                    Files.deleteIfExists(output.getValue());
                }
                catch (final IOException ignore)
                {
                    // best effort: a leftover carries a hidden, temporary name, never the output's own
                }
            }
        }
    }

    private static void checkTarget(final String option, final Path target)
    {
        if (Files.isDirectory(target))
        {
            throw new UsageProblem(option + " " + target + ": is a directory; the output is a file.",
                "name a file inside it, e.g. " + option + " " + target.resolve(defaultName(option)) + ".");
        }
        final Path directory = directoryOf(target);
        if (!Files.exists(directory))
        {
            throw new UsageProblem(option + " " + target + ": the directory " + directory + " does not exist.",
                "create it first (mkdir -p " + directory + ") or choose another path.");
        }
        if (!Files.isDirectory(directory))
        {
            throw new UsageProblem(option + " " + target + ": " + directory + " is a file, not a directory.",
                "choose a path inside a directory.");
        }
    }

    /** @return {@code target}, written in place, once a file could be created beside it (it is writable). */
    private Path probed(final String option, final Path target)
    {
        final Path probe = createTemporary(option, target);
        if (!probe.equals(target))
        {
            try
            {
                Files.deleteIfExists(probe);
            }
            catch (final IOException e)
            {
                throw new UsageProblem(option + " " + target + ": cannot remove a file created in " + directoryOf(target) + " ("
                    + reason(e) + ").", "choose a directory this user may write to, e.g. the working directory.");
            }
        }
        return target;
    }

    private Path createTemporary(final String option, final Path target)
    {
        if (Files.exists(target) && !Files.isRegularFile(target))
        {
            return target;
        }
        final Path temporary = directoryOf(target).resolve("." + target.getFileName() + ".partial-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16));
        try
        {
            return Files.createFile(temporary);
        }
        catch (final IOException e)
        {
            throw new UsageProblem(option + " " + target + ": cannot create a file in " + directoryOf(target) + " ("
                + reason(e) + ").", "choose a directory this user may write to, e.g. the working directory.");
        }
    }

    private static String reason(final IOException e)
    {
        if (e instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs)
        {
            return fs.getReason() != null ? fs.getReason().toLowerCase(Locale.ROOT)
                : "the file system there does not take new files";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** @return true if {@code a} and {@code b} are one file: the same canonical path, or the same file identity (a link). */
    static boolean sameFile(final Path a, final Path b)
    {
        if (canonical(a).equals(canonical(b)))
        {
            return true;
        }
        if (Files.exists(a) && Files.exists(b))
        {
            try
            {
                return Files.isSameFile(a, b);
            }
            catch (final IOException e)
            {
                return false;
            }
        }
        return false;
    }

    /** @return the real path of {@code file}, or of its directory joined with its name when it does not exist yet. */
    private static Path canonical(final Path file)
    {
        final Path absolute = file.toAbsolutePath().normalize();
        try
        {
            if (Files.exists(absolute))
            {
                return absolute.toRealPath();
            }
            final Path parent = absolute.getParent();
            return parent != null && Files.exists(parent)
                ? parent.toRealPath().resolve(absolute.getFileName()) : absolute;
        }
        catch (final IOException e)
        {
            return absolute;
        }
    }

    private static Path directoryOf(final Path target)
    {
        final Path parent = target.toAbsolutePath().getParent();
        return parent == null ? target.toAbsolutePath().getRoot() : parent;
    }

    private static Path sibling(final Path file, final String suffix)
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        final String changed = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        final Path parent = file.getParent();
        return parent == null ? Path.of(changed) : parent.resolve(changed);
    }

    private static String defaultName(final String option)
    {
        return switch (option)
        {
            case "--out" -> "out.pcap";
            case "--report" -> "report.json";
            case "--param-changes-out" -> "param-changes.json";
            case "--records" -> "records.txt";
            case "--state" -> "state.txt";
            default -> "output";
        };
    }
}
