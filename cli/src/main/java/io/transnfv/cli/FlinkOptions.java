package io.transnfv.cli;

import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.job.FlinkSettings;
import io.transnfv.flink.operator.FailurePlan;
import picocli.CommandLine.Option;

import io.transnfv.flink.ChainSource;
import io.transnfv.flink.job.FlinkRunResult;
import io.transnfv.flink.job.FlinkRunner;
import io.transnfv.flink.job.FlinkStop;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/** Options of the commands that can run a chain on Apache Flink instead of standalone. */
final class FlinkOptions
{
    @Option(names = "--runtime", paramLabel = "standalone|flink", defaultValue = "standalone",
        description = {"Where the engine runs (default: ${DEFAULT-VALUE}). flink: as an Apache Flink job on a MiniCluster"
            + " inside this process, one engine per subtask, packets routed by the key the chain's tables allow,"
            + " state and outputs committed at Flink checkpoints (docs/flink.md)."})
    String runtime;

    @Option(names = "--parallelism", paramLabel = "N", defaultValue = "2",
        description = "With --runtime flink: engines (Flink subtasks) (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(names = "--flink-batch", paramLabel = "PACKETS", defaultValue = "" + FlinkSettings.DEFAULT_BATCH_PACKETS,
        description = "With --runtime flink: packets per batch moved between Flink operators (default: ${DEFAULT-VALUE}).")
    int batchPackets;

    @Option(names = "--flink-checkpoint-every", paramLabel = "DURATION", defaultValue = "500ms",
        description = "With --runtime flink: Flink's checkpoint interval in wall time, at least 10ms (default: ${DEFAULT-VALUE}).")
    String checkpointEvery;

    @Option(names = "--flink-cluster", paramLabel = "HOST:PORT",
        description = "With --runtime flink: submit the job to the running Flink cluster whose JobManager's REST endpoint is"
            + " HOST:PORT, shipping transnfv.jar, instead of starting one in this process (docs/flink.md#on-a-cluster).")
    String cluster;

    /**
     * Runs the chain as the options say: on the cluster given, or on a MiniCluster in this process.
     *
     * @throws UsageProblem if the chain's tables cannot be partitioned as declared, or the cluster address is bad.
     */
    FlinkRunResult run(final ChainSource chain, final EngineFactory engines, final Path work) throws IOException
    {
        try
        {
            return cluster == null ? FlinkRunner.run(chain, engines, work, settings())
                : FlinkRunner.runOnCluster(cluster, jobJar(), chain, engines, work, settings());
        }
        catch (final IllegalArgumentException e)
        {
            throw cannotRun(e);
        }
    }

    /**
     * Runs the chain, or resumes it {@code from} a stop, until {@code packets} packets are read,
     * then stops it with a savepoint into {@code savepoints}.
     *
     * @throws UsageProblem if the chain cannot be partitioned, or the traffic ends before the stop.
     */
    FlinkStop runUntilStop(final ChainSource chain, final EngineFactory engines, final Path work, final FlinkStop from,
        final long packets, final Path savepoints) throws IOException
    {
        try
        {
            return FlinkRunner.runUntilStop(chain, engines, work, settings(), from, packets, savepoints);
        }
        catch (final IllegalArgumentException e)
        {
            throw cannotRun(e);
        }
    }

    /**
     * Runs the chain (or resumes it {@code from} a stop) on a MiniCluster in this process until
     * its end, or until a stop: after {@code packets} packets (Long.MAX_VALUE for none) or once
     * {@code stopRequested} says so (a signal); a stop goes into {@code savepoints}.
     *
     * @throws UsageProblem if the chain cannot be partitioned, or the traffic ends before the stop.
     */
    FlinkRunner.Ended runOrStop(final ChainSource chain, final EngineFactory engines, final Path work, final FlinkStop from,
        final long packets, final Path savepoints, final BooleanSupplier stopRequested) throws IOException
    {
        try
        {
            return FlinkRunner.runOrStop(chain, engines, work, settings(), from, packets, savepoints, stopRequested);
        }
        catch (final IllegalArgumentException e)
        {
            throw cannotRun(e);
        }
    }

    /**
     * Resumes the chain {@code from} a stop and runs it to the end.
     *
     * @throws UsageProblem if the chain cannot be partitioned.
     */
    FlinkRunResult resume(final ChainSource chain, final EngineFactory engines, final Path work, final FlinkStop from)
        throws IOException
    {
        try
        {
            return FlinkRunner.resume(chain, engines, work, settings(), from);
        }
        catch (final IllegalArgumentException e)
        {
            throw cannotRun(e);
        }
    }

    private static UsageProblem cannotRun(final IllegalArgumentException e)
    {
        final String message = e.getMessage();
        final int fix = message.indexOf("\nfix: ");
        return fix < 0 ? new UsageProblem("the chain cannot run on Flink: " + message, "see docs/flink.md#partitioning")
            : new UsageProblem("the chain cannot run on Flink: " + message.substring(0, fix), message.substring(fix + 6));
    }

    /** @return the jar this command runs from, shipped to a cluster. */
    private static Path jobJar()
    {
        try
        {
            final Path code = Path.of(FlinkOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(code) && code.toString().endsWith(".jar"))
            {
                return code;
            }
        }
        catch (final URISyntaxException | SecurityException e)
        {
            // not from a jar: refused below
        }
        throw new UsageProblem("--flink-cluster ships the jar transnfv runs from, but it does not run from a jar.",
            "run the shaded jar: java -jar cli/target/transnfv.jar run ... --runtime flink --flink-cluster HOST:PORT");
    }

    /**
     * @return true for {@code --runtime flink}.
     * @throws UsageProblem for a runtime that is neither.
     */
    boolean enabled()
    {
        return switch (runtime.toLowerCase(Locale.ROOT))
        {
            case "standalone" -> false;
            case "flink" -> true;
            default -> throw new UsageProblem("--runtime must be standalone or flink, got '" + runtime + "'.",
                "--runtime flink --parallelism 2 runs the chain as a Flink job; leave --runtime out to run standalone.");
        };
    }

    /** @return the run's Flink settings; a usage problem for values that cannot work. */
    FlinkSettings settings()
    {
        if (parallelism < 1 || parallelism > 256)
        {
            throw new UsageProblem("--parallelism must be 1 to 256, got " + parallelism + ".", "e.g. --parallelism 2.");
        }
        if (batchPackets < 1)
        {
            throw new UsageProblem("--flink-batch must be at least 1, got " + batchPackets + ".", "e.g. --flink-batch 1024.");
        }
        final long[] every;
        try
        {
            every = CheckpointSettings.parseInterval(checkpointEvery);
        }
        catch (final IllegalArgumentException e)
        {
            throw new UsageProblem("--flink-checkpoint-every: " + e.getMessage(), "e.g. --flink-checkpoint-every 500ms.");
        }
        final long everyMs = every[1] / 1_000_000;
        if (every[1] == 0 || everyMs < 10)
        {
            throw new UsageProblem("--flink-checkpoint-every must be a duration of at least 10ms, got '" + checkpointEvery + "'.",
                "e.g. --flink-checkpoint-every 500ms.");
        }
        return new FlinkSettings(parallelism, batchPackets, everyMs, FlinkSettings.DEFAULT_RESTART_ATTEMPTS, FailurePlan.NONE);
    }

    /** @return the engine each subtask runs: the executor the options chose. */
    static EngineFactory engines(final ExecutorOptions.Kind kind, final String strategy)
    {
        return chain -> ExecutorOptions.create(kind, strategy, chain);
    }
}
