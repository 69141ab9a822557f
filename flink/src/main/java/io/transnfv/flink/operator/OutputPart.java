package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;
import org.HdrHistogram.Histogram;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    // the entries appended since the last take(), in bytes[0 .. used): written in place, one copy per entry
    private byte[] bytes = new byte[1 << 16];
    private int used;

    /** Appends a record line. */
    public synchronized void record(final long sequence, final CharSequence line)
    {
        final int n = line.length();
        ensure(13 + n);
        final byte[] b = bytes;
        int at = used;
        b[at] = RECORD;
        LONGS.set(b, at + 1, sequence);
        final int text = at + 13;
        for (int i = 0; i < n; i++)
        {
            final char c = line.charAt(i);
            if (c >= 0x80)
            {
                recordSlowPath(sequence, line);
                return;
            }
            b[text + i] = (byte)c;
        }
        INTS.set(b, at + 9, n);
        used = text + n;
    }

    /** A line that is not all ASCII: encoded as UTF-8 in full. */
    private void recordSlowPath(final long sequence, final CharSequence line)
    {
        final byte[] utf8 = line.toString().getBytes(StandardCharsets.UTF_8);
        ensure(13 + utf8.length);
        bytes[used] = RECORD;
        LONGS.set(bytes, used + 1, sequence);
        INTS.set(bytes, used + 9, utf8.length);
        System.arraycopy(utf8, 0, bytes, used + 13, utf8.length);
        used += 13 + utf8.length;
    }

    /** Appends {@code buffer}'s frame as forwarded, copied straight from the engine's buffer. */
    public synchronized void frame(final long sequence, final PacketBuffer buffer)
    {
        final int length = buffer.length();
        ensure(29 + length);
        final byte[] b = bytes;
        final int at = used;
        b[at] = FRAME;
        LONGS.set(b, at + 1, sequence);
        LONGS.set(b, at + 9, buffer.timestampNs());
        INTS.set(b, at + 17, buffer.originalLength());
        INTS.set(b, at + 21, buffer.linkType());
        INTS.set(b, at + 25, length);
        buffer.copyTo(b, at + 29, length);
        used = at + 29 + length;
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
        final ByteArrayOutputStream entry = new ByteArrayOutputStream(64 + utf8.length + histogramBytes);
        final DataOutputStream out = new DataOutputStream(entry);
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
        final byte[] written = entry.toByteArray();
        ensure(written.length);
        System.arraycopy(written, 0, bytes, used, written.length);
        used += written.length;
    }

    /** @return everything appended since the last call, and starts empty again. */
    public synchronized byte[] take()
    {
        final byte[] taken = Arrays.copyOf(bytes, used);
        used = 0;
        return taken;
    }

    private void ensure(final int more)
    {
        if (used + more > bytes.length)
        {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + more));
        }
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
