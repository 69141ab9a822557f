package io.transnfv.flink.job;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.operator.BatchReader;
import io.transnfv.flink.operator.EngineOperator;
import io.transnfv.flink.operator.PacketBatch;
import io.transnfv.flink.operator.PacketBatchTypeInfo;
import io.transnfv.flink.operator.ResumeMarks;
import io.transnfv.flink.operator.StoppingSequenceSource;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * Runs a chain as a Flink job on a MiniCluster started inside the process:
 *
 * <pre>
 *  NumberSequenceSource(0 .. batches-1) ─► BatchReader ─► partitionCustom(subtask) ─► EngineOperator ×N ─► discard
 *        parallelism 1                      parallelism 1                               parallelism N
 * </pre>
 *
 * At parallelism 1 the reader and the engine are chained instead (one task, batches passed by
 * reference); object reuse is on and the buffer timeout is 0.
 *
 * The outputs are committed into a directory ({@link FlinkRunResult#read}); the caller then
 * writes the run's files from them. One run at a time per runner; the caller's thread.
 */
public final class FlinkRunner
{
    /**
     * The pause before each restart of a job on a cluster: long enough for the JobManager to find a
     * killed TaskManager dead (two failed heartbeat RPCs, a second at the interval the cluster
     * scripts set) and release its slots, so that the restarts are not all spent on slots that no
     * longer exist. Embedded runs restart at once: a MiniCluster's TaskManagers do not die.
     */
    static final Duration CLUSTER_RESTART_DELAY = Duration.ofSeconds(2);

    private FlinkRunner()
    {
    }

    /**
     * Runs {@code chain} and waits for the job to end.
     *
     * @param outputDirectory an empty directory the subtasks commit their outputs into.
     * @return what the job committed, and Flink's facts about it.
     * @throws IllegalArgumentException if the chain's tables cannot be partitioned as declared.
     * @throws IOException              if the traffic cannot be read, or the job failed (its cause attached).
     */
    public static FlinkRunResult run(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings) throws IOException
    {
        return resume(chain, engines, outputDirectory, settings, null);
    }

    /**
     * Resumes a run stopped with a savepoint, at {@code settings}' parallelism (the savepoint's or
     * another), and waits for the job to end. The engines' state is split by the routing at the
     * new parallelism; the outputs committed before the stop stay in {@code outputDirectory}.
     *
     * @param outputDirectory the stopped run's output directory.
     * @param from            the stop, or null to start from the beginning.
     * @return what the whole run committed, with the pause from the stop to the first packet after it.
     * @throws IOException if the traffic cannot be read, or the job failed (e.g. state it cannot split: its cause attached).
     */
    public static FlinkRunResult resume(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings, final FlinkStop from) throws IOException
    {
        final Ended segment = runSegment(chain, engines, outputDirectory, settings, from, Long.MAX_VALUE, null, null);
        return segment.result;
    }

    /**
     * Runs {@code chain} (or resumes it {@code from} a stop) to its end, unless a stop is asked for
     * first: after {@code stopAfterPackets} packets (rounded up to a whole read batch), or at the
     * next read batch once {@code stopRequested} says so (a signal). A stop stops the job with a
     * savepoint into {@code savepointDirectory}, whose cut lies exactly after the last read batch
     * emitted, as {@link #runUntilStop}'s does.
     *
     * @param stopAfterPackets packets to read before a stop, counted from the run's first packet; Long.MAX_VALUE for none.
     * @param stopRequested    polled every few milliseconds by the caller's thread while the job runs.
     * @return the run's committed outputs if it ran to its end, else its stop.
     * @throws IllegalArgumentException if the traffic ends at or before {@code stopAfterPackets}.
     * @throws IOException              if the traffic cannot be read, or the job or its savepoint failed.
     */
    public static Ended runOrStop(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings, final FlinkStop from, final long stopAfterPackets, final Path savepointDirectory,
        final BooleanSupplier stopRequested) throws IOException
    {
        if (stopAfterPackets < 1)
        {
            throw new IllegalArgumentException("packets before a stop must be >= 1: " + stopAfterPackets);
        }
        final long stopAt = stopAfterPackets == Long.MAX_VALUE ? Long.MAX_VALUE
            : (stopAfterPackets + settings.batchPackets() - 1) / settings.batchPackets();
        return runSegment(chain, engines, outputDirectory, settings, from, stopAt, savepointDirectory, stopRequested);
    }

    /**
     * Runs {@code chain} (or resumes it {@code from} a stop) until {@code stopAfterPackets} packets
     * of its traffic are read, rounded up to a whole read batch, then stops the job with a savepoint
     * into {@code savepointDirectory}: the savepoint's cut lies exactly there, every packet before
     * it in the state and the staged outputs, none after it.
     *
     * @param stopAfterPackets packets to read before the stop, counted from the run's first packet.
     * @return the stop, to resume from.
     * @throws IllegalArgumentException if the traffic ends at or before the stop.
     * @throws IOException              if the traffic cannot be read, or the job or its savepoint failed.
     */
    public static FlinkStop runUntilStop(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings, final FlinkStop from, final long stopAfterPackets, final Path savepointDirectory)
        throws IOException
    {
        if (stopAfterPackets < 1)
        {
            throw new IllegalArgumentException("packets before a stop must be >= 1: " + stopAfterPackets);
        }
        final long stopAt = (stopAfterPackets + settings.batchPackets() - 1) / settings.batchPackets();
        return runSegment(chain, engines, outputDirectory, settings, from, stopAt, savepointDirectory, null).stop;
    }

    /**
     * What one job of a run ended with: its outputs read back when it ran to the end, or its stop.
     *
     * @param result the committed outputs of a run that ran to its end; for a stop, where the run
     *               stands at it (counters, state, latencies of the stopped job; no records).
     * @param stop   the stop with a savepoint, or null if the run ran to its end.
     */
    public record Ended(FlinkRunResult result, FlinkStop stop)
    {
    }

    private static Ended runSegment(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings, final FlinkStop from, final long stopAt, final Path savepointDirectory,
        final BooleanSupplier stopRequested) throws IOException
    {
        final Prepared job = prepare(chain, outputDirectory, settings);
        if (stopAt != Long.MAX_VALUE && stopAt >= job.batches)
        {
            throw new IllegalArgumentException("the traffic has " + job.traffic.packets + " packets, so nothing is left to resume after "
                + stopAt * settings.batchPackets() + "\nfix: stop after fewer packets");
        }
        if (from != null && stopAt != Long.MAX_VALUE && stopAt * settings.batchPackets() <= from.packets())
        {
            throw new IllegalArgumentException("the run resumes after packet " + from.packets() + ", so it cannot stop after "
                + stopAt * settings.batchPackets() + "\nfix: stop after more packets");
        }
        ResumeMarks.clear(outputDirectory);
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(job.conf);
        final StreamGraph graph = graph(env, chain, engines, outputDirectory, settings, job, stopAt, stopRequested != null);
        graph.setJobId(new JobID());
        if (from != null)
        {
            // allowNonRestoredState false: every operator of the job must find its state
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(from.savepoint(), false));
        }

        final MiniClusterConfiguration cluster = new MiniClusterConfiguration.Builder()
            .setConfiguration(job.conf)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(settings.parallelism() + 1)
            .build();
        final long startNs = System.nanoTime();
        try (MiniCluster mini = new MiniCluster(cluster))
        {
            mini.start();
            final JobID id = mini.submitJob(graph).get().getJobID();
            if (stopAt != Long.MAX_VALUE || stopRequested != null)
            {
                final CompletableFuture<JobResult> ended = mini.requestJobResult(id);
                boolean requested = false;
                while (!ResumeMarks.paused(outputDirectory) && !ended.isDone())
                {
                    if (!requested && stopRequested != null && stopRequested.getAsBoolean())
                    {
                        // after the clear above: a request made while the traffic was counted is not lost
                        ResumeMarks.requestStop(outputDirectory);
                        requested = true;
                    }
                    Thread.sleep(5);
                }
                if (!ended.isDone())
                {
                    final long stoppedAtMicros = ResumeMarks.nowMicros();
                    final String savepoint = mini.stopWithSavepoint(id, savepointDirectory.toAbsolutePath().toUri().toString(), false,
                        SavepointFormatType.CANONICAL).get();
                    failIfFailed(ended.get());
                    // read after the savepoint: a source restarted by a failure before it notes where it stopped then
                    final long batches = ResumeMarks.pausedAtBatch(outputDirectory);
                    final FlinkRunResult atStop = FlinkRunResult.readStopped(outputDirectory, job.runtime, job.partitioning,
                        settings.parallelism(), job.traffic.stats, checkpoints(mini, id), job.batches, System.nanoTime() - startNs,
                        resumed(outputDirectory, from));
                    return new Ended(atStop, new FlinkStop(savepoint, settings.parallelism(),
                        Math.min(batches * settings.batchPackets(), job.traffic.packets), stoppedAtMicros));
                }
            }
            final JobResult result = mini.requestJobResult(id).get();
            final long wallNs = System.nanoTime() - startNs;
            failIfFailed(result);
            final FlinkRunResult read = FlinkRunResult.read(outputDirectory, job.runtime, job.partitioning, settings.parallelism(),
                job.traffic.stats, checkpoints(mini, id), job.batches, wallNs, resumed(outputDirectory, from));
            return new Ended(read, null);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the Flink job ran", e);
        }
        catch (final IOException e)
        {
            throw e;
        }
        catch (final Exception e)
        {
            throw new IOException("the Flink job could not run: " + e, e);
        }
    }

    /** @return Flink's figures for the job's checkpoints, savepoints included. */
    private static FlinkCheckpoints checkpoints(final MiniCluster mini, final JobID id) throws Exception
    {
        final ArchivedExecutionGraph archived = mini.getArchivedExecutionGraph(id).get();
        return FlinkCheckpoints.of(archived.getCheckpointStatsSnapshot());
    }

    private static void failIfFailed(final JobResult result) throws IOException
    {
        if (!result.isSuccess())
        {
            final Throwable cause = result.getSerializedThrowable()
                .map(t -> t.deserializeError(FlinkRunner.class.getClassLoader())).orElse(null);
            throw new IOException("the Flink job failed: " + cause, cause);
        }
    }

    /** @return how the run resumed from {@code from}: the parallelism before and the pause; null for a run not resumed. */
    private static FlinkRunResult.Resumed resumed(final Path outputDirectory, final FlinkStop from) throws IOException
    {
        if (from == null)
        {
            return null;
        }
        final OptionalLong first = ResumeMarks.firstPacketMicros(outputDirectory);
        return new FlinkRunResult.Resumed(from.parallelism(), from.packets(),
            first.isPresent() ? first.getAsLong() - from.stoppedAtMicros() : -1);
    }

    /**
     * Runs {@code chain} on a running Flink cluster, through its JobManager's REST endpoint, and
     * waits for the job to end. The cluster's TaskManagers write into {@code outputDirectory},
     * so it must be a path they reach (on one machine, any directory; across machines, a shared
     * file system).
     *
     * @param cluster the JobManager's REST endpoint, {@code HOST:PORT}.
     * @param jobJar  the jar shipped to the cluster: the shaded {@code transnfv.jar}.
     * @throws IOException if the traffic cannot be read, the cluster cannot be reached, or the job failed.
     */
    public static FlinkRunResult runOnCluster(final String cluster, final Path jobJar, final ChainSource chain,
        final EngineFactory engines, final Path outputDirectory, final FlinkSettings settings) throws IOException
    {
        final int colon = cluster.lastIndexOf(':');
        final String host = colon < 0 ? cluster : cluster.substring(0, colon);
        final int port;
        try
        {
            port = Integer.parseInt(cluster.substring(colon + 1));
        }
        catch (final NumberFormatException | StringIndexOutOfBoundsException e)
        {
            throw new IllegalArgumentException("--flink-cluster wants HOST:PORT of the JobManager's REST endpoint, got '" + cluster
                + "'\nfix: e.g. --flink-cluster localhost:8081");
        }
        final Prepared job = prepare(chain, outputDirectory, settings);
        // a TaskManager lost on a cluster holds its slots until the JobManager finds it dead; restarts
        // without a pause would spend every attempt on those slots and fail the job
        job.conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, CLUSTER_RESTART_DELAY);
        ResumeMarks.clear(outputDirectory);
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(host, port, job.conf,
            jobJar.toAbsolutePath().toString());
        final StreamGraph graph = graph(env, chain, engines, outputDirectory, settings, job, Long.MAX_VALUE, false);
        final long startNs = System.nanoTime();
        final JobExecutionResult result;
        try
        {
            result = env.execute(graph);
        }
        catch (final Exception e)
        {
            throw new IOException("the Flink job on " + cluster + " failed: " + e, e);
        }
        final long wallNs = System.nanoTime() - startNs;
        return FlinkRunResult.read(outputDirectory, job.runtime, job.partitioning, settings.parallelism(), job.traffic.stats,
            RestCheckpointStats.of(host, port, result.getJobID()), job.batches, wallNs, null);
    }

    /** What every run works out before its job: the chain's runtime and partitioning, the traffic, the configuration. */
    private record Prepared(ChainRuntime runtime, Partitioning partitioning, Traffic traffic, long batches, Configuration conf)
    {
    }

    private static Prepared prepare(final ChainSource chain, final Path outputDirectory, final FlinkSettings settings)
        throws IOException
    {
        final ChainSpec spec = chain.load();
        final ChainRuntime runtime = new ChainRuntime(spec);
        final Partitioning partitioning = Partitioning.of(runtime);
        final Traffic traffic = countTraffic(spec);
        final long batches = (traffic.packets + settings.batchPackets() - 1) / settings.batchPackets();
        Files.createDirectories(outputDirectory);

        final Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, settings.parallelism());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, settings.parallelism() + 1);
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(settings.checkpointEveryMs()));
        // a checkpoint declined (IP fragments held at the barrier) is no failure: the next one is taken
        conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, Integer.MAX_VALUE);
        conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "jobmanager");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, settings.restartAttempts());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ZERO);
        // chained operators pass a batch by reference instead of copying it through its serializer: the reader makes a
        // new batch each time and nothing changes one once emitted
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        // a record is a whole read batch, many network buffers long: send its last, partly filled buffer at once rather
        // than after Flink's default 100 ms, which would only delay the engine that waits for it
        conf.set(ExecutionOptions.BUFFER_TIMEOUT, Duration.ZERO);
        return new Prepared(runtime, partitioning, traffic, batches, conf);
    }

    /** @return the job {@link #run} would submit for {@code chain}, not run: its graph and configuration, for tests. */
    static StreamGraph plan(final ChainSource chain, final EngineFactory engines, final Path outputDirectory,
        final FlinkSettings settings) throws IOException
    {
        final Prepared job = prepare(chain, outputDirectory, settings);
        return graph(StreamExecutionEnvironment.getExecutionEnvironment(job.conf), chain, engines, outputDirectory, settings, job,
            Long.MAX_VALUE, false);
    }

    private static StreamGraph graph(final StreamExecutionEnvironment env, final ChainSource chain, final EngineFactory engines,
        final Path outputDirectory, final FlinkSettings settings, final Prepared job, final long stopAt, final boolean stopOnRequest)
    {
        // fixed ids: a savepoint's state finds its operators again in a job of another parallelism
        final SingleOutputStreamOperator<PacketBatch> read = env.fromSource(new StoppingSequenceSource(0, Math.max(0, job.batches - 1),
                stopAt, stopOnRequest, outputDirectory.toAbsolutePath().toString()),
                WatermarkStrategy.noWatermarks(), "batch numbers")
            .uid("transnfv-batch-numbers")
            .setParallelism(1)
            .flatMap(new BatchReader(chain, settings.parallelism(), job.batches == 0 ? 0 : settings.batchPackets(),
                outputDirectory.toAbsolutePath().toString()))
            .returns(PacketBatchTypeInfo.INSTANCE)
            .uid("transnfv-read-and-route")
            .name("read and route")
            .setParallelism(1);
        // one engine: a forward edge, which Flink chains, so the reader hands each batch to the engine in its own task
        // (no serializer, no network buffers); more: each batch to the subtask the reader chose, through the network
        final DataStream<PacketBatch> routed = settings.parallelism() == 1 ? read : read.partitionCustom(new BySubtask(), new SubtaskOf());
        routed.transform("transnfv engine", Types.LONG,
                new EngineOperator(chain, engines, outputDirectory.toAbsolutePath().toString(), settings.failures()))
            .uid("transnfv-engine")
            .setParallelism(settings.parallelism())
            .sinkTo(new DiscardingSink<>())
            .uid("transnfv-discard")
            .setParallelism(settings.parallelism());
        final StreamGraph graph = env.getStreamGraph();
        graph.setJobName("transnfv " + job.runtime.spec().name());
        return graph;
    }

    /** The traffic as the run reads it: its packets (to number the batches), and what its source reported. */
    private record Traffic(long packets, SourceStats stats)
    {
    }

    /** Reads the traffic once through: a capture's packet count is not known before. */
    private static Traffic countTraffic(final ChainSpec spec) throws IOException
    {
        try (PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            final PacketBuffer buffer = new PacketBuffer(BatchMemory.bufferBytes(source.maxFrameBytes()));
            long packets = 0;
            while (source.next(buffer))
            {
                packets++;
            }
            return new Traffic(packets, source.stats());
        }
    }

    /** Routes a batch to the subtask it names. */
    private static final class BySubtask implements Partitioner<Integer>
    {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(final Integer subtask, final int subtasks)
        {
            return subtask;
        }
    }

    /** The subtask a batch is for. */
    private static final class SubtaskOf implements KeySelector<PacketBatch, Integer>
    {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(final PacketBatch batch)
        {
            return batch.subtask();
        }
    }
}
