package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.checkpoint.CheckpointException;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.checkpoint.CommittedOutput;
import io.transnfv.engine.checkpoint.CommittedTextFile;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.report.RunReport;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code --checkpoint-dir D} / {@code --resume D}: checkpoints at batch boundaries, and resuming a
 * run from the last one with its output files cut back to what that checkpoint committed. Opens
 * the run's output files (fresh, or resumed) and hands the executor its checkpointer. See
 * {@code docs/reliability.md#checkpoints-and-resume}.
 */
final class CheckpointOptions
{
    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
        description = "Take checkpoints at batch boundaries into DIR (which must hold no checkpoints yet).")
    Path checkpointDir;

    @Option(names = "--resume", paramLabel = "DIR",
        description = {"Resume the run whose checkpoints are in DIR from its last complete checkpoint, and go on taking "
            + "checkpoints there. Give the same chain, traffic and output files: the outputs and the final state come out "
            + "byte-identical to an uninterrupted run (with --dpdk: state resumes, outputs are at-least-once)."})
    Path resumeDir;

    @Option(names = "--checkpoint-every", paramLabel = "BATCHES|DURATION",
        description = "Checkpoint interval: a number of batches, or packet time such as 500ms (default: the chain's"
            + " checkpoint.every, else " + CheckpointSettings.DEFAULT_EVERY_BATCHES + " batches).")
    String every;

    @Option(names = "--checkpoint-full-every", paramLabel = "N",
        description = "Every N-th checkpoint is full, the others hold only keys changed since the previous one (default: the"
            + " chain's checkpoint.full_every, else " + CheckpointSettings.DEFAULT_FULL_EVERY + ").")
    Integer fullEvery;

    private Checkpointer checkpointer;
    private boolean liveSource;

    /** @return true when checkpoints are taken (by flag or by the chain's {@code checkpoint:}) or a run is resumed. */
    boolean enabled(final ChainSpec chain)
    {
        return checkpointDir != null || resumeDir != null || chain.settings().checkpoint() != null;
    }

    /**
     * Creates the checkpointer (once): a fresh one for {@code --checkpoint-dir}, the loaded one for
     * {@code --resume}, telling {@code err} about damaged checkpoints passed over.
     */
    private Checkpointer checkpointer(final ChainSpec chain, final ChainExecutor executor, final PrintStream err)
        throws IOException
    {
        if (checkpointer == null)
        {
            if (checkpointDir != null && resumeDir != null)
            {
                throw new UsageProblem("--checkpoint-dir and --resume both name a checkpoint directory.",
                    "--resume DIR alone continues the run in DIR and goes on checkpointing there.");
            }
            final CheckpointSettings fromChain = chain.settings().checkpoint();
            long[] interval = fromChain == null ? new long[] {CheckpointSettings.DEFAULT_EVERY_BATCHES, 0}
                : new long[] {fromChain.everyBatches(), fromChain.everyPacketTimeNs()};
            if (every != null)
            {
                try
                {
                    interval = CheckpointSettings.parseInterval(every);
                }
                catch (final IllegalArgumentException e)
                {
                    final String[] parts = e.getMessage().split("\nfix: ", 2);
                    throw new UsageProblem("--checkpoint-every: " + parts[0] + ".", parts.length == 2 ? parts[1]
                        : "a number of batches, e.g. --checkpoint-every 100, or a duration of packet time, e.g. 500ms.");
                }
            }
            final int full = fullEvery != null ? fullEvery : fromChain != null ? fromChain.fullEvery() : CheckpointSettings.DEFAULT_FULL_EVERY;
            if (full < 1)
            {
                throw new UsageProblem("--checkpoint-full-every must be 1 or more, got " + full + ".",
                    "e.g. --checkpoint-full-every 10, or 1 for full checkpoints only.");
            }
            final Path dir = resumeDir != null ? resumeDir : checkpointDir != null ? checkpointDir : fromChain.directory();
            final CheckpointSettings settings = new CheckpointSettings(dir, interval[0], interval[1], full);
            if (resumeDir != null && !Files.isDirectory(resumeDir))
            {
                throw new UsageProblem("--resume " + resumeDir + ": " + (Files.exists(resumeDir) ? "is not a directory." : "no such directory."),
                    "name the checkpoint directory of the run to resume.");
            }
            if (resumeDir == null && Files.exists(dir) && !Files.isDirectory(dir))
            {
                throw new UsageProblem((checkpointDir != null ? "--checkpoint-dir " : "settings.checkpoint.dir ") + dir
                    + ": is a file; checkpoints go into a directory.", "name a new or empty directory.");
            }
            final List<CheckpointException> refused = new ArrayList<>();
            checkpointer = resumeDir == null ? Checkpointer.start(settings, chain, executor.runtime().catalog())
                : Checkpointer.resume(settings, chain, executor.runtime().catalog(), refusal ->
                {
                    refused.add(refusal);
                    err.println("run: passed over " + refusal.getMessage().replace("\nfix: ", "; "));
                });
            if (resumeDir != null && checkpointer.resumedFrom() == null)
            {
                final long foreign = refused.stream().filter(CheckpointException::foreign).count();
                if (foreign > 0)
                {
                    // starting afresh would overwrite the other run's checkpoints, and its resume point with them
                    throw new UsageProblem("--resume " + resumeDir + ": " + foreign + " of its checkpoints were written for another chain"
                        + " or traffic, and none for this one; nothing was run or written.",
                        "resume with the chain file and traffic options of the run that wrote them, or start this run"
                            + " with --checkpoint-dir naming a new directory.");
                }
                err.println("run: no complete checkpoint in " + resumeDir + ": starting the run from its first packet");
            }
            if (checkpointer.resumedFrom() != null && checkpointer.resumedFrom().paramChanges() == null)
            {
                err.println("run: checkpoint " + checkpointer.resumedFrom().id() + " was written by an older version that did not"
                    + " record parameter changes: the run resumes with the chain's parameters; POST /params again any change"
                    + " the interrupted run had applied");
            }
        }
        return checkpointer;
    }

    /**
     * @return the pcap writer for output {@code target} (at its write path): new, or reopened at the
     *         resumed checkpoint's committed length.
     */
    PcapWriter pcap(final ChainSpec chain, final ChainExecutor executor, final OutputFiles outputs, final Path target,
        final PrintStream err) throws IOException
    {
        final Path file = outputs.writePath(target);
        if (!enabled(chain))
        {
            return PcapWriter.create(file);
        }
        final var from = checkpointer(chain, executor, err).resumedOutput("pcap");
        final PcapWriter writer = from == null ? PcapWriter.create(file) : PcapWriter.resume(file, from);
        checkpointer.addOutput(named(writer, outputs, target));
        return writer;
    }

    /**
     * @return the records writer for output {@code target} (at its write path): new, or reopened at
     *         the resumed checkpoint's committed length.
     */
    Writer records(final ChainSpec chain, final ChainExecutor executor, final OutputFiles outputs, final Path target,
        final PrintStream err) throws IOException
    {
        final Path file = outputs.writePath(target);
        if (!enabled(chain))
        {
            return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        }
        final CommittedTextFile out = CommittedTextFile.open("records", file,
            checkpointer(chain, executor, err).resumedOutput("records"));
        checkpointer.addOutput(named(out, outputs, target));
        return out;
    }

    /** @return {@code output}, whose commit (flush, fsync) at a checkpoint names the output when it fails. */
    private static CommittedOutput named(final CommittedOutput output, final OutputFiles outputs, final Path target)
    {
        return () ->
        {
            try
            {
                return output.commit();
            }
            catch (final IOException e)
            {
                throw outputs.failed(target, e);
            }
        };
    }

    /**
     * Hands the executor its checkpointer, if checkpoints are on.
     *
     * @param live  the source cannot be replayed (a DPDK port).
     * @param paced packets are offered in wall time ({@code --rate}), which drops some by the clock.
     */
    void attach(final ChainSpec chain, final ChainExecutor executor, final boolean live, final boolean paced,
        final PrintStream err) throws IOException
    {
        if (!enabled(chain))
        {
            return;
        }
        if (paced)
        {
            throw new UsageProblem("--rate cannot be used with checkpoints: a paced replay drops packets by"
                + " the wall clock, so a resumed run could not repeat the interrupted one.", "drop --rate, or run without"
                + " --checkpoint-dir, --resume and settings.checkpoint.");
        }
        liveSource = live;
        try
        {
            checkpointer(chain, executor, err).replayableSource(!live);
            executor.checkpointWith(checkpointer);
        }
        catch (final UnsupportedOperationException e)
        {
            final String[] parts = e.getMessage().split("\nfix: ", 2);
            throw new UsageProblem(parts[0] + ".", parts.length == 2 ? parts[1] : "run the tpg or serial executor with checkpoints.");
        }
    }

    /**
     * @return for a run stopped before the end of its traffic, what it did about its final
     *         checkpoint (taken, or skipped and why); else null.
     */
    String finalCheckpoint()
    {
        return checkpointer == null ? null : checkpointer.finalCheckpoint();
    }

    /** @return what checkpoints did in this run, for the run report, or null if none were on. */
    RunReport.Checkpoints report()
    {
        if (checkpointer == null)
        {
            return null;
        }
        final long[] ns = checkpointer.takeNs();
        Arrays.sort(ns);
        final long[] parts = checkpointer.partNs();
        final RunReport.Checkpoints.Resumed resumed = checkpointer.resumedFrom() == null ? null
            : new RunReport.Checkpoints.Resumed(checkpointer.resumedFrom().id(), checkpointer.resumedFrom().inputPackets(),
                checkpointer.resumeNs() / 1e6);
        return new RunReport.Checkpoints(checkpointer.store().directory().toString(), checkpointer.taken(), checkpointer.fullTaken(),
            checkpointer.bytesWritten(), checkpointer.entriesWritten(), checkpointer.stateEntriesVisited(),
            Arrays.stream(ns).sum() / 1e6, parts[0] / 1e6, parts[1] / 1e6, parts[2] / 1e6,
            ns.length == 0 ? 0 : ns[ns.length / 2] / 1e6, ns.length == 0 ? 0 : ns[ns.length - 1] / 1e6, resumed, liveSource);
    }
}
