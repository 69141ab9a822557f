package io.transnfv.engine.checkpoint;

import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        final long inputPackets = random.nextInt(1 << 30);
        return new Checkpoint(id, full, full ? 0 : id - 1, CHAIN, inputPackets, random.nextLong(),
            List.of(new Checkpoint.Output("pcap", random.nextInt(1 << 30), random.nextInt(1 << 20)),
                new Checkpoint.Output("records", random.nextInt(1 << 30), random.nextInt(1 << 20))),
            random.longs(random.nextInt(40), 0, Long.MAX_VALUE).toArray(), List.of(), randomWindow(random), randomParamChanges(random, inputPackets),
            randomCheckers(random),             Arrays.asList(sections));
    }

    /** Changes with a value of every kind a parameter has, as {@code ParamSpec.plain} gives them, and none at all. */
    private static List<ParamChanges.Applied> randomParamChanges(final Random random, final long inputPackets)
    {
        final int n = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(6);
        final List<ParamChanges.Applied> changes = new ArrayList<>(n);
        long at = 0;
        for (int i = 0; i < n; i++)
        {
            at = Math.min(inputPackets, at + random.nextInt(1000));
            changes.add(new ParamChanges.Applied("vnf" + random.nextInt(4), "p" + i, randomValue(random), randomValue(random), at));
        }
        return changes;
    }

    private static Object randomValue(final Random random)
    {
        return switch (random.nextInt(9))
        {
            case 0 -> null;
            case 1 -> random.nextInt();
            case 2 -> random.nextLong();
            case 3 -> random.nextDouble();
            case 4 -> random.nextBoolean();
            case 5 -> random.nextInt(1 << 20) + "ns";
            case 6 -> "deny udp any any \u00e9" + random.nextInt();
            case 7 -> List.of("allow tcp any any " + random.nextInt(65536), "deny any any any");
            default -> List.of(random.nextInt(65536), random.nextInt(65536));
        };
    }

    private static Checkpoint.Checkers randomCheckers(final Random random)
    {
        if (random.nextInt(3) == 0)
        {
            return Checkpoint.Checkers.NONE;
        }
        final List<CheckerReport.Violation> violations = new ArrayList<>();
        for (int v = random.nextInt(3); v >= 0; v--)
        {
            final List<RunReport.AlertSubject> keys = new ArrayList<>();
            for (int k = random.nextInt(4); k >= 0; k--)
            {
                keys.add(new RunReport.AlertSubject(Long.toHexString(random.nextLong()), 1 + random.nextInt(100)));
            }
            violations.add(new CheckerReport.Violation("vnf" + v, "checker-" + random.nextInt(9), 1 + random.nextInt(1000),
                Long.toHexString(random.nextLong()), "key holds " + random.nextInt(), "the check before packet #" + random.nextInt(1 << 20),
                keys));
        }
        return new Checkpoint.Checkers(1 + random.nextInt(1000), violations);
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
            assertEquals(written.paramChanges(), read.paramChanges());
            assertEquals(written.checkers(), read.checkers());
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
        final Path file = dir.resolve("ckpt-next");
        CheckpointFile.write(file, randomCheckpoint(4));
        final byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).putShort(CheckpointFile.MAGIC.length, (short)(CheckpointFile.VERSION + 1));
        Files.write(file, bytes);

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().contains(file + ": format version " + (CheckpointFile.VERSION + 1) + ", but this build reads versions 2 to "
            + CheckpointFile.VERSION), e.getMessage());
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

        assertTrue(e.getMessage().contains(file + ": format version 1, but this build reads versions 2 to " + CheckpointFile.VERSION),
            e.getMessage());
        assertTrue(e.getMessage().contains("fix: resume with the TransNFV version that wrote it, or start the run afresh"), e.getMessage());
    }

    @Test
    void shouldReadAVersionTwoFileWithAFreshErrorWindow() throws IOException
    {
        final Checkpoint written = withoutNewerFields(randomCheckpoint(8));
        final byte[] v2 = olderVersion(CheckpointFile.toBytes(written), written, 2);

        final Checkpoint read = CheckpointFile.decode(dir.resolve("ckpt-v2"), v2, CHAIN);

        assertEquals(ErrorBound.Window.FRESH, read.errorWindow());
        assertNull(read.paramChanges(), "a version 2 checkpoint does not know the parameter changes");
        assertEquals(Checkpoint.Checkers.NONE, read.checkers());
        assertArrayEquals(written.counters(), read.counters());
        assertEquals(written.tables().size(), read.tables().size());
        for (int t = 0; t < written.tables().size(); t++)
        {
            assertArrayEquals(written.tables().get(t).keys(), read.tables().get(t).keys());
            assertArrayEquals(written.tables().get(t).values(), read.tables().get(t).values());
        }
    }

    @Test
    void shouldReadAVersionThreeFileAsOneThatDoesNotKnowTheParameterChanges() throws IOException
    {
        final Checkpoint written = withoutNewerFields(randomCheckpoint(9));
        final byte[] v3 = olderVersion(CheckpointFile.toBytes(written), written, 3);

        final Checkpoint read = CheckpointFile.decode(dir.resolve("ckpt-v3"), v3, CHAIN);

        assertNull(read.paramChanges(), "version 3 did not record parameter changes: the resume is told so, not given none");
        assertEquals(written.errorWindow(), read.errorWindow());
        assertArrayEquals(written.counters(), read.counters());
        for (int t = 0; t < written.tables().size(); t++)
        {
            assertArrayEquals(written.tables().get(t).keys(), read.tables().get(t).keys());
            assertArrayEquals(written.tables().get(t).values(), read.tables().get(t).values());
        }
        assertEquals(Checkpoint.Checkers.NONE, read.checkers());
        assertEquals(List.of(), CheckpointFile.decode(dir.resolve("ckpt-v5"), CheckpointFile.toBytes(written), CHAIN).paramChanges(),
            "the same checkpoint in this version says: no change");
    }

    @Test
    void shouldReadAVersionFourFileWithNoCheckerTally() throws IOException
    {
        final Checkpoint written = withoutNewerFields(randomCheckpoint(11));
        final Checkpoint withChanges = new Checkpoint(written.id(), written.full(), written.previousId(), written.chainId(),
            written.inputPackets(), written.packetTimeNs(), written.outputs(), written.counters(), written.faults(),
            written.errorWindow(), List.of(new ParamChanges.Applied("lb", "candidates", 3, 1, 0)), Checkpoint.Checkers.NONE,
            written.tables());
        final byte[] v4 = olderVersion(CheckpointFile.toBytes(withChanges), withChanges, 4);

        final Checkpoint read = CheckpointFile.decode(dir.resolve("ckpt-v4"), v4, CHAIN);

        assertEquals(Checkpoint.Checkers.NONE, read.checkers());
        assertEquals(withChanges.paramChanges(), read.paramChanges(), "version 4 holds the parameter changes");
        assertArrayEquals(written.counters(), read.counters());
    }

    @Test
    void shouldRefuseAParameterChangeBeyondTheCheckpointsPackets() throws IOException
    {
        final Checkpoint base = randomCheckpoint(10);
        final Checkpoint late = new Checkpoint(base.id(), base.full(), base.previousId(), base.chainId(), base.inputPackets(),
            base.packetTimeNs(), base.outputs(), base.counters(), base.faults(), base.errorWindow(),
            List.of(new ParamChanges.Applied("lb", "candidates", 3, 1, base.inputPackets() + 1)), base.checkers(), base.tables());
        final Path file = dir.resolve("ckpt-late");
        CheckpointFile.write(file, late);

        final CheckpointException e = assertThrows(CheckpointException.class, () -> CheckpointFile.read(file, CHAIN));

        assertTrue(e.getMessage().contains("malformed: parameter change 0 of lb.candidates at packet " + (base.inputPackets() + 1)),
            e.getMessage());
    }

    /** @return {@code checkpoint} without parameter changes or a checker tally, as every older version can hold it. */
    private static Checkpoint withoutNewerFields(final Checkpoint checkpoint)
    {
        return new Checkpoint(checkpoint.id(), checkpoint.full(), checkpoint.previousId(), checkpoint.chainId(),
            checkpoint.inputPackets(), checkpoint.packetTimeNs(), checkpoint.outputs(), checkpoint.counters(), checkpoint.faults(),
            checkpoint.errorWindow(), List.of(), Checkpoint.Checkers.NONE, checkpoint.tables());
    }

    /**
     * {@code checkpoint} (with no checker tally; parameter changes only for version 4) as an older
     * version wrote it, from this version's bytes, with its own length and checksum: version 4
     * without the checker tally, version 3 without the parameter changes' count either (none may
     * be held), version 2 without the error window too.
     */
    private static byte[] olderVersion(final byte[] current, final Checkpoint checkpoint, final int version) throws IOException
    {
        final Checkpoint noTables = new Checkpoint(checkpoint.id(), checkpoint.full(), checkpoint.previousId(), checkpoint.chainId(),
            checkpoint.inputPackets(), checkpoint.packetTimeNs(), checkpoint.outputs(), checkpoint.counters(), checkpoint.faults(),
            checkpoint.errorWindow(), checkpoint.paramChanges(), Checkpoint.Checkers.NONE, List.of());
        // the table count ends the header of a checkpoint without tables; before it the empty tally
        // (checks, count), before that the changes, and before them the window's 3 longs
        final int tablesAt = CheckpointFile.toBytes(noTables).length - CheckpointFile.TRAILER_BYTES - Integer.BYTES;
        final int tally = Long.BYTES + Integer.BYTES;
        final int cut = tally + (version <= 3 ? Integer.BYTES : 0) + (version == 2 ? 3 * Long.BYTES : 0);
        final int cutAt = tablesAt - cut;
        final int body = current.length - CheckpointFile.TRAILER_BYTES - cut;
        final ByteBuffer older = ByteBuffer.allocate(body + CheckpointFile.TRAILER_BYTES);
        older.put(current, 0, cutAt).put(current, cutAt + cut, body - cutAt);
        older.putShort(CheckpointFile.MAGIC.length, (short)version);
        older.putLong(body);
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(older.array(), 0, body + Long.BYTES);
        older.putInt((int)crc.getValue());
        return older.array();
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
