package io.transnfv.cli;

import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Says in words what a failed file operation means and what to do about it, instead of a
 * Java exception's class name: {@code NoSuchFileException}, {@code AccessDeniedException},
 * "Is a directory", undecodable text. Also checks input files before they are opened, so a
 * missing capture, a directory or a device is named as such.
 */
final class FileProblems
{
    private FileProblems()
    {
    }

    /**
     * Checks that {@code file}, given with {@code option}, is a regular file this process can read.
     *
     * @param option what named the file, e.g. {@code --pcap} or {@code the chain's traffic}.
     * @param file   the file as given.
     * @param what   what the file should be, e.g. {@code a pcap or pcapng capture}.
     * @throws UsageProblem saying what is wrong with it and how to fix it.
     */
    static void checkReadable(final String option, final Path file, final String what)
    {
        if (!Files.exists(file))
        {
            final Path parent = file.toAbsolutePath().getParent();
            final String where = parent != null && !Files.isDirectory(parent)
                ? " (its directory " + parent + " does not exist either)" : "";
            throw new UsageProblem(option + " " + file + ": no such file" + where + ".",
                "check the path; a relative path starts in the working directory, "
                    + Path.of("").toAbsolutePath() + ".");
        }
        if (Files.isDirectory(file))
        {
            throw new UsageProblem(option + " " + file + ": is a directory, not " + what + ".",
                "name a file inside it.");
        }
        if (!Files.isRegularFile(file))
        {
            throw new UsageProblem(option + " " + file + ": is a device, pipe or socket, not " + what + ".",
                "give a regular file holding " + what + ".");
        }
        if (!Files.isReadable(file))
        {
            throw new UsageProblem(option + " " + file + ": permission denied, this user cannot read it.",
                "make it readable (chmod +r " + file + ") or copy it somewhere readable.");
        }
    }

    /**
     * @param e    a failed file operation, or one wrapped in an {@link UncheckedIOException}.
     * @param verb what was being done, e.g. {@code write} or {@code read}.
     * @return a sentence saying what went wrong, then a {@code fix:} line.
     */
    static String describe(final Throwable e, final String verb)
    {
        final Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
        final String file = cause instanceof FileSystemException fs && fs.getFile() != null ? fs.getFile() : null;
        final String subject = file == null ? "cannot " + verb : "cannot " + verb + " " + file;
        final String[] sentenceAndFix;
        if (cause instanceof NoSuchFileException)
        {
            sentenceAndFix = new String[] {subject + ": no such file or directory.",
                "check the path; a relative path starts in the working directory."};
        }
        else if (cause instanceof AccessDeniedException)
        {
            sentenceAndFix = new String[] {subject + ": permission denied.",
                "choose a file and directory this user may " + verb + ", or change their permissions."};
        }
        else if (cause instanceof NotDirectoryException)
        {
            sentenceAndFix = new String[] {subject + ": a part of the path is a file, not a directory.",
                "check the path."};
        }
        else if (cause instanceof FileAlreadyExistsException || cause instanceof DirectoryNotEmptyException)
        {
            sentenceAndFix = new String[] {subject + ": something else is in the way there.",
                "remove it or choose another path."};
        }
        else if (cause instanceof CharacterCodingException)
        {
            sentenceAndFix = new String[] {subject + ": it is not UTF-8 text (a binary file?).",
                "give the text file that was meant."};
        }
        else if (cause instanceof FileSystemException fs)
        {
            final String reason = fs.getReason() == null ? "the file system refused" : lowerFirst(fs.getReason());
            sentenceAndFix = new String[] {subject + ": " + reason + ".",
                "check the path and that the file system has room and allows it."};
        }
        else
        {
            final String reason = cause == null || cause.getMessage() == null ? "an I/O error" : cause.getMessage();
            sentenceAndFix = new String[] {subject + ": " + reason + ".",
                "check the file and the device it is on, then try again."};
        }
        return sentenceAndFix[0] + System.lineSeparator() + "    fix: " + sentenceAndFix[1];
    }

    private static String lowerFirst(final String text)
    {
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
