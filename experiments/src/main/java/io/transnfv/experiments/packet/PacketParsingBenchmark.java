package io.transnfv.experiments.packet;

import io.transnfv.engine.source.Generator;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * Parsing generated frames: {@link PacketFlyweight#wrap} alone (Ethernet, IPv4, TCP/UDP
 * header checks) and wrap plus the 5-tuple flow key, which is what every VNF's
 * pre-processing starts with. {@value #FRAMES} frames of the generator's default mix
 * ({@code tcp_ratio} TCP, the rest UDP), replayed in a loop. Score: ns per frame; run with
 * {@code -prof gc} to see that nothing allocates.
 *
 * <p>{@code memory} is where the frames are: {@code array}, one {@code byte[]} per frame (the
 * engine's own packet buffers); {@code direct}, one direct buffer in the machine's byte
 * order with a frame every {@value #SLOT_BYTES} bytes after {@value #HEADROOM} bytes of
 * headroom, as DPDK mbufs in the pool window; {@code heap-buffer}, the same layout in a heap
 * buffer sliced off its array, which the view reads through {@code ByteBuffer} accesses.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PacketParsingBenchmark
{
    private static final int FRAMES = 4096;
    private static final int SLOT_BYTES = 2176;
    private static final int HEADROOM = 128;

    @Param({"1.0", "0.5"})
    double tcpRatio;

    @Param({"array", "direct", "heap-buffer"})
    String memory;

    private byte[][] frames;
    private ByteBuffer window;
    private int[] offsets;
    private int[] lengths;
    private final PacketFlyweight packet = new PacketFlyweight();

    @Setup(Level.Trial)
    public void setUp()
    {
        frames = new byte[FRAMES][];
        offsets = new int[FRAMES];
        lengths = new int[FRAMES];
        switch (memory)
        {
            case "array":
                break;
            case "direct":
                window = ByteBuffer.allocateDirect(FRAMES * SLOT_BYTES).order(ByteOrder.nativeOrder());
                break;
            case "heap-buffer":
                window = ByteBuffer.wrap(new byte[1 + FRAMES * SLOT_BYTES]).position(1).slice().order(ByteOrder.nativeOrder());
                break;
            default:
                throw new IllegalArgumentException("memory: array, direct or heap-buffer, not " + memory);
        }
        final PacketBuffer buffer = new PacketBuffer();
        try (Generator generator = new Generator(GeneratorConfig.parse(
            "packets=" + FRAMES + ",new_conn_ratio=0.05,max_size=512,tcp_ratio=" + tcpRatio + ",seed=42")))
        {
            for (int i = 0; generator.next(buffer); i++)
            {
                frames[i] = new byte[buffer.length()];
                buffer.copyTo(frames[i], 0, buffer.length());
                lengths[i] = buffer.length();
                offsets[i] = i * SLOT_BYTES + HEADROOM;
                if (window != null)
                {
                    window.put(offsets[i], frames[i]);
                }
            }
        }
    }

    /** Wraps each frame and reads its validity. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int wrap()
    {
        int valid = 0;
        for (int i = 0; i < FRAMES; i++)
        {
            valid += wrap(i).isValid() ? 1 : 0;
        }
        return valid;
    }

    /** Wraps each frame and computes its 5-tuple flow key. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long wrapAndFlowKey()
    {
        long sum = 0;
        for (int i = 0; i < FRAMES; i++)
        {
            sum += FlowKeys.fiveTuple(wrap(i));
        }
        return sum;
    }

    private PacketFlyweight wrap(final int i)
    {
        final ByteBuffer w = window;
        return w == null ? packet.wrap(frames[i], 0, lengths[i]) : packet.wrap(w, offsets[i], lengths[i]);
    }
}
