package io.transnfv.engine.checkpoint;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 *          tables: i32 n, n × (name: UTF, initial value: i64, entries: i32,
 *                               entries × (key: i64, value: i64), keys ascending)
 *  end-12  body length (every byte before this field)   i64
 *  end-4   CRC32C of every byte before this field       u32
 * </pre>
 *
 * <p>Keyed state per table under a versioned header: the layout a Flink job can load as one
 * keyed state per table. Stateless; any thread.
 */
public final class CheckpointFile
{
    /** The first eight bytes of every checkpoint. */
    public static final byte[] MAGIC = "TNFVCKPT".getBytes(StandardCharsets.US_ASCII);
    /** The format version this build writes and reads. */
    public static final int VERSION = 1;
    /** Bytes of the fixed header. */
    public static final int HEADER_BYTES = 52;
    /** Bytes of the trailer (body length and checksum). */
    public static final int TRAILER_BYTES = 12;

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
        final byte[] bytes = encode(checkpoint);
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE))
        {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining())
            {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(file.toAbsolutePath().getParent());
        return bytes.length;
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
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream((int)Math.min(1 << 30, 256 + 16 * checkpoint.entries()));
        final DataOutputStream out = new DataOutputStream(bytes);
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
        out.writeInt(checkpoint.tables().size());
        for (final Checkpoint.Table table : checkpoint.tables())
        {
            out.writeUTF(table.name());
            out.writeLong(table.initialValue());
            final long[] keys = table.keys();
            final long[] values = table.values();
            out.writeInt(keys.length);
            for (int i = 0; i < keys.length; i++)
            {
                out.writeLong(keys[i]);
                out.writeLong(values[i]);
            }
        }
        out.writeLong(out.size());
        out.flush();
        final CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeInt((int)crc.getValue());
        out.flush();
        return bytes.toByteArray();
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
            final int tableCount = count(in, file);
            final List<Checkpoint.Table> tables = new ArrayList<>(tableCount);
            for (int t = 0; t < tableCount; t++)
            {
                final String name = in.readUTF();
                final long initialValue = in.readLong();
                final int entries = count(in, file);
                final long[] keys = new long[entries];
                final long[] values = new long[entries];
                for (int i = 0; i < entries; i++)
                {
                    keys[i] = in.readLong();
                    values[i] = in.readLong();
                }
                tables.add(new Checkpoint.Table(name, initialValue, keys, values));
            }
            if (in.available() != 0 || kind > 1)
            {
                throw new CheckpointException(file, "malformed: " + (kind > 1 ? "unknown kind " + kind : in.available()
                    + " bytes after the last table"), "delete this file; the previous checkpoint is used");
            }
            return new Checkpoint(id, kind == 0, previousId, chain, inputPackets, packetTimeNs, outputs, counters, tables);
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
