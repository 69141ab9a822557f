package io.transnfv.engine.batch;

/**
 * How long the last batch took to process, from the worker that finished it to the IO role,
 * which owns the {@link Punctuation} and feeds it there: the punctuation sizes batches from
 * what processing them costs. Only the newest batch counts; a batch the IO role did not see
 * before the next one finished is skipped, as a feedback a batch late would be.
 *
 * <p>Threads: {@link #batchStarted} and {@link #batchProcessed} by the worker holding the engine
 * (one at a time); {@link #applyTo} by the IO role. The count is written last, so the IO role
 * that sees it move sees the figures written before it.
 */
public final class ProcessingFeedback
{
    private long batchStartNs;
    private volatile long processedBatches;
    private volatile long lastProcessingNs;
    private volatile int lastProcessedPackets;
    /** The IO role's: the processed count it fed the punctuation last. */
    private long appliedFeedback;

    /** The worker holding the engine starts a batch now. */
    public void batchStarted()
    {
        batchStartNs = System.nanoTime();
    }

    /** The batch started last is through the chain with {@code packets} packets. */
    public void batchProcessed(final int packets)
    {
        lastProcessingNs = System.nanoTime() - batchStartNs;
        lastProcessedPackets = packets;
        processedBatches = processedBatches + 1;
    }

    /** The IO role: feeds the latest processing time measured by the workers to {@code punctuation}, if a batch finished since. */
    public void applyTo(final Punctuation punctuation)
    {
        final long processed = processedBatches;
        if (processed != appliedFeedback)
        {
            appliedFeedback = processed;
            punctuation.onProcessed(lastProcessedPackets, lastProcessingNs);
        }
    }
}
