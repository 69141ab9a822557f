package io.transnfv.engine.batch;

import io.transnfv.engine.source.PacketBuffer;

import java.util.Locale;

/**
 * The packet buffers a batched run preallocates, and the check that they fit the heap. The
 * batched executor keeps {@link #FRAMES} batch frames in flight, each with one buffer per packet
 * of a batch plus one per held fragment a batch may let go; the fragment tracker keeps a spare
 * buffer per fragment it may hold; the ingress keeps one carry buffer:
 * <pre>
 *  bytes = (FRAMES × (batch + held) + held + 1) × buffer
 * </pre>
 * They may take at most half of the heap ({@code Runtime.maxMemory()}): the state tables, the
 * transaction logs and the rest of the run need the other half. Called once at construction
 * and once before a run allocates anything; any thread.
 */
public final class BatchMemory
{
    /** Batch frames in flight: one filling, one processing, one finishing. */
    public static final int FRAMES = 3;

    private static final long MIB = 1L << 20;

    private BatchMemory()
    {
    }

    /**
     * @param maxFrameBytes the longest frame the source may deliver.
     * @return the bytes of each packet buffer for it: a power of two, at least {@link PacketBuffer#MIN_CAPACITY}.
     */
    public static int bufferBytes(final int maxFrameBytes)
    {
        return Math.max(PacketBuffer.MIN_CAPACITY, Integer.highestOneBit(Math.max(1, maxFrameBytes - 1)) << 1);
    }

    /** @return the bytes of packet buffers a run with these batches preallocates. */
    public static long bytes(final int batchTransactions, final int maxHeldFragments, final int bufferBytes)
    {
        final long buffers = FRAMES * ((long)batchTransactions + maxHeldFragments) + maxHeldFragments + 1;
        return buffers * bufferBytes;
    }

    /** @return the largest batch whose buffers fit half of {@code maxHeapBytes}, 0 if none does. */
    public static int largestBatch(final int maxHeldFragments, final int bufferBytes, final long maxHeapBytes)
    {
        final long buffers = maxHeapBytes / 2 / bufferBytes;
        final long batch = (buffers - maxHeldFragments - 1) / FRAMES - maxHeldFragments;
        return (int)Math.max(0, Math.min(Integer.MAX_VALUE, batch));
    }

    /**
     * Rejects a batch size whose buffers do not fit half of the heap, before anything is allocated.
     *
     * @param batchTransactions the punctuation's transactions per batch.
     * @param maxHeldFragments  the fragment tracker's bound on held fragments.
     * @param bufferBytes       bytes per packet buffer ({@link #bufferBytes(int)}).
     * @param maxHeapBytes      the heap's limit, {@code Runtime.getRuntime().maxMemory()} outside tests.
     * @throws IllegalArgumentException saying the arithmetic and what to change, on a {@code fix:} line.
     */
    public static void check(
        final int batchTransactions, final int maxHeldFragments, final int bufferBytes, final long maxHeapBytes)
    {
        final long bytes = bytes(batchTransactions, maxHeldFragments, bufferBytes);
        if (bytes <= maxHeapBytes / 2)
        {
            return;
        }
        final int largest = largestBatch(maxHeldFragments, bufferBytes, maxHeapBytes);
        final long heapNeededMib = (2 * bytes + MIB - 1) / MIB;
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "batches of %,d transactions need %,d MiB of packet buffers: %d frames x (%,d packets + %,d held fragments)"
                + " + %,d fragment spares + 1 carry = %,d buffers of %,d bytes; the heap's limit is %,d MiB and the"
                + " buffers may take half of it%n    fix: lower the batch size (--batch, settings.punctuation.transactions)"
                + " to at most %,d, or raise the heap to at least %,d MiB (e.g. TRANSNFV_JAVA_OPTS=-Xmx%dm)",
            batchTransactions, (bytes + MIB - 1) / MIB, FRAMES, batchTransactions, maxHeldFragments, maxHeldFragments,
            bytes / bufferBytes, bufferBytes, maxHeapBytes / MIB, largest, heapNeededMib, heapNeededMib));
    }
}
