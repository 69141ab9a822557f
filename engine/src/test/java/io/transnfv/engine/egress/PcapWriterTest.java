package io.transnfv.engine.egress;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.packet.LinkType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapWriterTest
{
    @TempDir
    Path tempDir;

    @Test
    void shouldRoundTripBytesTimestampsAndLengths() throws IOException, URISyntaxException
    {
        final Path original = Path.of(PcapWriterTest.class.getResource("/traces/WebattackXSS.pcap").toURI());
        final Path copy = tempDir.resolve("copy.pcap");
        try (PcapSource source = PcapSource.open(original); PcapWriter writer = PcapWriter.create(copy))
        {
            final PacketBuffer buffer = new PacketBuffer();
            while (source.next(buffer))
            {
                writer.write(buffer);
            }
            assertEquals(9374, writer.packets());
        }
        final PacketBuffer a = new PacketBuffer();
        final PacketBuffer b = new PacketBuffer();
        try (PcapSource left = PcapSource.open(original); PcapSource right = PcapSource.open(copy))
        {
            long count = 0;
            while (left.next(a))
            {
                assertTrue(right.next(b), "packet " + count);
                assertEquals(a.timestampNs(), b.timestampNs(), "packet " + count);
                assertEquals(a.originalLength(), b.originalLength(), "packet " + count);
                assertArrayEquals(Arrays.copyOf(a.data(), a.length()), Arrays.copyOf(b.data(), b.length()), "packet " + count);
                count++;
            }
            assertFalse(right.next(b));
            assertEquals(9374, count);
            assertTrue(right.describe().contains("ns timestamps"), right.describe());
        }
    }

    @Test
    void shouldResumeACheckpointedCaptureInItsOwnLinkTypeCutBackToWhatWasCommitted() throws IOException, URISyntaxException
    {
        final Path original = Path.of(PcapWriterTest.class.getResource("/traces/webattack-sll-snap96.pcap").toURI());
        final PacketBuffer[] frames = {new PacketBuffer(), new PacketBuffer(), new PacketBuffer()};
        try (PcapSource source = PcapSource.open(original))
        {
            for (final PacketBuffer frame : frames)
            {
                assertTrue(source.next(frame));
                assertEquals(LinkType.LINUX_SLL, frame.linkType());
            }
        }
        final Path out = tempDir.resolve("out.pcap");
        final Checkpoint.Output committed;
        try (PcapWriter writer = PcapWriter.create(out))
        {
            assertEquals(new Checkpoint.Output("pcap", 0, 0), writer.commit(), "before the first frame nothing is committed");
            writer.write(frames[0]);
            writer.write(frames[1]);
            committed = writer.commit();
            writer.write(frames[2]);
            writer.write(frames[2]);
        }
        try (PcapWriter writer = PcapWriter.resume(out, committed))
        {
            assertEquals(2, writer.packets());
            writer.write(frames[2]);
        }
        final PacketBuffer read = new PacketBuffer();
        try (PcapSource copy = PcapSource.open(out))
        {
            for (final PacketBuffer frame : frames)
            {
                assertTrue(copy.next(read));
                assertEquals(LinkType.LINUX_SLL, read.linkType());
                assertEquals(frame.originalLength(), read.originalLength());
                assertArrayEquals(Arrays.copyOf(frame.data(), frame.length()), Arrays.copyOf(read.data(), read.length()));
            }
            assertFalse(copy.next(read), "the uncommitted frames were cut off");
        }
    }

    @Test
    void shouldWriteAFrameAttachedToDirectMemoryAsItWritesACopiedOne() throws IOException
    {
        final byte[] frame = new byte[60];
        for (int i = 0; i < frame.length; i++)
        {
            frame[i] = (byte)(i * 7);
        }
        final PacketBuffer owned = new PacketBuffer();
        System.arraycopy(frame, 0, owned.data(), 0, frame.length);
        owned.commit(frame.length, 70, 1_000L, 0);
        final PacketBuffer attached = new PacketBuffer();
        final ByteBuffer direct = ByteBuffer.allocateDirect(300);
        direct.put(129, frame);
        attached.attach(direct, 129, frame.length, 70, 1_000L, 0);

        final Path a = tempDir.resolve("owned.pcap");
        final Path b = tempDir.resolve("attached.pcap");
        try (PcapWriter left = PcapWriter.create(a); PcapWriter right = PcapWriter.create(b))
        {
            left.write(owned);
            right.write(attached);
        }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void shouldWriteNanosecondTimestampsExactly() throws IOException
    {
        final Path file = tempDir.resolve("ns.pcap");
        final byte[] frame = new byte[60];
        try (PcapWriter writer = PcapWriter.create(file))
        {
            writer.write(frame, 0, 60, 1_700_000_000_123_456_789L, 64);
        }
        try (PcapSource source = PcapSource.open(file))
        {
            final PacketBuffer buffer = new PacketBuffer();
            assertTrue(source.next(buffer));
            assertEquals(1_700_000_000_123_456_789L, buffer.timestampNs());
            assertEquals(64, buffer.originalLength());
            assertEquals(60, buffer.length());
        }
    }
}
