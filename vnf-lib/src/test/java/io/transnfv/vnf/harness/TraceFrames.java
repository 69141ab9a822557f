package io.transnfv.vnf.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of a classic little-endian, microsecond pcap file under {@code src/test/resources},
 * for VNF harness tests on real captures (the engine's capture reader lives in a module this
 * one does not depend on).
 */
public final class TraceFrames
{
    /** One captured frame and its capture time. */
    public record Frame(byte[] bytes, long timestampNs)
    {
    }

    private TraceFrames()
    {
    }

    /**
     * @param resource e.g. {@code "/traces/http_ipv6.pcap"}.
     * @return every frame in file order.
     */
    public static List<Frame> read(final String resource)
    {
        try (InputStream in = TraceFrames.class.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            final ByteBuffer file = ByteBuffer.wrap(in.readAllBytes()).order(ByteOrder.LITTLE_ENDIAN);
            if (file.getInt(0) != 0xA1B2C3D4)
            {
                throw new IllegalArgumentException(resource + ": not a little-endian microsecond pcap file");
            }
            final List<Frame> frames = new ArrayList<>();
            int at = 24;
            while (at + 16 <= file.limit())
            {
                final long seconds = file.getInt(at) & 0xFFFF_FFFFL;
                final long micros = file.getInt(at + 4) & 0xFFFF_FFFFL;
                final int length = file.getInt(at + 8);
                final byte[] bytes = new byte[length];
                file.get(at + 16, bytes);
                frames.add(new Frame(bytes, seconds * 1_000_000_000L + micros * 1_000L));
                at += 16 + length;
            }
            return frames;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
