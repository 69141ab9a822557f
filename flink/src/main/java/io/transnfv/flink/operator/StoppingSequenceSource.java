package io.transnfv.flink.operator;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.core.io.InputStatus;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Flink's sequence source of batch numbers, held at a batch to stop with a savepoint: it emits
 * the numbers before {@code stopAt}, then emits nothing more (it stays available to checkpoint
 * barriers, and its position, the next number, is its checkpointed split as usual) and notes in
 * the output directory where it got ({@link ResumeMarks#notePaused}). The runner then stops the
 * job with a savepoint, whose cut lies exactly after batch {@code stopAt - 1}. A source that
 * stops on request also holds at the next number it would emit once the command asks for a stop
 * ({@link ResumeMarks#requestStop}, on a signal): one look at the directory per number. With
 * {@code stopAt = Long.MAX_VALUE} and no stop on request it is the plain sequence source.
 * Parallelism 1: one split.
 */
public final class StoppingSequenceSource extends NumberSequenceSource
{
    private static final long serialVersionUID = 1L;

    private final long stopAt;
    private final boolean stopOnRequest;
    private final String outputDirectory;

    /**
     * @param from            the first batch number.
     * @param to              the last batch number (inclusive).
     * @param stopAt          the batch number not to emit (and none after it); Long.MAX_VALUE to run to the end.
     * @param stopOnRequest   whether to hold at the next number once a stop is requested in the output directory.
     * @param outputDirectory where the stop is requested and noted.
     */
    public StoppingSequenceSource(final long from, final long to, final long stopAt, final boolean stopOnRequest,
        final String outputDirectory)
    {
        super(from, to);
        this.stopAt = stopAt;
        this.stopOnRequest = stopOnRequest;
        this.outputDirectory = outputDirectory;
    }

    @Override
    public SourceReader<Long, NumberSequenceSplit> createReader(final SourceReaderContext context)
    {
        final SourceReader<Long, NumberSequenceSplit> reader = super.createReader(context);
        return stopAt == Long.MAX_VALUE && !stopOnRequest ? reader : new Held(reader, stopAt, stopOnRequest, Path.of(outputDirectory));
    }

    /** The sequence reader, held at {@code stopAt} or where a stop was requested: the source task's thread only. */
    private static final class Held implements SourceReader<Long, NumberSequenceSplit>
    {
        private final SourceReader<Long, NumberSequenceSplit> reader;
        private final boolean stopOnRequest;
        private final Path directory;
        private long stopAt;
        private final CompletableFuture<Void> never = new CompletableFuture<>();
        private final Counting counting = new Counting();
        private long next = -1;
        private boolean noted;

        Held(final SourceReader<Long, NumberSequenceSplit> reader, final long stopAt, final boolean stopOnRequest, final Path directory)
        {
            this.reader = reader;
            this.stopAt = stopAt;
            this.stopOnRequest = stopOnRequest;
            this.directory = directory;
        }

        private boolean held()
        {
            if (next >= stopAt)
            {
                return true;
            }
            if (stopOnRequest && next >= 0 && ResumeMarks.stopRequested(directory))
            {
                // every number before next is emitted: the cut lies after batch next - 1
                stopAt = next;
                return true;
            }
            return false;
        }

        @Override
        public void start()
        {
            reader.start();
        }

        @Override
        public InputStatus pollNext(final ReaderOutput<Long> output) throws Exception
        {
            if (held())
            {
                if (!noted)
                {
                    noted = true;
                    ResumeMarks.notePaused(directory, stopAt);
                }
                return InputStatus.NOTHING_AVAILABLE;
            }
            counting.output = output;
            return reader.pollNext(counting);
        }

        @Override
        public List<NumberSequenceSplit> snapshotState(final long checkpointId)
        {
            return reader.snapshotState(checkpointId);
        }

        @Override
        public CompletableFuture<Void> isAvailable()
        {
            if (held())
            {
                if (!noted)
                {
                    // the next poll notes the stop: available once more for it
                    return CompletableFuture.completedFuture(null);
                }
                return never;
            }
            return reader.isAvailable();
        }

        @Override
        public void addSplits(final List<NumberSequenceSplit> splits)
        {
            for (final NumberSequenceSplit split : splits)
            {
                if (next < 0 || split.from() < next)
                {
                    next = split.from();
                }
            }
            reader.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits()
        {
            reader.notifyNoMoreSplits();
        }

        @Override
        public void notifyCheckpointComplete(final long checkpointId) throws Exception
        {
            reader.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void close() throws Exception
        {
            reader.close();
        }

        /** Passes the numbers on and keeps the next one. */
        private final class Counting implements ReaderOutput<Long>
        {
            ReaderOutput<Long> output;

            @Override
            public void collect(final Long number)
            {
                next = number + 1;
                output.collect(number);
            }

            @Override
            public void collect(final Long number, final long timestamp)
            {
                next = number + 1;
                output.collect(number, timestamp);
            }

            @Override
            public void emitWatermark(final Watermark watermark)
            {
                output.emitWatermark(watermark);
            }

            @Override
            public void markIdle()
            {
                output.markIdle();
            }

            @Override
            public void markActive()
            {
                output.markActive();
            }

            @Override
            public SourceOutput<Long> createOutputForSplit(final String splitId)
            {
                throw new UnsupportedOperationException("the sequence source emits through the reader's output");
            }

            @Override
            public void releaseOutputForSplit(final String splitId)
            {
                output.releaseOutputForSplit(splitId);
            }
        }
    }
}
