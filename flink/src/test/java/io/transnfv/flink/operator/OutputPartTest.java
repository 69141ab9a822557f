package io.transnfv.flink.operator;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.LinkType;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class OutputPartTest
{
    @Test
    void shouldReadBackEveryRecordFrameAndTheEndInTheOrderWritten() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(11);
        final OutputPart part = new OutputPart();
        final List<String> lines = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        final PacketBuffer buffer = new PacketBuffer(PacketBuffer.MIN_CAPACITY);
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < 2_000; i++)
        {
            line.setLength(0);
            line.append(i).append(" lb forward ").append(random.nextLong());
            if (i % 97 == 0)
            {
                line.append(" tag=café→∑"); // not ASCII: encoded as UTF-8 in full
            }
            part.record(i, line);
            lines.add(line.toString());
            final int length = random.nextInt(0, 1_500);
            for (int b = 0; b < length; b++)
            {
                buffer.data()[b] = (byte)random.nextInt(256);
            }
            buffer.commit(length, length + 4, 1_000L * i, i);
            buffer.linkType(i % 2 == 0 ? LinkType.ETHERNET : LinkType.LINUX_SLL);
            part.frame(i, buffer);
            frames.add(Arrays.copyOf(buffer.data(), length));
        }
        final Histogram latency = new Histogram(3);
        latency.recordValue(1234);
        part.end(2, new long[] {1, 2, 3}, new long[] {4}, "lb.connections 7 8\n", latency, 5, 99);

        final List<String> readLines = new ArrayList<>();
        final long[] ends = new long[3];
        OutputPart.read(new ByteArrayInputStream(part.take()), new OutputPart.Visitor()
        {
            @Override
            public void record(final long sequence, final String text)
            {
                assertEquals(readLines.size(), sequence);
                readLines.add(text);
            }

            @Override
            public void frame(final long sequence, final long timeNs, final int wireLength, final int linkType, final byte[] frame)
            {
                final int i = (int)sequence;
                assertArrayEquals(frames.get(i), frame, "frame " + i);
                assertEquals(1_000L * i, timeNs);
                assertEquals(frame.length + 4, wireLength);
                assertEquals(i % 2 == 0 ? LinkType.ETHERNET : LinkType.LINUX_SLL, linkType);
            }

            @Override
            public void end(final int attempt, final long[] counters, final long[] vnfCounters, final String stateDump,
                final Histogram latencyNs, final long latencyOverflows, final long lastEmitMicros)
            {
                assertArrayEquals(new long[] {1, 2, 3}, counters);
                assertArrayEquals(new long[] {4}, vnfCounters);
                assertEquals("lb.connections 7 8\n", stateDump);
                assertEquals(1, latencyNs.getTotalCount());
                ends[0] = attempt;
                ends[1] = latencyOverflows;
                ends[2] = lastEmitMicros;
            }
        });

        assertEquals(lines.size(), readLines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            assertEquals(lines.get(i), readLines.get(i), "record " + i);
        }
        assertArrayEquals(new long[] {2, 5, 99}, ends);
        assertEquals(0, part.take().length, "taken: the part starts empty again");
    }
}
