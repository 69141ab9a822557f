package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transnfv run} as a subprocess, stopped by a signal: the first SIGTERM or SIGINT
 * finishes the batch in flight and writes a complete summary, report, records and state,
 * exiting with 143 or 130; a second signal stops a run that cannot finish at once.
 */
class SignalStopTest
{
    private static final long LONG_RUN = 200_000_000L;

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void shouldFinishTheBatchInFlightAndWriteEveryOutputOnSigterm() throws Exception
    {
        stopsCleanly("TERM", 143, "terminate", "tpg");
    }

    @Test
    @Timeout(180)
    void shouldFinishTheBatchInFlightAndWriteEveryOutputOnSigintWithTheSerialExecutor() throws Exception
    {
        stopsCleanly("INT", 130, "interrupt", "serial");
    }

    @Test
    @Timeout(180)
    void shouldStopAtOnceOnASecondSignalWhenTheBatchInFlightCannotFinish() throws Exception
    {
        final Path marker = dir.resolve("hanging");
        final Path chain = dir.resolve("hang.yaml");
        Files.writeString(chain, "name: hang\nvnfs:\n  - name: stuck\n    type: test-hang\n    params:\n      marker: \""
            + marker.toString().replace("\\", "\\\\") + "\"\n", StandardCharsets.UTF_8);
        final Process process = start(List.of("run", chain.toString(), "--generate", "packets=1000", "--batch-deadline", "0",
            "--no-progress"));
        awaitFile(process, marker);
        signal(process, "TERM");
        final Path err = dir.resolve("stderr");
        awaitText(process, err, "finishing the batch in flight");
        // the batch in flight never finishes: only the second signal ends the run
        assertTrue(process.isAlive(), "the run ended on the first signal although its batch could not finish");
        signal(process, "TERM");
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the second signal did not stop the run at once");
        assertEquals(143, process.exitValue(), () -> text(err));
        assertTrue(text(err).contains("SIGTERM again: stopping now"), () -> text(err));
    }

    private void stopsCleanly(final String signal, final int status, final String cause, final String executor) throws Exception
    {
        final Path records = dir.resolve("records.txt");
        final Path report = dir.resolve("report.json");
        final Path state = dir.resolve("state.txt");
        final Process process = start(List.of("run", "--executor", executor, "--generate", "packets=" + LONG_RUN,
            "--no-progress", "--records", records.toString(), "--report", report.toString(), "--state", state.toString()));
        // outputs are written under a temporary name until the run ends (OutputFiles)
        while (process.isAlive() && bytesWritten(records) < 100_000)
        {
            process.waitFor(50, TimeUnit.MILLISECONDS);
        }
        signal(process, signal);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the run did not end after SIG" + signal);
        final String out = text(dir.resolve("stdout"));
        final String err = text(dir.resolve("stderr"));
        assertEquals(status, process.exitValue(), () -> out + err);
        assertTrue(err.contains("SIG" + signal + ": finishing the batch in flight"), err);
        assertTrue(out.contains("stopped              stopped by SIG" + signal), out);

        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(cause, json.path("stopped").path("cause").asText(), json::toString);
        final long in = json.path("packets").path("in").asLong();
        assertTrue(in > 0 && in < LONG_RUN, "packets in: " + in);
        final String recordText = text(records);
        assertTrue(recordText.endsWith("\n"), "the records end mid-line");
        final String[] lines = recordText.split("\n");
        assertEquals(in, lines.length, "one complete record per packet that came in");
        assertEquals(in - 1, Long.parseLong(lines[lines.length - 1].split(" ", 2)[0]), "the last record is the last packet's");
        assertTrue(Files.size(state) > 0, "no state dump");
        try (Stream<Path> left = Files.list(dir))
        {
            assertEquals(List.of(), left.filter(f -> f.getFileName().toString().contains(".partial-")).toList(),
                "temporary output files left behind");
        }
    }

    /** @return the bytes written so far to {@code target}'s temporary file, 0 before it exists. */
    private static long bytesWritten(final Path target) throws IOException
    {
        final String prefix = "." + target.getFileName() + ".partial-";
        try (Stream<Path> files = Files.list(target.getParent()))
        {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).mapToLong(f ->
            {
                try
                {
                    return Files.size(f);
                }
                catch (final IOException e)
                {
                    return 0;
                }
            }).sum();
        }
    }

    private Process start(final List<String> args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Transnfv.class.getName());
        command.addAll(args);
        return new ProcessBuilder(command).directory(dir.toFile())
            .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile()).start();
    }

    private static void signal(final Process process, final String signal) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }

    private static void awaitFile(final Process process, final Path file) throws Exception
    {
        while (!Files.exists(file))
        {
            assertTrue(process.isAlive(), "the run ended before it started: exit " + (process.isAlive() ? "" : process.exitValue()));
            process.waitFor(50, TimeUnit.MILLISECONDS);
        }
    }

    private static void awaitText(final Process process, final Path file, final String text) throws Exception
    {
        while (!Files.exists(file) || !text(file).contains(text))
        {
            assertTrue(process.isAlive(), () -> "the run ended: " + text(file));
            process.waitFor(50, TimeUnit.MILLISECONDS);
        }
    }

    private static String text(final Path file)
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
