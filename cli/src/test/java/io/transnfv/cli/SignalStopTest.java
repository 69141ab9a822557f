package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.transnfv.engine.checkpoint.CheckpointStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.transnfv.cli.TransnfvProcess.awaitFile;
import static io.transnfv.cli.TransnfvProcess.awaitText;
import static io.transnfv.cli.TransnfvProcess.signal;
import static io.transnfv.cli.TransnfvProcess.start;
import static io.transnfv.cli.TransnfvProcess.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transnfv run} as a subprocess, stopped by a signal: the first SIGTERM or SIGINT
 * finishes the batch in flight and writes a complete summary, report, records and state,
 * exiting with 143 or 130; with checkpoints, it takes a final one there, from which a resume
 * ends as the uninterrupted run; a second signal stops a run that cannot finish at once.
 */
class SignalStopTest
{
    private static final long LONG_RUN = 200_000_000L;
    /** Long enough that a stop comes well before the end (it comes after ~1,000 records), short enough to run five times. */
    private static final long CHECKPOINTED_RUN = 300_000L;
    private static final String CHECKPOINTED_TRAFFIC = "packets=" + CHECKPOINTED_RUN + ",new_conn_ratio=0.3,seed=5";

    /** The uninterrupted run both stop-and-resume cases compare with (the same traffic; equal outputs on every executor), run once. */
    @TempDir
    static Path referenceDir;
    private static boolean referenceRan;

    @TempDir
    Path dir;

    /** A case that failed before its run ended must not leave it running (a 200 M packet run, say): every child goes. */
    @AfterEach
    void stopWhatIsStillRunning()
    {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }

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
        final Process process = start(dir, List.of("run", chain.toString(), "--generate", "packets=1000", "--batch-deadline", "0",
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

    @Test
    @Timeout(300)
    void shouldTakeAFinalCheckpointOnSigtermFromWhichAResumeEndsAsTheUninterruptedRun() throws Exception
    {
        stopsAtAFinalCheckpoint("TERM", 143, "tpg");
    }

    @Test
    @Timeout(300)
    void shouldTakeAFinalCheckpointOnSigintWithTheSerialExecutorFromWhichAResumeEndsAsTheUninterruptedRun() throws Exception
    {
        stopsAtAFinalCheckpoint("INT", 130, "serial");
    }

    /**
     * A run with checkpoints but no periodic one due before the stop: the only checkpoint is the
     * one the stop takes, at the packet the run stopped after; resumed from it, the run ends with
     * the uninterrupted run's pcap, records and state, byte for byte.
     */
    private void stopsAtAFinalCheckpoint(final String signal, final int status, final String executor) throws Exception
    {
        final String traffic = CHECKPOINTED_TRAFFIC;
        final Path checkpoints = dir.resolve("ckpt");
        final List<String> stopped = outputs("stopped", List.of("--executor", executor, "--generate", traffic,
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "1000000"));
        final Process process = start(dir, stopped, "stopped");
        // with checkpoints the records are written in place
        final Path records = dir.resolve("stopped.records");
        while (process.isAlive() && (!Files.exists(records) || Files.size(records) < 64 * 1024))
        {
            process.waitFor(20, TimeUnit.MILLISECONDS);
        }
        assertTrue(process.isAlive(), () -> "the run ended before the signal: " + text(dir.resolve("stopped.out")));
        signal(process, signal);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the run did not end after SIG" + signal);
        final String out = text(dir.resolve("stopped.out")) + text(dir.resolve("stopped.err"));
        assertEquals(status, process.exitValue(), out);

        final long recordsWritten = text(records).lines().count();
        assertTrue(recordsWritten > 0 && recordsWritten < CHECKPOINTED_RUN, "records: " + recordsWritten);
        final Map.Entry<Long, Path> newest = new CheckpointStore(checkpoints).files().lastEntry();
        assertNotNull(newest, () -> "no checkpoint in " + checkpoints + " after the stop: " + out);
        assertEquals(1L, newest.getKey(), "the stop's checkpoint is the only one: " + out);
        // the header's input position (docs/reliability.md, the checkpoint file): packets the state holds
        final long inputPackets = ByteBuffer.wrap(Files.readAllBytes(newest.getValue())).getLong(36);
        assertEquals(recordsWritten, inputPackets, "the final checkpoint is at the packet the run stopped after");
        assertTrue(out.contains("final checkpoint 1 taken at packet " + inputPackets), out);

        final Process resumed = start(dir, outputs("stopped", List.of("--executor", executor, "--generate", traffic, "--resume",
            checkpoints.toString())), "resumed");
        assertTrue(resumed.waitFor(240, TimeUnit.SECONDS), "the resumed run did not end");
        final String resumedOut = text(dir.resolve("resumed.out")) + text(dir.resolve("resumed.err"));
        assertEquals(0, resumed.exitValue(), resumedOut);
        assertTrue(resumedOut.contains("resumed from checkpoint 1 at packet " + inputPackets), resumedOut);

        runReferenceOnce();
        for (final String file : new String[] {".pcap", ".records", ".state"})
        {
            assertArrayEquals(Files.readAllBytes(referenceDir.resolve("reference" + file)), Files.readAllBytes(dir.resolve("stopped" + file)),
                file + " of the stopped and resumed run differs from the uninterrupted run's");
        }
    }

    private static synchronized void runReferenceOnce() throws Exception
    {
        if (referenceRan)
        {
            return;
        }
        final Process reference = start(referenceDir, outputs(referenceDir, "reference", List.of("--generate", CHECKPOINTED_TRAFFIC)),
            "reference");
        assertTrue(reference.waitFor(240, TimeUnit.SECONDS), "the uninterrupted run did not end");
        assertEquals(0, reference.exitValue(), () -> text(referenceDir.resolve("reference.err")));
        referenceRan = true;
    }

    private List<String> outputs(final String name, final List<String> args)
    {
        return outputs(dir, name, args);
    }

    private static List<String> outputs(final Path dir, final String name, final List<String> args)
    {
        final List<String> command = new ArrayList<>(List.of("run", "--no-progress", "--out", dir.resolve(name + ".pcap").toString(),
            "--records", dir.resolve(name + ".records").toString(), "--state", dir.resolve(name + ".state").toString()));
        command.addAll(args);
        return command;
    }

    private void stopsCleanly(final String signal, final int status, final String cause, final String executor) throws Exception
    {
        final Path records = dir.resolve("records.txt");
        final Path report = dir.resolve("report.json");
        final Path state = dir.resolve("state.txt");
        final Process process = start(dir, List.of("run", "--executor", executor, "--generate", "packets=" + LONG_RUN,
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
}
