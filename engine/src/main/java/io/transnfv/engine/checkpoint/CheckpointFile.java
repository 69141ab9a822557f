package io.transnfv.engine.checkpoint;

import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.report.RunReport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
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
 *          error window: start ns, packets, faulted   3 × i64 (version 3 on)
 *          param changes: i32 n, n × (vnf: UTF, parameter: UTF, at packet: i64,
 *                                     old value: value, new value: value)   (version 4 on)
 *          checkers: checks: i64, i32 n, n × (vnf: UTF, checker: UTF, count: i64, first key: UTF,
 *                    first message: UTF, first seen: UTF, i32 k, k × (key: UTF, count: i64))
 *                    (version 5 on)
 *          tables: i32 n, n × (name: UTF, initial value: i64, whole: u8 (0 changes, 1 every entry),
 *                               entries: i32, entries × (key: i64, value: i64))
 *  end-12  body length (every byte before this field)   i64
 *  end-4   CRC32C of every byte before this field       u32
 * </pre>
 *
 * <p>{@code text} is an i32 byte count and that many bytes of UTF-8. A section of changes has its
 * keys ascending; a whole table (every section of a full checkpoint, and a table of an
 * incremental one whose change log overflowed) has them in the order the store yields them.
 * A {@code value} (a VNF parameter's, as chain YAML writes it) is a u8 tag and its payload: 0
 * none; 1 int, i32; 2 long, i64; 3 double, f64; 4 boolean, u8; 5 text; 6 list, i32 n and n values.
 * Version 4 had no checker tally (it is read, and a resumed run's checkers count from the
 * resume); version 3 had no parameter changes either (it is read as a checkpoint that does not
 * know them: see {@link Checkpoint#paramChanges()}); version 2 had no error window either (it is
 * read, and the window starts afresh); version 1 (until the change logs) had no fault list and
 * no whole flag; it is refused.
 *
 * <p>Keyed state per table under a versioned header: the layout a Flink job can load as one
 * keyed state per table. Both directions stream: the {@link Writer} sends a table's entries to
 * the file as the store yields them, the {@link Reader} hands them on as it reads them through a
 * buffer of {@link Reader#BUFFER_BYTES}; each computes the checksum on the way, and neither holds
 * anything the size of the state. Stateless; any thread.
 */
public final class CheckpointFile
{
    /** The first eight bytes of every checkpoint. */
    public static final byte[] MAGIC = "TNFVCKPT".getBytes(StandardCharsets.US_ASCII);
    /** The format version this build writes and reads. */
    public static final int VERSION = 5;
    /**
     * The oldest format version this build reads (version 4 has no checker tally: a resumed run's
     * checkers count from the resume; version 3 no parameter changes either: a resume from it
     * starts with the chain's parameters; version 2 no error window either: the window starts
     * afresh).
     */
    public static final int OLDEST_VERSION = 2;
    /** Most parameter changes a checkpoint may hold (changes are an operator's, not per packet). */
    static final int MAX_PARAM_CHANGES = 1 << 20;
    /** Deepest nesting of lists in a parameter value (YAML's parameters nest one deep). */
    static final int MAX_VALUE_DEPTH = 8;
    private static final int VALUE_NONE = 0;
    private static final int VALUE_INT = 1;
    private static final int VALUE_LONG = 2;
    private static final int VALUE_DOUBLE = 3;
    private static final int VALUE_BOOLEAN = 4;
    private static final int VALUE_TEXT = 5;
    private static final int VALUE_LIST = 6;
    /** Most run counters a checkpoint may hold (far more than any chain has). */
    static final int MAX_COUNTERS = 1 << 20;
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
            final ErrorBound.Window window = checkpoint.errorWindow();
            out.writeLong(window.startNs());
            out.writeLong(window.packets());
            out.writeLong(window.faulted());
            final List<ParamChanges.Applied> changes = checkpoint.paramChanges() == null ? List.of() : checkpoint.paramChanges();
            out.writeInt(changes.size());
            for (final ParamChanges.Applied change : changes)
            {
                out.writeUTF(change.vnf());
                out.writeUTF(change.parameter());
                out.writeLong(change.atPacket());
                writeValue(change.oldValue());
                writeValue(change.newValue());
            }
            out.writeLong(checkpoint.checkers().checks());
            out.writeInt(checkpoint.checkers().violations().size());
            for (final CheckerReport.Violation v : checkpoint.checkers().violations())
            {
                out.writeUTF(v.vnf());
                out.writeUTF(v.checker());
                out.writeLong(v.count());
                out.writeUTF(v.firstKey());
                out.writeUTF(v.firstMessage().length() > 8192 ? v.firstMessage().substring(0, 8192) : v.firstMessage());
                out.writeUTF(v.firstSeen());
                out.writeInt(v.keys().size());
                for (final RunReport.AlertSubject key : v.keys())
                {
                    out.writeUTF(key.subject());
                    out.writeLong(key.count());
                }
            }
        }

        /** A parameter's value as chain YAML writes it ({@code ParamSpec.plain}): tagged, lists nested. */
        private void writeValue(final Object value) throws IOException
        {
            if (value == null)
            {
                out.writeByte(VALUE_NONE);
            }
            else if (value instanceof Integer i)
            {
                out.writeByte(VALUE_INT);
                out.writeInt(i);
            }
            else if (value instanceof Long l)
            {
                out.writeByte(VALUE_LONG);
                out.writeLong(l);
            }
            else if (value instanceof Double d)
            {
                out.writeByte(VALUE_DOUBLE);
                out.writeDouble(d);
            }
            else if (value instanceof Boolean b)
            {
                out.writeByte(VALUE_BOOLEAN);
                out.writeByte(b ? 1 : 0);
            }
            else if (value instanceof String text)
            {
                out.writeByte(VALUE_TEXT);
                final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                out.writeInt(bytes.length);
                out.write(bytes);
            }
            else if (value instanceof List<?> list)
            {
                out.writeByte(VALUE_LIST);
                out.writeInt(list.size());
                for (final Object item : list)
                {
                    writeValue(item);
                }
            }
            else
            {
                throw new IllegalArgumentException("a parameter value of " + value.getClass().getName() + " has no checkpoint encoding: "
                    + value);
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
     * Reads and checks a checkpoint file, every entry into memory (tests, tools; a resume streams
     * through a {@link Reader} instead).
     *
     * @param file    the file.
     * @param chainId the fingerprint of the chain being resumed; a checkpoint of another is refused.
     * @return the checkpoint.
     * @throws CheckpointException naming the file and what is wrong: missing, truncated, not a
     *                             checkpoint, another format version, a bad checksum, another chain.
     */
    public static Checkpoint read(final Path file, final long chainId) throws CheckpointException
    {
        try (Reader reader = Reader.open(file, chainId))
        {
            return readAll(reader);
        }
    }

    static Checkpoint decode(final Path file, final byte[] bytes, final long chainId) throws CheckpointException
    {
        try (Reader reader = Reader.over(file, bytes.length, new ByteArrayInputStream(bytes), chainId))
        {
            return readAll(reader);
        }
    }

    private static Checkpoint readAll(final Reader reader) throws CheckpointException
    {
        final Checkpoint header = reader.header();
        final List<Checkpoint.Table> tables = new ArrayList<>(Math.min(reader.tableCount(), 1024));
        while (reader.nextTable())
        {
            final long[] keys = new long[reader.entries()];
            final long[] values = new long[keys.length];
            final int[] i = new int[1];
            reader.readEntries((key, value) ->
            {
                keys[i[0]] = key;
                values[i[0]++] = value;
            });
            tables.add(new Checkpoint.Table(reader.tableName(), reader.initialValue(), reader.whole(), keys, values));
        }
        reader.finish();
        return withTables(header, tables);
    }

    private static Checkpoint withTables(final Checkpoint header, final List<Checkpoint.Table> tables)
    {
        return new Checkpoint(header.id(), header.full(), header.previousId(), header.chainId(), header.inputPackets(),
            header.packetTimeNs(), header.outputs(), header.counters(), header.faults(), header.errorWindow(), header.paramChanges(),
            header.checkers(), tables);
    }

    /**
     * Checks a checkpoint file front to back without keeping its entries: the header, every
     * section's structure, the length and the checksum.
     *
     * @return the checkpoint with its tables' sections named but empty (name, initial value, whole
     *         flag; no entries), and the checksum a later {@link Reader} of the file must find again.
     * @throws CheckpointException as {@link #read}.
     */
    public static Verified verify(final Path file, final long chainId) throws CheckpointException
    {
        try (Reader reader = Reader.open(file, chainId))
        {
            final Checkpoint header = reader.header();
            final List<Checkpoint.Table> sections = new ArrayList<>(Math.min(reader.tableCount(), 1024));
            final long[] none = new long[0];
            while (reader.nextTable())
            {
                reader.readEntries((key, value) ->
                {
                });
                sections.add(new Checkpoint.Table(reader.tableName(), reader.initialValue(), reader.whole(), none, none));
            }
            final int checksum = reader.finish();
            return new Verified(file, withTables(header, sections), checksum);
        }
    }

    /**
     * A checkpoint file that {@link #verify} read clean.
     *
     * @param file       the file.
     * @param checkpoint its header and its tables' sections without their entries.
     * @param checksum   its CRC32C: a second reading must end with the same.
     */
    public record Verified(Path file, Checkpoint checkpoint, int checksum)
    {
    }

    /** Takes a table section's entries one by one, as they are read. */
    @FunctionalInterface
    public interface EntryConsumer
    {
        /** One entry. */
        void accept(long key, long value);
    }

    /**
     * Reads one checkpoint front to back through a buffer of {@link #BUFFER_BYTES}, whatever the
     * file's size: {@link #header}, then per table {@link #nextTable} and {@link #readEntries},
     * which hands each entry on as it is read, then {@link #finish}, which checks the length and the
     * checksum. Nothing the size of the state is held. A damaged file is refused with the most
     * telling reason: a section that does not parse (or a foreign chain id) is judged only after the
     * rest of the file has been read, so that a file that fails its checksum is called damaged,
     * not malformed or foreign. One thread.
     */
    public static final class Reader implements AutoCloseable
    {
        /** Bytes the reader buffers (and asks of its stream at most at once, stack traces aside). */
        public static final int BUFFER_BYTES = 1 << 16;

        private final Path file;
        private final long size;
        private final long chainId;
        private final InputStream source;
        private final CRC32C crc = new CRC32C();
        private final DataInputStream in;
        private int version;
        private int kind;
        private Checkpoint header;
        private int tablesLeft;
        private int tableCount;
        private String tableName;
        private long initialValue;
        private boolean whole;
        private int entries;
        private int entriesLeft;

        private Reader(final Path file, final long size, final InputStream source, final long chainId)
        {
            this.file = file;
            this.size = size;
            this.chainId = chainId;
            this.source = source;
            // a file too short for a trailer still shows its magic (then it is called truncated)
            final long bodyLength = Math.max(size - TRAILER_BYTES, Math.min(size, MAGIC.length));
            this.in = new DataInputStream(new BufferedInputStream(new InputStream()
            {
                private long position;

                @Override
                public int read() throws IOException
                {
                    if (position >= bodyLength)
                    {
                        return -1;
                    }
                    final int b = source.read();
                    if (b >= 0)
                    {
                        crc.update(b);
                        position++;
                    }
                    return b;
                }

                @Override
                public int read(final byte[] b, final int off, final int len) throws IOException
                {
                    if (position >= bodyLength)
                    {
                        return -1;
                    }
                    final int n = source.read(b, off, (int)Math.min(len, bodyLength - position));
                    if (n > 0)
                    {
                        crc.update(b, off, n);
                        position += n;
                    }
                    return n;
                }

                @Override
                public int available()
                {
                    return (int)Math.min(Integer.MAX_VALUE, bodyLength - position);
                }
            }, BUFFER_BYTES));
        }

        /**
         * Opens {@code file} and reads its header.
         *
         * @throws CheckpointException naming the file if it is missing, unreadable, not a
         *                             checkpoint, of another version, or damaged.
         */
        public static Reader open(final Path file, final long chainId) throws CheckpointException
        {
            final long size;
            final InputStream stream;
            try
            {
                size = Files.size(file);
                stream = Files.newInputStream(file);
            }
            catch (final NoSuchFileException e)
            {
                throw new CheckpointException(file, "the file does not exist", "resume from a directory that holds the run's checkpoints");
            }
            catch (final IOException e)
            {
                throw new CheckpointException(file, "cannot be read: " + e.getMessage(), "check the file's permissions and the disk");
            }
            return over(file, size, stream, chainId);
        }

        /**
         * Reads the header of a checkpoint of {@code size} bytes from {@code stream} (which the
         * reader closes).
         *
         * @param what names the checkpoint in errors.
         */
        static Reader over(final Path what, final long size, final InputStream stream, final long chainId) throws CheckpointException
        {
            final Reader reader = new Reader(what, size, stream, chainId);
            try
            {
                reader.readHeader();
                return reader;
            }
            catch (final CheckpointException | RuntimeException e)
            {
                reader.close();
                throw e;
            }
        }

        private void readHeader() throws CheckpointException
        {
            final byte[] magic = new byte[MAGIC.length];
            final int got = readUpTo(magic);
            if (got < MAGIC.length || !Arrays.equals(magic, MAGIC))
            {
                throw new CheckpointException(file, "not a TransNFV checkpoint (wrong magic)",
                    "remove files that are not checkpoints from the checkpoint directory");
            }
            if (size < HEADER_BYTES + TRAILER_BYTES)
            {
                throw new CheckpointException(file, "truncated: " + size + " bytes, shorter than any checkpoint",
                    "the write was cut short; the previous checkpoint is used, or delete this file");
            }
            try
            {
                version = in.readUnsignedShort();
            }
            catch (final IOException e)
            {
                throw refusal(e);
            }
            if (version < OLDEST_VERSION || version > VERSION)
            {
                throw new CheckpointException(file, "format version " + version + ", but this build reads versions "
                    + OLDEST_VERSION + " to " + VERSION, "resume with the TransNFV version that wrote it, or start the run afresh");
            }
            try
            {
                kind = in.readUnsignedByte();
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
                final long[] counters = new long[count(Long.BYTES, MAX_COUNTERS)];
                for (int i = 0; i < counters.length; i++)
                {
                    counters[i] = in.readLong();
                }
                final int faultCount = count(1, Integer.MAX_VALUE);
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
                    final byte[] trace = new byte[count(1, MAX_TRACE_BYTES)];
                    in.readFully(trace);
                    if (hasMessage > 1 || packets < 1 || first < 0)
                    {
                        throw new CheckpointException(file, "malformed: fault " + i + " of " + vnf + " (" + packets + " packets from #"
                            + first + ")", "delete this file; the previous checkpoint is used");
                    }
                    faults.add(new FaultLog.CarriedFault(vnf, callback, exception, packets, first, message,
                        new String(trace, StandardCharsets.UTF_8)));
                }
                ErrorBound.Window errorWindow = ErrorBound.Window.FRESH;
                if (version >= 3)
                {
                    errorWindow = new ErrorBound.Window(in.readLong(), in.readLong(), in.readLong());
                }
                List<ParamChanges.Applied> paramChanges = null;
                if (version >= 4)
                {
                    final int changeCount = count(1, MAX_PARAM_CHANGES);
                    paramChanges = new ArrayList<>(changeCount);
                    for (int i = 0; i < changeCount; i++)
                    {
                        final String vnf = in.readUTF();
                        final String parameter = in.readUTF();
                        final long atPacket = in.readLong();
                        final Object oldValue = readValue(0);
                        final Object newValue = readValue(0);
                        if (atPacket < 0 || atPacket > inputPackets)
                        {
                            throw new CheckpointException(file, "malformed: parameter change " + i + " of " + vnf + "." + parameter
                                + " at packet " + atPacket + ", outside the checkpoint's " + inputPackets + " packets",
                                "delete this file; the previous checkpoint is used");
                        }
                        paramChanges.add(new ParamChanges.Applied(vnf, parameter, oldValue, newValue, atPacket));
                    }
                }
                Checkpoint.Checkers checkers = Checkpoint.Checkers.NONE;
                if (version >= 5)
                {
                    checkers = readCheckers();
                }
                tableCount = count(1, Integer.MAX_VALUE);
                tablesLeft = tableCount;
                if (kind > 1)
                {
                    throw new CheckpointException(file, "malformed: unknown kind " + kind, "delete this file; the previous checkpoint is used");
                }
                header = new Checkpoint(id, kind == 0, previousId, chain, inputPackets, packetTimeNs, outputs, counters, faults,
                    errorWindow, paramChanges, checkers, List.of());
            }
            catch (final IOException | RuntimeException e)
            {
                throw refusal(e);
            }
        }

        private Checkpoint.Checkers readCheckers() throws IOException
        {
            final long checks = in.readLong();
            final int n = count(1, Integer.MAX_VALUE);
            final List<CheckerReport.Violation> violations = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++)
            {
                final String vnf = in.readUTF();
                final String checker = in.readUTF();
                final long count = in.readLong();
                final String firstKey = in.readUTF();
                final String firstMessage = in.readUTF();
                final String firstSeen = in.readUTF();
                final int k = count(1, Integer.MAX_VALUE);
                final List<RunReport.AlertSubject> keys = new ArrayList<>(Math.min(k, 1024));
                for (int j = 0; j < k; j++)
                {
                    keys.add(new RunReport.AlertSubject(in.readUTF(), in.readLong()));
                }
                if (count < 1 || checks < 1)
                {
                    throw new CheckpointException(file, "malformed: checker " + vnf + "." + checker + " with " + count
                        + " violations in " + checks + " checks", "delete this file; the previous checkpoint is used");
                }
                violations.add(new CheckerReport.Violation(vnf, checker, count, firstKey, firstMessage, firstSeen, keys));
            }
            return new Checkpoint.Checkers(checks, violations);
        }

        /** @return the checkpoint's header, outputs, counters, faults, error window and checker tally; no tables. */
        public Checkpoint header()
        {
            return header;
        }

        /** @return the number of table sections. */
        public int tableCount()
        {
            return tableCount;
        }

        /**
         * Moves to the next table section (the entries of the one before must have been read).
         *
         * @return false past the last one.
         */
        public boolean nextTable() throws CheckpointException
        {
            if (entriesLeft != 0)
            {
                throw new IllegalStateException("the entries of table " + tableName + " were not read");
            }
            if (tablesLeft == 0)
            {
                return false;
            }
            tablesLeft--;
            try
            {
                tableName = in.readUTF();
                initialValue = in.readLong();
                final int kindOfSection = in.readUnsignedByte();
                if (kindOfSection > 1)
                {
                    throw new CheckpointException(file, "malformed: table " + tableName + " has section kind " + kindOfSection,
                        "delete this file; the previous checkpoint is used");
                }
                whole = kindOfSection == 1 || kind == 0;
                entries = count(2 * Long.BYTES, Integer.MAX_VALUE);
                entriesLeft = entries;
                return true;
            }
            catch (final IOException | RuntimeException e)
            {
                throw refusal(e);
            }
        }

        /** @return the current table's qualified name. */
        public String tableName()
        {
            return tableName;
        }

        /** @return the current table's initial value. */
        public long initialValue()
        {
            return initialValue;
        }

        /** @return true if the current section holds the whole table. */
        public boolean whole()
        {
            return whole;
        }

        /** @return the entries of the current section. */
        public int entries()
        {
            return entries;
        }

        /** Reads the current section's entries, handing each to {@code consumer} as it is read. */
        public void readEntries(final EntryConsumer consumer) throws CheckpointException
        {
            try
            {
                while (entriesLeft > 0)
                {
                    final long key = in.readLong();
                    final long value = in.readLong();
                    entriesLeft--;
                    consumer.accept(key, value);
                }
            }
            catch (final IOException e)
            {
                throw refusal(e);
            }
        }

        /**
         * Checks that nothing follows the last section, then the trailer: the length and the checksum.
         *
         * @return the checksum.
         * @throws CheckpointException if the file is truncated, extended, damaged or malformed.
         */
        public int finish() throws CheckpointException
        {
            if (tablesLeft != 0 || entriesLeft != 0)
            {
                throw new IllegalStateException("checkpoint " + file + ": finished before its last table was read");
            }
            try
            {
                final int after = in.available();
                if (after != 0)
                {
                    throw new CheckpointException(file, "malformed: " + after + " bytes after the last table",
                        "delete this file; the previous checkpoint is used");
                }
            }
            catch (final IOException e)
            {
                throw refusal(e);
            }
            return checkTrailer();
        }

        /**
         * The reason to refuse the file, given that parsing failed with {@code cause}: reads the rest
         * of the body and the trailer first, since a length or a checksum that disagrees says more
         * (damaged) than the section that happened not to parse.
         */
        private CheckpointException refusal(final Exception cause)
        {
            try
            {
                final byte[] skip = new byte[8192];
                while (in.read(skip) >= 0)
                {
                    // only the checksum of what is left is wanted
                }
                checkTrailer();
            }
            catch (final CheckpointException damaged)
            {
                return damaged;
            }
            catch (final IOException e)
            {
                // the trailer cannot be read: the cause stands
            }
            if (cause instanceof CheckpointException c)
            {
                return c;
            }
            if (cause instanceof EOFException)
            {
                return new CheckpointException(file, "malformed: a section runs past the end of the file",
                    "delete this file; the previous checkpoint is used");
            }
            return new CheckpointException(file, "malformed: " + cause.getMessage(), "delete this file; the previous checkpoint is used");
        }

        private int checkTrailer() throws CheckpointException
        {
            final byte[] trailer = new byte[TRAILER_BYTES];
            final int got;
            try
            {
                got = readTrailer(trailer);
            }
            catch (final IOException e)
            {
                throw new CheckpointException(file, "cannot be read: " + e.getMessage(), "check the file's permissions and the disk");
            }
            final ByteBuffer view = ByteBuffer.wrap(trailer);
            final long bodyLength = view.getLong(0);
            if (got < TRAILER_BYTES || bodyLength != size - TRAILER_BYTES)
            {
                throw new CheckpointException(file, "truncated or extended: " + size + " bytes, the trailer says "
                    + (bodyLength + TRAILER_BYTES), "the write was cut short; the previous checkpoint is used, or delete this file");
            }
            crc.update(trailer, 0, Long.BYTES);
            final int stored = view.getInt(Long.BYTES);
            final int computed = (int)crc.getValue();
            if (computed != stored)
            {
                throw new CheckpointException(file, String.format("checksum mismatch (stored %08x, computed %08x): the file is damaged",
                    stored, computed), "the previous checkpoint is used; delete this file if it stays");
            }
            return computed;
        }

        private int readTrailer(final byte[] trailer) throws IOException
        {
            int got = 0;
            while (got < trailer.length)
            {
                final int n = source.read(trailer, got, trailer.length - got);
                if (n < 0)
                {
                    break;
                }
                got += n;
            }
            return got;
        }

        private int readUpTo(final byte[] bytes)
        {
            int got = 0;
            try
            {
                while (got < bytes.length)
                {
                    final int n = in.read(bytes, got, bytes.length - got);
                    if (n < 0)
                    {
                        break;
                    }
                    got += n;
                }
            }
            catch (final IOException e)
            {
                return got;
            }
            return got;
        }

        /** A count of items of at least {@code itemBytes} each: no more than the bytes left can hold, nor {@code max}. */
        /** A value {@link Writer#writeValue} wrote; {@code depth} bounds the nesting of lists. */
        private Object readValue(final int depth) throws IOException
        {
            final int tag = in.readUnsignedByte();
            switch (tag)
            {
                case VALUE_NONE:
                    return null;
                case VALUE_INT:
                    return in.readInt();
                case VALUE_LONG:
                    return in.readLong();
                case VALUE_DOUBLE:
                    return in.readDouble();
                case VALUE_BOOLEAN:
                    return in.readUnsignedByte() != 0;
                case VALUE_TEXT:
                    final byte[] bytes = new byte[count(1, Integer.MAX_VALUE)];
                    in.readFully(bytes);
                    return new String(bytes, StandardCharsets.UTF_8);
                case VALUE_LIST:
                    if (depth >= MAX_VALUE_DEPTH)
                    {
                        break;
                    }
                    final int n = count(1, Integer.MAX_VALUE);
                    final List<Object> items = new ArrayList<>(Math.min(n, 1024));
                    for (int i = 0; i < n; i++)
                    {
                        items.add(readValue(depth + 1));
                    }
                    return items;
                default:
                    break;
            }
            throw new CheckpointException(file, "malformed: a parameter value tagged " + tag + (depth >= MAX_VALUE_DEPTH
                ? " nested " + depth + " lists deep" : ""), "delete this file; the previous checkpoint is used");
        }

        private int count(final int itemBytes, final int max) throws IOException
        {
            final int n = in.readInt();
            if (n < 0 || n > max || (long)n * itemBytes > in.available() + 1L)
            {
                throw new CheckpointException(file, "malformed: a count of " + n + " entries", "delete this file; the previous checkpoint is used");
            }
            return n;
        }

        @Override
        public void close()
        {
            try
            {
                source.close();
            }
            catch (final IOException e)
            {
                // read only: nothing is lost
            }
        }
    }
}
