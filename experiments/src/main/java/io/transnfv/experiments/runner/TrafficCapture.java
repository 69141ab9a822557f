package io.transnfv.experiments.runner;

import io.transnfv.engine.source.Generator;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.source.SourceStats;

import java.util.Arrays;

/**
 * A generator's whole output held in memory (frames back to back in one array), so that every
 * executor of an experiment replays exactly the same bytes and none pays for generating them
 * inside its measured time. Immutable once built; each {@link #replay()} is an independent
 * source.
 */
public final class TrafficCapture
{
    private final String description;
    private final byte[] frames;
    private final int[] offset;
    private final int[] length;
    private final long[] timestampNs;
    private final int maxLength;

    private TrafficCapture(
        final String description, final byte[] frames, final int[] offset, final int[] length, final long[] timestampNs)
    {
        this.description = description;
        this.frames = frames;
        this.offset = offset;
        this.length = length;
        this.timestampNs = timestampNs;
        int max = 0;
        for (final int l : length)
        {
            max = Math.max(max, l);
        }
        this.maxLength = max;
    }

    /** @return the generator's output for {@code config}, read to its end. */
    public static TrafficCapture generate(final GeneratorConfig config)
    {
        final int packets = Math.toIntExact(config.totalPackets());
        final int[] offset = new int[packets];
        final int[] length = new int[packets];
        final long[] timestampNs = new long[packets];
        byte[] frames = new byte[Math.max(1 << 16, packets * 128)];
        int used = 0;
        final PacketBuffer buffer = new PacketBuffer(Math.max(PacketBuffer.MIN_CAPACITY, config.maxFrameSize()));
        try (PacketSource generator = Generator.open(config))
        {
            int i = 0;
            while (generator.next(buffer))
            {
                if (used + buffer.length() > frames.length)
                {
                    frames = Arrays.copyOf(frames, Math.max(frames.length * 2, used + buffer.length()));
                }
                buffer.copyTo(frames, used, buffer.length());
                offset[i] = used;
                length[i] = buffer.length();
                timestampNs[i] = buffer.timestampNs();
                used += buffer.length();
                i++;
            }
            return new TrafficCapture("generator " + config.describe(), Arrays.copyOf(frames, used), offset, length,
                timestampNs);
        }
        catch (final SourceException e)
        {
            // generated in memory: nothing to read that could fail
            throw new IllegalStateException("the generator failed: " + e.getMessage(), e);
        }
    }

    /** @return the number of packets. */
    public int packets()
    {
        return offset.length;
    }

    /** @return what generated the traffic. */
    public String describe()
    {
        return description;
    }

    /** @return a new source over the captured packets, from the first. */
    public PacketSource replay()
    {
        return new Replay();
    }

    private final class Replay implements PacketSource
    {
        private final SourceStats stats = new SourceStats();
        private int next;

        @Override
        public boolean next(final PacketBuffer dst)
        {
            if (next == offset.length)
            {
                return false;
            }
            final int i = next++;
            System.arraycopy(frames, offset[i], dst.data(), 0, length[i]);
            dst.commit(length[i], length[i], timestampNs[i], i);
            stats.onPacket(length[i]);
            return true;
        }

        @Override
        public SourceStats stats()
        {
            return stats;
        }

        @Override
        public int maxFrameBytes()
        {
            return maxLength;
        }

        @Override
        public String describe()
        {
            return "replay of " + description;
        }

        @Override
        public void close()
        {
            // Nothing to release: the capture is shared heap memory.
        }
    }
}
