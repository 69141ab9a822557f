package io.transnfv.cli;

import io.transnfv.flink.job.FlinkStop;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * {@code --stop-with-savepoint-after PACKETS --savepoint-dir D} / {@code --from-savepoint D}: a run
 * on Flink stopped with a savepoint and resumed from it, at the same or another
 * {@code --parallelism}. Everything of the run between its jobs lives in D:
 *
 * <pre>
 *  D/savepoints/        Flink's savepoints
 *  D/outputs/           the committed output parts of the jobs so far
 *  D/stop.properties    the last stop: its savepoint, parallelism, packets read, wall time
 * </pre>
 *
 * A run with D stops there on SIGTERM or SIGINT too. A resumed run may stop again (into the same
 * D) or run to the end, which writes the run's files and marks D finished. See
 * {@code docs/flink.md#stopping-with-a-savepoint-and-rescaling}.
 */
final class FlinkSavepointOptions
{
    private static final String STOP = "stop.properties";
    private static final String FINISHED = "stop.finished";

    @Option(names = "--stop-with-savepoint-after", paramLabel = "PACKETS",
        description = "With --runtime flink: stop the job with a savepoint once PACKETS packets of the traffic are read (rounded"
            + " up to a whole --flink-batch), into --savepoint-dir (or the --from-savepoint directory); resume it with"
            + " --from-savepoint, at any --parallelism.")
    Long stopAfterPackets;

    @Option(names = "--savepoint-dir", paramLabel = "DIR",
        description = "With --runtime flink: where a stop with a savepoint goes, the one --stop-with-savepoint-after asks for"
            + " or the one SIGTERM or SIGINT asks for (exit 143 or 130): the savepoint, the outputs so far and the stop"
            + " (a new or empty directory).")
    Path savepointDir;

    @Option(names = "--from-savepoint", paramLabel = "DIR",
        description = "With --runtime flink: resume the run stopped into DIR (by --stop-with-savepoint-after or a signal),"
            + " at this --parallelism; its state is split by the chain's routing at the new parallelism. A signal stops it"
            + " into DIR again.")
    Path fromDir;

    /** @return true if the run stops or resumes. */
    boolean enabled()
    {
        return stopAfterPackets != null || savepointDir != null || fromDir != null;
    }

    /** @return true if the run stops with a savepoint after a number of packets. */
    boolean stopping()
    {
        return stopAfterPackets != null;
    }

    /** @return true if SIGTERM and SIGINT stop the run with a savepoint: it has a directory to stop into. */
    boolean stopsOnSignal()
    {
        return savepointDir != null || fromDir != null;
    }

    /**
     * Checks the options go together.
     *
     * @param flink   true for {@code --runtime flink}.
     * @param cluster the {@code --flink-cluster} given, or null.
     * @throws UsageProblem if they do not.
     */
    void check(final boolean flink, final String cluster) throws IOException
    {
        if (!enabled())
        {
            return;
        }
        if (!flink)
        {
            throw new UsageProblem(option() + " needs --runtime flink.",
                "add --runtime flink, or use --checkpoint-dir / --resume for a standalone run.");
        }
        if (cluster != null)
        {
            throw new UsageProblem(option() + " cannot be used with --flink-cluster yet.",
                "drop --flink-cluster: stops and resumes run on the MiniCluster inside transnfv.");
        }
        if (stopAfterPackets != null && stopAfterPackets < 1)
        {
            throw new UsageProblem("--stop-with-savepoint-after must be at least 1, got " + stopAfterPackets + ".",
                "e.g. --stop-with-savepoint-after 100000.");
        }
        if (stopAfterPackets != null && savepointDir == null && fromDir == null)
        {
            throw new UsageProblem("--stop-with-savepoint-after needs a directory for the savepoint.", "add --savepoint-dir DIR.");
        }
        if (fromDir != null && savepointDir != null && !fromDir.toAbsolutePath().normalize().equals(savepointDir.toAbsolutePath().normalize()))
        {
            throw new UsageProblem("a resumed run stops into the directory it resumed from (" + fromDir + "), not " + savepointDir + ".",
                "drop --savepoint-dir.");
        }
        if (fromDir != null)
        {
            if (Files.exists(fromDir.resolve(FINISHED)))
            {
                throw new UsageProblem("the run in " + fromDir + " has run to its end already: nothing is left to resume.",
                    "stop a new run with --stop-with-savepoint-after PACKETS --savepoint-dir into a new directory.");
            }
            if (!Files.isRegularFile(fromDir.resolve(STOP)))
            {
                throw new UsageProblem(fromDir + " holds no run stopped with a savepoint (no " + STOP + ").",
                    "give the --savepoint-dir of a run stopped with --stop-with-savepoint-after.");
            }
        }
        else if (Files.isDirectory(savepointDir))
        {
            try (Stream<Path> files = Files.list(savepointDir))
            {
                if (files.findAny().isPresent())
                {
                    throw new UsageProblem("--savepoint-dir " + savepointDir + " is not empty.",
                        "give a new or empty directory; to go on from the stop in it, use --from-savepoint " + savepointDir + ".");
                }
            }
        }
    }

    private String option()
    {
        return stopAfterPackets != null ? "--stop-with-savepoint-after" : savepointDir != null ? "--savepoint-dir" : "--from-savepoint";
    }

    /** @return the run's directory: the one resumed from, else the one to stop into. */
    Path directory()
    {
        return fromDir != null ? fromDir : savepointDir;
    }

    /** @return where the jobs of the run commit their outputs. */
    Path outputs()
    {
        return directory().resolve("outputs");
    }

    /** @return where Flink writes savepoints. */
    Path savepoints()
    {
        return directory().resolve("savepoints");
    }

    /** @return the stop resumed from, or null for a run that starts from its first packet. */
    FlinkStop from() throws IOException
    {
        return fromDir == null ? null : FlinkStop.read(fromDir.resolve(STOP));
    }

    /** Keeps {@code stop} in the run's directory for the next resume. */
    void stopped(final FlinkStop stop) throws IOException
    {
        stop.write(directory().resolve(STOP));
    }

    /** Marks the run's directory finished: its last stop (if any) cannot be resumed a second time. */
    void finished() throws IOException
    {
        if (Files.exists(directory().resolve(STOP)))
        {
            Files.move(directory().resolve(STOP), directory().resolve(FINISHED));
        }
        else
        {
            Files.writeString(directory().resolve(FINISHED), "the run ended without a stop\n");
        }
    }
}
