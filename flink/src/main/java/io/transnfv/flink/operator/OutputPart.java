package io.transnfv.flink.operator;

import org.HdrHistogram.Histogram;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;

/**
 * What a subtask produced between two checkpoints, in the form staged and committed by
 * {@link CommittedOutputs}: a sequence of tagged entries in the order the engine finished them.
 *
 * <pre>
 *  'R' sequence:long length:int utf8[length]                            a per-packet record (no newline)
 *  'F' sequence:long timeNs:long wireLength:int linkType:int length:int bytes[length]  a forwarded frame
 *  'E' attempt:int n:int long[n] m:int long[m] length:int utf8[length] length:int bytes[length] overflows:long lastEmitMicros:long
 *                                                                       the end: run counters, VNF counters, state dump,
 *                                                                       latency histogram (HdrHistogram, compressed), when
 *                                                                       the engine emitted its last packet (epoch micros, -1: none)
 * </pre>
 *
 * <p>The writing side is filled by the engine's egress thread and taken by the task thread; its
 * methods are synchronized.
 */
public final class OutputPart
{
    static final byte RECORD = 'R';
    static final byte FRAME = 'F';
    static final byte END = 'E';

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    private final DataOutputStream out = new DataOutputStream(bytes);

    /** Appends a record line. */
    public synchronized void record(final long sequence, final CharSequence line)
    {
        final byte[] utf8 = line.toString().getBytes(StandardCharsets.UTF_8);
        try
        {
            out.writeByte(RECORD);
            out.writeLong(sequence);
            out.writeInt(utf8.length);
            out.write(utf8);
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("an in-memory stream failed", e);
        }
    }

    /** Appends a forwarded frame. */
    public synchronized void frame(final long sequence, final long timeNs, final int wireLength, final int linkType,
        final byte[] frame, final int length)
    {
        try
        {
            out.writeByte(FRAME);
            out.writeLong(sequence);
            out.writeLong(timeNs);
            out.writeInt(wireLength);
            out.writeInt(linkType);
            out.writeInt(length);
            out.write(frame, 0, length);
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("an in-memory stream failed", e);
        }
    }

    /**
     * Appends the end of the subtask's run: its final run and VNF counters, state dump and latencies,
     * and the wall time its engine emitted its last packet (microseconds since the epoch; -1 if it
     * emitted none in this job).
     */
    public synchronized void end(final int attempt, final long[] counters, final long[] vnfCounters, final String stateDump,
        final Histogram latencyNs, final long latencyOverflows, final long lastEmitMicros)
    {
        final byte[] utf8 = stateDump.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer histogram = ByteBuffer.allocate(latencyNs.getNeededByteBufferCapacity());
        final int histogramBytes = latencyNs.encodeIntoCompressedByteBuffer(histogram);
        try
        {
            out.writeByte(END);
            out.writeInt(attempt);
            out.writeInt(counters.length);
            for (final long c : counters)
            {
                out.writeLong(c);
            }
            out.writeInt(vnfCounters.length);
            for (final long c : vnfCounters)
            {
                out.writeLong(c);
            }
            out.writeInt(utf8.length);
            out.write(utf8);
            out.writeInt(histogramBytes);
            out.write(histogram.array(), 0, histogramBytes);
            out.writeLong(latencyOverflows);
            out.writeLong(lastEmitMicros);
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("an in-memory stream failed", e);
        }
    }

    /** @return everything appended since the last call, and starts empty again. */
    public synchronized byte[] take()
    {
        final byte[] taken = bytes.toByteArray();
        bytes.reset();
        return taken;
    }

    /** Hears a part's entries, in order. */
    public interface Visitor
    {
        /** A record line. */
        void record(long sequence, String line);

        /** A forwarded frame. */
        void frame(long sequence, long timeNs, int wireLength, int linkType, byte[] frame);

        /**
         * The end of a subtask's run; {@code latencyNs} its latencies in nanoseconds, {@code lastEmitMicros}
         * when its engine emitted its last packet (epoch microseconds, -1 for none).
         */
        void end(int attempt, long[] counters, long[] vnfCounters, String stateDump, Histogram latencyNs, long latencyOverflows,
            long lastEmitMicros);
    }

    /**
     * Reads a part's entries to {@code visitor}.
     *
     * @throws IOException if the stream fails or is no part.
     */
    public static void read(final InputStream in, final Visitor visitor) throws IOException
    {
        final DataInputStream data = new DataInputStream(in);
        while (true)
        {
            final int tag = data.read();
            if (tag < 0)
            {
                return;
            }
            try
            {
                switch (tag)
                {
                    case RECORD -> visitor.record(data.readLong(), new String(data.readNBytes(data.readInt()), StandardCharsets.UTF_8));
                    case FRAME ->
                    {
                        final long sequence = data.readLong();
                        final long timeNs = data.readLong();
                        final int wire = data.readInt();
                        final int linkType = data.readInt();
                        visitor.frame(sequence, timeNs, wire, linkType, data.readNBytes(data.readInt()));
                    }
                    case END ->
                    {
                        final int attempt = data.readInt();
                        final long[] counters = readLongs(data);
                        final long[] vnfCounters = readLongs(data);
                        final String stateDump = new String(data.readNBytes(data.readInt()), StandardCharsets.UTF_8);
                        final Histogram latencyNs = readHistogram(data);
                        final long overflows = data.readLong();
                        visitor.end(attempt, counters, vnfCounters, stateDump, latencyNs, overflows, data.readLong());
                    }
                    default -> throw new IOException("not an output part: entry tag " + tag);
                }
            }
            catch (final EOFException e)
            {
                throw new IOException("output part cut short", e);
            }
        }
    }

    private static Histogram readHistogram(final DataInputStream data) throws IOException
    {
        final byte[] bytes = data.readNBytes(data.readInt());
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        }
        catch (final DataFormatException | RuntimeException e)
        {
            throw new IOException("output part's latency histogram is damaged: " + e.getMessage(), e);
        }
    }

    private static long[] readLongs(final DataInputStream data) throws IOException
    {
        final long[] values = new long[data.readInt()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = data.readLong();
        }
        return values;
    }
}
