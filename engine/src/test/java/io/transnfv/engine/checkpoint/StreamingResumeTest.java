package io.transnfv.engine.checkpoint;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.ChangeTrackingState;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A resume streams its checkpoint files: entries are applied as they are read, through a buffer
 * of a fixed size, and the checksum is verified without holding the file. Counted, not timed: the
 * bytes the reader asks of its stream at once, and the bytes the resuming thread allocates.
 */
class StreamingResumeTest
{
    private static final long CHAIN = 4242;
    /** 16 MiB of entries: far more than the reader's buffer. */
    private static final int ENTRIES = 1 << 20;

    @TempDir
    Path dir;

    private static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("fw", new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0, "connections"));
        catalog.add("lb", new TableSpec("load", TableScope.CROSS_FLOW, KeyKind.FLOW, -1, "load"));
        return catalog;
    }

    private CheckpointSettings settings()
    {
        return new CheckpointSettings(dir.resolve("ckpt"), 1, 0, 1);
    }

    @Test
    void shouldResumeACheckpointManyTimesTheReadersBufferWithoutAllocatingItsSize() throws IOException
    {
        final Checkpointer writer = Checkpointer.start(settings(), CHAIN, catalog());
        final SyntheticState written = new SyntheticState(ENTRIES);
        writer.restore(written);
        writer.take(written, 1, 1, new long[0]);
        final long fileBytes = writer.bytesWritten();
        assertTrue(fileBytes > 16L * ENTRIES, "the checkpoint holds every entry: " + fileBytes + " bytes");

        final SyntheticState restored = new SyntheticState(0);
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final List<CheckpointException> refused = new ArrayList<>();
        final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        final Checkpointer resumed = Checkpointer.resume(settings(), CHAIN, catalog(), refused::add);
        resumed.restore(restored);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;

        assertEquals(List.of(), refused);
        assertEquals(ENTRIES, restored.puts, "every entry applied");
        assertEquals(written.expectedFold(), restored.fold, "the entries written, in the order written");
        // reading the file whole (or its entries into arrays) allocates at least its size
        assertTrue(allocated < fileBytes / 8, "the resume allocated " + allocated + " bytes for a checkpoint of " + fileBytes);
    }

    @Test
    void shouldAskItsStreamForNoMoreThanItsBufferAtOnceAndHandOnEntriesBeforeTheEnd() throws IOException
    {
        final Path file = dir.resolve("ckpt");
        final SyntheticState state = new SyntheticState(ENTRIES);
        try (CheckpointFile.Writer writer = CheckpointFile.Writer.toFile(file))
        {
            writer.header(new Checkpoint(1, true, 0, CHAIN, 1, 1, List.of(), new long[0], List.of()));
            writer.tables(1);
            writer.beginTable("fw.connections", 0, true, ENTRIES);
            for (int i = 0; i < ENTRIES; i++)
            {
                writer.entry(state.key(i), state.value(i));
            }
            writer.endTable();
            writer.commit();
        }
        final long size = Files.size(file);
        final RecordingStream stream = new RecordingStream(Files.newInputStream(file));
        final long[] readWhenFirstEntryCame = {-1};
        final long[] entries = {0};

        try (CheckpointFile.Reader reader = CheckpointFile.Reader.over(file, size, stream, CHAIN))
        {
            while (reader.nextTable())
            {
                reader.readEntries((key, value) ->
                {
                    if (entries[0]++ == 0)
                    {
                        readWhenFirstEntryCame[0] = stream.total;
                    }
                    assertEquals(state.key((int)(entries[0] - 1)), key);
                });
            }
            reader.finish();
        }

        assertEquals(ENTRIES, entries[0]);
        assertEquals(size, stream.total, "the whole file was read, the trailer included");
        assertTrue(stream.largestRequest <= CheckpointFile.Reader.BUFFER_BYTES, "asked for " + stream.largestRequest + " bytes at once");
        assertTrue(readWhenFirstEntryCame[0] <= CheckpointFile.Reader.BUFFER_BYTES,
            "the first entry was handed on after " + readWhenFirstEntryCame[0] + " of " + size + " bytes");
    }

    @Test
    void shouldRefuseAFileDamagedAfterItsFirstBufferAsDamagedNotMalformed() throws IOException
    {
        final Path file = dir.resolve("ckpt");
        final SyntheticState state = new SyntheticState(ENTRIES / 16);
        try (CheckpointFile.Writer writer = CheckpointFile.Writer.toFile(file))
        {
            writer.header(new Checkpoint(1, true, 0, CHAIN, 1, 1, List.of(), new long[0], List.of()));
            writer.tables(1);
            writer.beginTable("fw.connections", 0, true, ENTRIES / 16);
            for (int i = 0; i < ENTRIES / 16; i++)
            {
                writer.entry(state.key(i), state.value(i));
            }
            writer.endTable();
            writer.commit();
        }
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 1000] ^= 0x01;
        Files.write(file, bytes);

        final CheckpointException e = org.junit.jupiter.api.Assertions.assertThrows(CheckpointException.class,
            () -> CheckpointFile.verify(file, CHAIN));

        assertTrue(e.getMessage().startsWith("checkpoint " + file + ": checksum mismatch"), e.getMessage());
    }

    /** Counts what is asked of the stream. */
    private static final class RecordingStream extends FilterInputStream
    {
        long total;
        int largestRequest;

        RecordingStream(final InputStream in)
        {
            super(in);
        }

        @Override
        public int read() throws IOException
        {
            final int b = super.read();
            total += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException
        {
            largestRequest = Math.max(largestRequest, len);
            final int n = super.read(b, off, len);
            total += Math.max(n, 0);
            return n;
        }
    }

    /**
     * A table too large to copy cheaply: table 0's entries are made up as they are visited, and a
     * restore folds what it is given into a hash instead of keeping it. Table 1 is empty.
     */
    private static final class SyntheticState implements ChangeTrackingState
    {
        private final int entries;
        long puts;
        long fold = 1;

        SyntheticState(final int entries)
        {
            this.entries = entries;
        }

        long key(final int i)
        {
            return (i + 1L) * 0x9E3779B97F4A7C15L;
        }

        long value(final int i)
        {
            return i ^ 0x5DEECE66DL;
        }

        long expectedFold()
        {
            long f = 1;
            for (int i = 0; i < entries; i++)
            {
                f = f * 31 + key(i) * 17 + value(i);
            }
            return f;
        }

        @Override
        public void put(final int table, final long key, final long value)
        {
            puts++;
            fold = fold * 31 + key * 17 + value;
        }

        @Override
        public long get(final int table, final long key)
        {
            return 0;
        }

        @Override
        public void forEach(final int table, final EntryVisitor visitor)
        {
            forEachEntry(table, visitor);
        }

        @Override
        public int size(final int table)
        {
            return table == 0 ? entries : 0;
        }

        @Override
        public boolean trackChanges()
        {
            // every checkpoint writes the tables whole
            return false;
        }

        @Override
        public int changedKeyCount(final int table)
        {
            return -1;
        }

        @Override
        public void copyChangedKeys(final int table, final long[] out)
        {
        }

        @Override
        public void forgetChanges(final int table)
        {
        }

        @Override
        public void forEachEntry(final int table, final EntryVisitor visitor)
        {
            for (int i = 0; table == 0 && i < entries; i++)
            {
                visitor.visit(key(i), value(i));
            }
        }

        @Override
        public long changeLogSlots()
        {
            return 0;
        }
    }
}
