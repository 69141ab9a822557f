package io.transnfv.engine.checkpoint;

import io.transnfv.engine.fault.FaultLog;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The checkpoint file: one {@link Checkpoint}, big-endian, checksummed, versioned, written
 * atomically (a temporary file in the same directory, fsync, rename, fsync of the directory),
 * so a reader sees a whole checkpoint or none.
 *
 * <pre>
 *  offset  field
 *   0      magic "TNFVCKPT"                      8 bytes
 *   8      format version                        u16 ({@value #VERSION})
 *  10      kind: 0 full, 1 incremental           u8
 *  11      reserved, 0                           u8
 *  12      id, previous id, chain id             3 × i64
 *  36      input packets, packet time ns         2 × i64
 *  52      outputs: u16 n, n × (name: UTF, bytes: i64, items: i64)
 *          counters: i32 n, n × i64
 *          faults: i32 n, n × (vnf: UTF, callback: UTF, exception: UTF, packets: i64,
 *                              first packet: i64, message: u8 present + UTF, stack trace: text)
 *          tables: i32 n, n × (name: UTF, initial value: i64, whole: u8 (0 changes, 1 every entry),
 *                               entries: i32, entries × (key: i64, value: i64))
 *  end-12  body length (every byte before this field)   i64
 *  end-4   CRC32C of every byte before this field       u32
 * </pre>
 *
 * <p>{@code text} is an i32 byte count and that many bytes of UTF-8. A section of changes has its
 * keys ascending; a whole table (every section of a full checkpoint, and a table of an
 * incremental one whose change log overflowed) has them in the order the store yields them.
 * Version 1 (until the change logs) had no fault list and no whole flag; it is refused.
 *
 * <p>Keyed state per table under a versioned header: the layout a Flink job can load as one
 * keyed state per table. The writer ({@link Writer}) streams: a table's entries go to the file as
 * the store yields them, the checksum is computed on the way, nothing the size of the state is
 * held in memory. Stateless; any thread.
 */
public final class CheckpointFile
{
    /** The first eight bytes of every checkpoint. */
    public static final byte[] MAGIC = "TNFVCKPT".getBytes(StandardCharsets.US_ASCII);
    /** The format version this build writes and reads. */
    public static final int VERSION = 2;
    /** Bytes of the fixed header. */
    public static final int HEADER_BYTES = 52;
    /** Bytes of the trailer (body length and checksum). */
    public static final int TRAILER_BYTES = 12;
    /** Longest stack trace a fault carries, in bytes (a longer one is cut there). */
    static final int MAX_TRACE_BYTES = 1 << 20;

    private CheckpointFile()
    {
    }

    /**
     * Writes {@code checkpoint} to {@code file} atomically.
     *
     * @return the bytes written.
     * @throws IOException naming the file if it cannot be written.
     */
    public static long write(final Path file, final Checkpoint checkpoint) throws IOException
    {
        try (Writer writer = Writer.toFile(file))
        {
            writeAll(writer, checkpoint);
            return writer.commit();
        }
    }

    private static void writeAll(final Writer writer, final Checkpoint checkpoint) throws IOException
    {
        writer.header(checkpoint);
        writer.tables(checkpoint.tables().size());
        for (final Checkpoint.Table table : checkpoint.tables())
        {
            final long[] keys = table.keys();
            final long[] values = table.values();
            writer.beginTable(table.name(), table.initialValue(), table.whole(), keys.length);
            for (int i = 0; i < keys.length; i++)
            {
                writer.entry(keys[i], values[i]);
            }
            writer.endTable();
        }
    }

    /**
     * Writes one checkpoint in order — {@link #header}, {@link #tables}, per table
     * {@link #beginTable}, its {@link #entry entries}, {@link #endTable} — then {@link #commit}s
     * it: the trailer, and for a file fsync, rename, fsync of the directory. Closed without a
     * commit it leaves nothing under the file's name. One thread.
     */
    public static final class Writer implements AutoCloseable
    {
        private final Path file;
        private final Path tmp;
        private final FileChannel channel;
        private final ByteArrayOutputStream memory;
        private final CRC32C crc = new CRC32C();
        private final DataOutputStream out;
        private long length;
        private int tableEntries = -1;
        private int entriesLeft;
        private boolean committed;

        private Writer(final Path file, final FileChannel channel, final ByteArrayOutputStream memory)
        {
            this.file = file;
            this.tmp = file == null ? null : file.resolveSibling(file.getFileName() + ".tmp");
            this.channel = channel;
            this.memory = memory;
            final OutputStream sink = channel != null ? Channels.newOutputStream(channel) : memory;
            this.out = new DataOutputStream(new BufferedOutputStream(new OutputStream()
            {
                @Override
                public void write(final int b) throws IOException
                {
                    crc.update(b);
                    length++;
                    sink.write(b);
                }

                @Override
                public void write(final byte[] b, final int off, final int len) throws IOException
                {
                    crc.update(b, off, len);
                    length += len;
                    sink.write(b, off, len);
                }
            }, 1 << 16));
        }

        /** @return a writer to {@code file} (through its temporary file beside it). */
        public static Writer toFile(final Path file) throws IOException
        {
            final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            return new Writer(file, FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), null);
        }

        static Writer toMemory()
        {
            return new Writer(null, null, new ByteArrayOutputStream(256));
        }

        /** Writes the header, the outputs, the counters and the faults of {@code checkpoint} (its tables are not looked at). */
        public void header(final Checkpoint checkpoint) throws IOException
        {
            out.write(MAGIC);
            out.writeShort(VERSION);
            out.writeByte(checkpoint.full() ? 0 : 1);
            out.writeByte(0);
            out.writeLong(checkpoint.id());
            out.writeLong(checkpoint.previousId());
            out.writeLong(checkpoint.chainId());
            out.writeLong(checkpoint.inputPackets());
            out.writeLong(checkpoint.packetTimeNs());
            out.writeShort(checkpoint.outputs().size());
            for (final Checkpoint.Output output : checkpoint.outputs())
            {
                out.writeUTF(output.name());
                out.writeLong(output.bytes());
                out.writeLong(output.items());
            }
            out.writeInt(checkpoint.counters().length);
            for (final long counter : checkpoint.counters())
            {
                out.writeLong(counter);
            }
            out.writeInt(checkpoint.faults().size());
            for (final FaultLog.CarriedFault fault : checkpoint.faults())
            {
                out.writeUTF(fault.vnf());
                out.writeUTF(fault.callback());
                out.writeUTF(fault.exception());
                out.writeLong(fault.packets());
                out.writeLong(fault.firstSequence());
                out.writeByte(fault.message() == null ? 0 : 1);
                if (fault.message() != null)
                {
                    final String message = fault.message();
                    out.writeUTF(message.length() > 8192 ? message.substring(0, 8192) : message);
                }
                final byte[] trace = fault.stackTrace() == null ? new byte[0] : fault.stackTrace().getBytes(StandardCharsets.UTF_8);
                final int n = Math.min(trace.length, MAX_TRACE_BYTES);
                out.writeInt(n);
                out.write(trace, 0, n);
            }
        }

        /** Starts the table sections: {@code n} of them follow. */
        public void tables(final int n) throws IOException
        {
            out.writeInt(n);
        }

        /** Starts a table's section of {@code entries} entries. */
        public void beginTable(final String name, final long initialValue, final boolean whole, final int entries) throws IOException
        {
            out.writeUTF(name);
            out.writeLong(initialValue);
            out.writeByte(whole ? 1 : 0);
            out.writeInt(entries);
            tableEntries = entries;
            entriesLeft = entries;
        }

        /** One entry of the table begun. */
        public void entry(final long key, final long value) throws IOException
        {
            if (entriesLeft-- <= 0)
            {
                throw new IOException(where() + ": more entries than the " + tableEntries + " announced (the table changed while it was written)");
            }
            out.writeLong(key);
            out.writeLong(value);
        }

        /** Ends the table begun: its entries must be those announced. */
        public void endTable() throws IOException
        {
            if (entriesLeft != 0)
            {
                throw new IOException(where() + ": " + (tableEntries - entriesLeft) + " entries of the " + tableEntries
                    + " announced (the table changed while it was written)");
            }
        }

        private String where()
        {
            return "checkpoint " + (file == null ? "snapshot" : file.toString());
        }

        /**
         * Writes the trailer; for a file, fsyncs it and renames it to its name.
         *
         * @return the bytes written.
         */
        public long commit() throws IOException
        {
            out.flush();
            out.writeLong(length);
            out.flush();
            final int checksum = (int)crc.getValue();
            out.writeInt(checksum);
            out.flush();
            if (channel != null)
            {
                channel.force(true);
                channel.close();
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                syncDirectory(file.toAbsolutePath().getParent());
            }
            committed = true;
            return length;
        }

        /** @return what was written, for a writer {@link #toMemory()}. */
        byte[] bytes()
        {
            return memory.toByteArray();
        }

        @Override
        public void close() throws IOException
        {
            if (channel != null && !committed)
            {
                try
                {
                    channel.close();
                }
                finally
                {
                    Files.deleteIfExists(tmp);
                }
            }
        }
    }

    /** Makes a rename in {@code dir} durable, where the platform allows opening a directory. */
    static void syncDirectory(final Path dir)
    {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException e)
        {
            // some platforms cannot open a directory; the rename is then as durable as they make it
        }
    }

    /**
     * @return {@code checkpoint} in the file form, for a store that keeps bytes rather than files
     *         (Flink's managed state): the same header, sections and checksum as a file.
     * @throws IOException if it cannot be encoded.
     */
    public static byte[] toBytes(final Checkpoint checkpoint) throws IOException
    {
        return encode(checkpoint);
    }

    /**
     * @param what    names the bytes in an error, as a file's path would.
     * @param bytes   what {@link #toBytes} gave.
     * @param chainId the fingerprint of the chain the checkpoint must belong to.
     * @return the checkpoint the bytes hold.
     * @throws CheckpointException if they are damaged or belong to another chain.
     */
    public static Checkpoint fromBytes(final String what, final byte[] bytes, final long chainId) throws CheckpointException
    {
        return decode(Path.of(what), bytes, chainId);
    }

    /** @return the file form of {@code checkpoint}. */
    static byte[] encode(final Checkpoint checkpoint) throws IOException
    {
        try (Writer writer = Writer.toMemory())
        {
            writeAll(writer, checkpoint);
            writer.commit();
            return writer.bytes();
        }
    }

    /**
     * Reads and checks a checkpoint file.
     *
     * @param file    the file.
     * @param chainId the fingerprint of the chain being resumed; a checkpoint of another is refused.
     * @return the checkpoint.
     * @throws CheckpointException naming the file and what is wrong: missing, truncated, not a
     *                             checkpoint, another format version, a bad checksum, another chain.
     */
    public static Checkpoint read(final Path file, final long chainId) throws CheckpointException
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final NoSuchFileException e)
        {
            throw new CheckpointException(file, "the file does not exist", "resume from a directory that holds the run's checkpoints");
        }
        catch (final IOException e)
        {
            throw new CheckpointException(file, "cannot be read: " + e.getMessage(), "check the file's permissions and the disk");
        }
        return decode(file, bytes, chainId);
    }

    static Checkpoint decode(final Path file, final byte[] bytes, final long chainId) throws CheckpointException
    {
        if (bytes.length < MAGIC.length || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length))
        {
            throw new CheckpointException(file, "not a TransNFV checkpoint (wrong magic)",
                "remove files that are not checkpoints from the checkpoint directory");
        }
        if (bytes.length < HEADER_BYTES + TRAILER_BYTES)
        {
            throw new CheckpointException(file, "truncated: " + bytes.length + " bytes, shorter than any checkpoint",
                "the write was cut short; the previous checkpoint is used, or delete this file");
        }
        final ByteBuffer view = ByteBuffer.wrap(bytes);
        final int version = Short.toUnsignedInt(view.getShort(MAGIC.length));
        if (version != VERSION)
        {
            throw new CheckpointException(file, "format version " + version + ", but this build reads version " + VERSION,
                "resume with the TransNFV version that wrote it, or start the run afresh");
        }
        final long bodyLength = view.getLong(bytes.length - TRAILER_BYTES);
        if (bodyLength != bytes.length - TRAILER_BYTES)
        {
            throw new CheckpointException(file, "truncated or extended: " + bytes.length + " bytes, the trailer says "
                + (bodyLength + TRAILER_BYTES), "the write was cut short; the previous checkpoint is used, or delete this file");
        }
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        final int stored = view.getInt(bytes.length - 4);
        if ((int)crc.getValue() != stored)
        {
            throw new CheckpointException(file, String.format("checksum mismatch (stored %08x, computed %08x): the file is damaged",
                stored, (int)crc.getValue()), "the previous checkpoint is used; delete this file if it stays");
        }
        try
        {
            final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, MAGIC.length + 2,
                bytes.length - TRAILER_BYTES - MAGIC.length - 2));
            final int kind = in.readUnsignedByte();
            in.readUnsignedByte();
            final long id = in.readLong();
            final long previousId = in.readLong();
            final long chain = in.readLong();
            if (chain != chainId)
            {
                throw CheckpointException.foreign(file, chain, chainId);
            }
            final long inputPackets = in.readLong();
            final long packetTimeNs = in.readLong();
            final int outputCount = in.readUnsignedShort();
            final List<Checkpoint.Output> outputs = new ArrayList<>(outputCount);
            for (int i = 0; i < outputCount; i++)
            {
                outputs.add(new Checkpoint.Output(in.readUTF(), in.readLong(), in.readLong()));
            }
            final long[] counters = new long[count(in, file)];
            for (int i = 0; i < counters.length; i++)
            {
                counters[i] = in.readLong();
            }
            final int faultCount = count(in, file);
            final List<FaultLog.CarriedFault> faults = new ArrayList<>(Math.min(faultCount, 1024));
            for (int i = 0; i < faultCount; i++)
            {
                final String vnf = in.readUTF();
                final String callback = in.readUTF();
                final String exception = in.readUTF();
                final long packets = in.readLong();
                final long first = in.readLong();
                final int hasMessage = in.readUnsignedByte();
                final String message = hasMessage == 0 ? null : in.readUTF();
                final byte[] trace = new byte[count(in, file)];
                in.readFully(trace);
                if (hasMessage > 1 || packets < 1 || first < 0)
                {
                    throw new CheckpointException(file, "malformed: fault " + i + " of " + vnf + " (" + packets + " packets from #" + first
                        + ")", "delete this file; the previous checkpoint is used");
                }
                faults.add(new FaultLog.CarriedFault(vnf, callback, exception, packets, first, message,
                    new String(trace, StandardCharsets.UTF_8)));
            }
            final int tableCount = count(in, file);
            final List<Checkpoint.Table> tables = new ArrayList<>(tableCount);
            for (int t = 0; t < tableCount; t++)
            {
                final String name = in.readUTF();
                final long initialValue = in.readLong();
                final int whole = in.readUnsignedByte();
                if (whole > 1)
                {
                    throw new CheckpointException(file, "malformed: table " + name + " has section kind " + whole,
                        "delete this file; the previous checkpoint is used");
                }
                final int entries = count(in, file);
                final long[] keys = new long[entries];
                final long[] values = new long[entries];
                for (int i = 0; i < entries; i++)
                {
                    keys[i] = in.readLong();
                    values[i] = in.readLong();
                }
                tables.add(new Checkpoint.Table(name, initialValue, whole == 1 || kind == 0, keys, values));
            }
            if (in.available() != 0 || kind > 1)
            {
                throw new CheckpointException(file, "malformed: " + (kind > 1 ? "unknown kind " + kind : in.available()
                    + " bytes after the last table"), "delete this file; the previous checkpoint is used");
            }
            return new Checkpoint(id, kind == 0, previousId, chain, inputPackets, packetTimeNs, outputs, counters, faults, tables);
        }
        catch (final EOFException e)
        {
            throw new CheckpointException(file, "malformed: a section runs past the end of the file",
                "delete this file; the previous checkpoint is used");
        }
        catch (final IOException | IllegalArgumentException e)
        {
            if (e instanceof CheckpointException c)
            {
                throw c;
            }
            throw new CheckpointException(file, "malformed: " + e.getMessage(), "delete this file; the previous checkpoint is used");
        }
    }

    private static int count(final DataInputStream in, final Path file) throws IOException
    {
        final int n = in.readInt();
        if (n < 0 || n > in.available() + 1)
        {
            throw new CheckpointException(file, "malformed: a count of " + n + " entries", "delete this file; the previous checkpoint is used");
        }
        return n;
    }
}
