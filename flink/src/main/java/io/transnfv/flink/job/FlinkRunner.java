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
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Runs a chain as a Flink job on a MiniCluster started inside the process:
 *
 * <pre>
 *  NumberSequenceSource(0 .. batches-1) ─► BatchReader ─► partitionCustom(subtask) ─► EngineOperator ×N ─► discard
 *        parallelism 1                      parallelism 1                               parallelism N
 * </pre>
 *
 * The outputs are committed into a directory ({@link FlinkRunResult#read}); the caller then
 * writes the run's files from them. One run at a time per runner; the caller's thread.
 */
public final class FlinkRunner
{
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

        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.fromSource(new NumberSequenceSource(0, Math.max(0, batches - 1)), WatermarkStrategy.noWatermarks(), "batch numbers")
            .setParallelism(1)
            .flatMap(new BatchReader(chain, settings.parallelism(), batches == 0 ? 0 : settings.batchPackets()))
            .name("read and route")
            .setParallelism(1)
            .partitionCustom(new BySubtask(), new SubtaskOf())
            .transform("transnfv engine", Types.LONG,
                new EngineOperator(chain, engines, outputDirectory.toAbsolutePath().toString(), settings.failures()))
            .setParallelism(settings.parallelism())
            .sinkTo(new DiscardingSink<>())
            .setParallelism(settings.parallelism());
        final StreamGraph graph = env.getStreamGraph();
        graph.setJobName("transnfv " + spec.name());
        graph.setJobId(new JobID());

        final MiniClusterConfiguration cluster = new MiniClusterConfiguration.Builder()
            .setConfiguration(conf)
            .setNumTaskManagers(1)
            .setNumSlotsPerTaskManager(settings.parallelism() + 1)
            .build();
        final long startNs = System.nanoTime();
        try (MiniCluster mini = new MiniCluster(cluster))
        {
            mini.start();
            final JobID job = mini.submitJob(graph).get().getJobID();
            final JobResult result = mini.requestJobResult(job).get();
            final long wallNs = System.nanoTime() - startNs;
            if (!result.isSuccess())
            {
                final Throwable cause = result.getSerializedThrowable()
                    .map(t -> t.deserializeError(FlinkRunner.class.getClassLoader())).orElse(null);
                throw new IOException("the Flink job failed: " + cause, cause);
            }
            final ArchivedExecutionGraph archived = mini.getArchivedExecutionGraph(job).get();
            final CheckpointStatsSnapshot checkpoints = archived.getCheckpointStatsSnapshot();
            final long completed = checkpoints == null ? 0 : checkpoints.getCounts().getNumberOfCompletedCheckpoints();
            final long failed = checkpoints == null ? 0 : checkpoints.getCounts().getNumberOfFailedCheckpoints();
            return FlinkRunResult.read(outputDirectory, runtime, partitioning, settings.parallelism(), traffic.stats, completed,
                failed, batches, wallNs);
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
            return batch.subtask;
        }
    }
}
