package io.transnfv.engine.checkpoint;

import io.transnfv.engine.fault.ErrorBound;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointFileTest
{
    private static final long CHAIN = 0x1234_5678_9abc_def0L;

    @TempDir
    Path dir;

    static Checkpoint randomCheckpoint(final long seed)
    {
        final Random random = new Random(seed);
        final int tables = 1 + random.nextInt(4);
        final Checkpoint.Table[] sections = new Checkpoint.Table[tables];
        for (int t = 0; t < tables; t++)
        {
            final int n = random.nextInt(500);
            final long[] keys = random.longs(n).sorted().distinct().toArray();
            final long[] values = random.longs(keys.length).toArray();
            sections[t] = new Checkpoint.Table("vnf" + t + ".table", random.nextInt(3) - 1, keys, values);
        }
        final boolean full = random.nextBoolean();
        final long id = 2 + random.nextInt(1000);
        return new Checkpoint(id, full, full ? 0 : id - 1, CHAIN, random.nextInt(1 << 30), random.nextLong(),
            List.of(new Checkpoint.Output("pcap", random.nextInt(1 << 30), random.nextInt(1 << 20)),
                new Checkpoint.Output("records", random.nextInt(1 << 30), random.nextInt(1 << 20))),
            random.longs(random.nextInt(40), 0, Long.MAX_VALUE).toArray(), List.of(), randomWindow(random), Arrays.asList(sections));
    }

    private static ErrorBound.Window randomWindow(final Random random)
    {
        if (random.nextInt(4) == 0)
        {
            return ErrorBound.Window.FRESH;
        }
        final long packets = random.nextInt(1 << 20);
        return new ErrorBound.Window(random.nextLong(), packets, packets == 0 ? 0 : random.nextLong(packets));
    }

    @Test
    void shouldReadBackEveryFieldOfWhatItWrote() throws IOException
    {
        final long seeds = Long.getLong("transnfv.property.seeds", 50);
        for (long seed = 0; seed < Math.min(seeds, 200); seed++)
        {
            final Checkpoint written = randomCheckpoint(seed);
            final Path file = dir.resolve("ckpt-" + seed);
            CheckpointFile.write(file, written);

            final Checkpoint read = CheckpointFile.read(file, CHAIN);

            assertEquals(written.id(), read.id(), "seed " + seed);
            assertEquals(written.full(), read.full());
            assertEquals(written.previousId(), read.previousId());
            assertEquals(written.inputPackets(), read.inputPackets());
            assertEquals(written.packetTimeNs(), read.packetTimeNs());
            assertEquals(written.outputs(), read.outputs());
            assertArrayEquals(written.counters(), read.counters());
            assertEquals(written.errorWindow(), read.errorWindow());
            assertEquals(written.tables().size(), read.tables().size());
            for (int t = 0; t < written.tables().size(); t++)
            {
                assertEquals(written.tables().get(t).name(), read.tables().get(t).name());
                assertEquals(written.tables().get(t).initialValue(), read.tables().get(t).initialValue());
                assertArrayEquals(written.tables().get(t).keys(), read.tables().get(t).keys());
                assertArrayEquals(written.tables().get(t).values(), read.tables().get(t).values());
            }
        }
    }

    @Test
    void shouldLeaveNoTemporaryFileBehind() throws IOException
    {
        CheckpointFile.write(dir.resolve("ckpt"), randomCheckpoint(1));

        try (var files = Files.list(dir))
        {
            assertEquals(List.of(dir.resolve("ckpt")), files.toList());
        }
    }

    @Test
    void shouldRefuseAFileWithABadChecksumNamingTheFile() throws IOException
    {
        final Path file = dir.resolve("ckpt-damaged");
        CheckpointFile.write(file, randomCheckpoint(2));
        final byte[] bytes = Files.readAllBytes(file);
        bytes[CheckpointFile.HEADER_BYTES + 3] ^= 0x10;
        Files.write(file, bytes);

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().startsWith("checkpoint " + file + ": checksum mismatch"), e.getMessage());
        assertTrue(e.getMessage().contains("\nfix: "), e.getMessage());
        assertEquals(file, e.file());
    }

    @Test
    void shouldRefuseATruncatedFileAtAnyLength() throws IOException
    {
        final Path file = dir.resolve("ckpt-cut");
        CheckpointFile.write(file, randomCheckpoint(3));
        final byte[] bytes = Files.readAllBytes(file);
        for (int length = 0; length < bytes.length; length += 1 + length / 8)
        {
            Files.write(file, Arrays.copyOf(bytes, length));

            final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

            assertTrue(e.getMessage().startsWith("checkpoint " + file + ": "), e.getMessage());
            assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("wrong magic") && length < 8,
                length + ": " + e.getMessage());
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotACheckpoint() throws IOException
    {
        final Path file = dir.resolve("ckpt-foreign");
        Files.writeString(file, "PK\u0003\u0004 a zip file, not a checkpoint at all");

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().contains(file + ": not a TransNFV checkpoint (wrong magic)"), e.getMessage());
    }

    @Test
    void shouldRefuseAnotherFormatVersion() throws IOException
    {
        final Path file = dir.resolve("ckpt-v4");
        CheckpointFile.write(file, randomCheckpoint(4));
        final byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).putShort(CheckpointFile.MAGIC.length, (short)(CheckpointFile.VERSION + 1));
        Files.write(file, bytes);

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().contains(file + ": format version 4, but this build reads versions 2 to 3"), e.getMessage());
    }

    @Test
    void shouldRefuseAVersionOneFileWrittenBeforeTheChangeLogs() throws IOException
    {
        final Path file = dir.resolve("ckpt-v1");
        CheckpointFile.write(file, randomCheckpoint(6));
        final byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).putShort(CheckpointFile.MAGIC.length, (short)1);
        Files.write(file, bytes);

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().contains(file + ": format version 1, but this build reads versions 2 to 3"), e.getMessage());
        assertTrue(e.getMessage().contains("fix: resume with the TransNFV version that wrote it, or start the run afresh"), e.getMessage());
    }

    @Test
    void shouldReadAVersionTwoFileWithAFreshErrorWindow() throws IOException
    {
        final Checkpoint written = randomCheckpoint(8);
        final byte[] v3 = CheckpointFile.toBytes(written);
        final byte[] v2 = versionTwo(v3, written);

        final Checkpoint read = CheckpointFile.decode(dir.resolve("ckpt-v2"), v2, CHAIN);

        assertEquals(ErrorBound.Window.FRESH, read.errorWindow());
        assertArrayEquals(written.counters(), read.counters());
        assertEquals(written.tables().size(), read.tables().size());
        for (int t = 0; t < written.tables().size(); t++)
        {
            assertArrayEquals(written.tables().get(t).keys(), read.tables().get(t).keys());
            assertArrayEquals(written.tables().get(t).values(), read.tables().get(t).values());
        }
    }

    /** The same checkpoint as version 2 wrote it: no error window, its own length and checksum. */
    private static byte[] versionTwo(final byte[] v3, final Checkpoint checkpoint) throws IOException
    {
        final Checkpoint noTables = new Checkpoint(checkpoint.id(), checkpoint.full(), checkpoint.previousId(), checkpoint.chainId(),
            checkpoint.inputPackets(), checkpoint.packetTimeNs(), checkpoint.outputs(), checkpoint.counters(), checkpoint.faults(),
            checkpoint.errorWindow(), List.of());
        // the window is the 3 longs before the table count, which ends the header of a checkpoint without tables
        final int windowAt = CheckpointFile.toBytes(noTables).length - CheckpointFile.TRAILER_BYTES - Integer.BYTES - 3 * Long.BYTES;
        final int body = v3.length - CheckpointFile.TRAILER_BYTES - 3 * Long.BYTES;
        final ByteBuffer v2 = ByteBuffer.allocate(body + CheckpointFile.TRAILER_BYTES);
        v2.put(v3, 0, windowAt).put(v3, windowAt + 3 * Long.BYTES, body - windowAt);
        v2.putShort(CheckpointFile.MAGIC.length, (short)2);
        v2.putLong(body);
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(v2.array(), 0, body + Long.BYTES);
        v2.putInt((int)crc.getValue());
        return v2.array();
    }

    @Test
    void shouldRefuseACheckpointOfAnotherChain() throws IOException
    {
        final Path file = dir.resolve("ckpt-other");
        CheckpointFile.write(file, randomCheckpoint(5));

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN + 1));

        assertTrue(e.getMessage().contains(file + ": written for another chain or traffic"), e.getMessage());
        assertFalse(e.getMessage().contains("checksum"), e.getMessage());
    }
}
