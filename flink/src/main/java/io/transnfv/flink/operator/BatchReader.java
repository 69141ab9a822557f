package io.transnfv.flink.operator;

import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.route.PacketRouter;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Turns batch number {@code k} into packets {@code k * batchPackets} to
 * {@code (k + 1) * batchPackets - 1} of the run's traffic, split by subtask: one
 * {@link PacketBatch} per subtask that receives any. Replayable: the position is the batch
 * number, which Flink's sequence source keeps in its checkpoints; after a restore the reader
 * reopens the traffic and skips to the batch asked for (a capture is read again from its start,
 * the generator regenerates). Runs as one subtask, so batches leave in arrival order, and
 * Flink keeps that order on each channel.
 */
public final class BatchReader extends RichFlatMapFunction<Long, PacketBatch>
{
    private static final long serialVersionUID = 1L;

    private final ChainSource chain;
    private final int subtasks;
    private final int batchPackets;
    private final String outputDirectory;

    private transient ChainSpec spec;
    private transient PacketRouter router;
    private transient PacketSource source;
    private transient PacketBuffer buffer;
    private transient PacketFlyweight packet;
    private transient long nextBatch;
    /** Per subtask: the bytes its last batch used, to size the next one (batches stay in the engine, so each is new). */
    private transient int[] lastBytes;
    private transient boolean firstReadNoted;

    /**
     * @param chain        the chain, whose traffic is read.
     * @param subtasks     the engines' parallelism.
     * @param batchPackets    packets per read batch.
     * @param outputDirectory the run's output directory, where the reader notes when it read its first packet.
     */
    public BatchReader(final ChainSource chain, final int subtasks, final int batchPackets, final String outputDirectory)
    {
        this.chain = chain;
        this.subtasks = subtasks;
        this.batchPackets = batchPackets;
        this.outputDirectory = outputDirectory;
    }

    @Override
    public void open(final OpenContext context) throws IOException
    {
        spec = chain.load();
        router = new PacketRouter(Partitioning.of(new ChainRuntime(spec)).routing(), subtasks);
        packet = new PacketFlyweight();
        nextBatch = -1;
        lastBytes = new int[subtasks];
        Arrays.fill(lastBytes, Math.max(1, batchPackets / subtasks) * (PacketBatch.HEADER_BYTES + 128));
    }

    @Override
    public void flatMap(final Long number, final Collector<PacketBatch> out) throws IOException
    {
        if (number != nextBatch)
        {
            reposition(number);
        }
        if (!firstReadNoted)
        {
            // after the skip of a resume or restore: the job's processing starts at its first packet read
            firstReadNoted = true;
            ResumeMarks.noteFirstRead(Path.of(outputDirectory));
        }
        final PacketBatch[] bySubtask = new PacketBatch[subtasks];
        for (int i = 0; i < batchPackets && source.next(buffer); i++)
        {
            packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
            final int subtask = router.subtaskOf(packet);
            if (bySubtask[subtask] == null)
            {
                // an eighth more than last time: most batches never grow
                bySubtask[subtask] = new PacketBatch(subtask, number, lastBytes[subtask] + (lastBytes[subtask] >> 3));
            }
            bySubtask[subtask].add(buffer);
        }
        for (final PacketBatch batch : bySubtask)
        {
            if (batch != null)
            {
                lastBytes[batch.subtask()] = batch.usedBytes();
                out.collect(batch);
            }
        }
        nextBatch = number + 1;
    }

    /** Opens the traffic again and skips to the first packet of batch {@code number}. */
    private void reposition(final long number) throws IOException
    {
        if (source != null)
        {
            source.close();
        }
        source = PacketSources.open(spec.settings().traffic());
        buffer = new PacketBuffer(BatchMemory.bufferBytes(source.maxFrameBytes()));
        final long skip = number * batchPackets;
        for (long i = 0; i < skip; i++)
        {
            if (!source.next(buffer))
            {
                break;
            }
        }
    }

    @Override
    public void close() throws IOException
    {
        if (source != null)
        {
            source.close();
        }
    }
}
