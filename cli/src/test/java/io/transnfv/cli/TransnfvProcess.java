package io.transnfv.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code transnfv} command as a subprocess, for the tests that stop it with a signal or talk
 * to its control plane: started on this JVM and class path, its output in files, and the waits
 * such a test needs. Every wait polls until what it waits for is there or the process has ended
 * (then it fails with the output); the test's own {@code @Timeout} bounds it.
 */
final class TransnfvProcess
{
    /** What the command prints when its control plane listens; group 1 is the address. */
    static final Pattern CONTROL_PLANE_URL = Pattern.compile("control plane on (http://127\\.0\\.0\\.1:\\d+)/");

    private TransnfvProcess()
    {
    }

    /** Starts {@code transnfv args} in {@code dir}, its stdout and stderr to {@code stdout} and {@code stderr} there. */
    static Process start(final Path dir, final List<String> args) throws IOException
    {
        return start(dir, args, dir.resolve("stdout"), dir.resolve("stderr"));
    }

    /** Starts {@code transnfv args} in {@code dir}, its stdout and stderr to {@code NAME.out} and {@code NAME.err} there. */
    static Process start(final Path dir, final List<String> args, final String name) throws IOException
    {
        return start(dir, args, dir.resolve(name + ".out"), dir.resolve(name + ".err"));
    }

    private static Process start(final Path dir, final List<String> args, final Path out, final Path err) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Transnfv.class.getName());
        command.addAll(args);
        return new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
            .start();
    }

    /** Sends {@code SIG<signal>} (e.g. {@code "INT"}, {@code "TERM"}, {@code "KILL"}) to {@code process}. */
    static void signal(final Process process, final String signal) throws Exception
    {
        if ("INT".equals(signal))
        {
            assertFalse(ignoresSigint(), "SIGINT is ignored in this JVM, so the run it starts ignores it too (POSIX keeps an"
                + " ignored signal ignored across exec): a shell without job control ignores SIGINT in the jobs it starts"
                + " with '&'; run the tests in the foreground, or from a shell with 'set -m'");
        }
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }

    /** @return true if this process ignores SIGINT (Linux: bit 2 of {@code SigIgn} in /proc/self/status); false elsewhere. */
    private static boolean ignoresSigint() throws IOException
    {
        final Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status))
        {
            return false;
        }
        for (final String line : Files.readAllLines(status))
        {
            if (line.startsWith("SigIgn:"))
            {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    /** Waits until {@code file} exists. */
    static void awaitFile(final Process process, final Path file) throws Exception
    {
        while (!Files.exists(file))
        {
            assertTrue(process.isAlive(), "the run ended before it started: exit " + (process.isAlive() ? "" : process.exitValue()));
            process.waitFor(50, TimeUnit.MILLISECONDS);
        }
    }

    /** Waits until {@code file} holds {@code text}. */
    static void awaitText(final Process process, final Path file, final String text) throws Exception
    {
        while (!text(file).contains(text))
        {
            assertTrue(process.isAlive(), () -> "the run ended: " + text(file));
            process.waitFor(20, TimeUnit.MILLISECONDS);
        }
    }

    /** Waits until {@code err} names the control plane's address, and returns it ({@code http://127.0.0.1:PORT}). */
    static String awaitUrl(final Process process, final Path err) throws Exception
    {
        while (true)
        {
            final Matcher m = CONTROL_PLANE_URL.matcher(text(err));
            if (m.find())
            {
                return m.group(1);
            }
            assertTrue(process.isAlive(), () -> "the run ended before it listened: " + text(err));
            process.waitFor(20, TimeUnit.MILLISECONDS);
        }
    }

    /** @return {@code file}'s text; empty while it does not exist. */
    static String text(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException e)
        {
            return "(unreadable: " + e + ")";
        }
    }
}
