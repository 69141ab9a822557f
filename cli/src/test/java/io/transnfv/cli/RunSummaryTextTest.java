package io.transnfv.cli;

import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the text summary tells about the traffic that the JSON report also tells. */
class RunSummaryTextTest
{
    @TempDir
    Path dir;

    @Test
    void shouldCountOversizedFramesInTheTextSummary() throws IOException
    {
        final int frameBytes = PacketBuffer.DEFAULT_CAPACITY + 1000;
        final ByteBuffer pcap = ByteBuffer.allocate(24 + 16 + frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        pcap.putInt(0xa1b2c3d4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(262_144).putInt(1);
        pcap.putInt(1).putInt(0).putInt(frameBytes).putInt(frameBytes);
        final byte[] frame = new byte[frameBytes];
        frame[12] = 0x08; // EtherType IPv4
        frame[14] = 0x45;
        pcap.put(frame);
        final Path capture = Files.write(dir.resolve("jumbo.pcap"), pcap.array());

        final Captured run = Captured.run("run", "--pcap", capture.toString(), "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("oversized frames     1 (longer than the packet buffer"), run.out());
    }
}
