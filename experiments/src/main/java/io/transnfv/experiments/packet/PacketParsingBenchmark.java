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

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Parsing generated frames: {@link PacketFlyweight#wrap} alone (Ethernet, IPv4, TCP/UDP
 * header checks) and wrap plus the 5-tuple flow key, which is what every VNF's
 * pre-processing starts with. {@value #FRAMES} frames of the generator's default mix
 * ({@code tcp_ratio} TCP, the rest UDP), replayed in a loop. Score: ns per frame; run with
 * {@code -prof gc} to see that neither allocates.
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

    @Param({"1.0", "0.5"})
    double tcpRatio;

    private byte[][] frames;
    private int[] lengths;
    private final PacketFlyweight packet = new PacketFlyweight();

    @Setup(Level.Trial)
    public void setUp()
    {
        frames = new byte[FRAMES][];
        lengths = new int[FRAMES];
        final PacketBuffer buffer = new PacketBuffer();
        try (Generator generator = new Generator(GeneratorConfig.parse(
            "packets=" + FRAMES + ",new_conn_ratio=0.05,max_size=512,tcp_ratio=" + tcpRatio + ",seed=42")))
        {
            for (int i = 0; generator.next(buffer); i++)
            {
                frames[i] = Arrays.copyOf(buffer.data(), buffer.length());
                lengths[i] = buffer.length();
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
            valid += packet.wrap(frames[i], 0, lengths[i]).isValid() ? 1 : 0;
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
            sum += FlowKeys.fiveTuple(packet.wrap(frames[i], 0, lengths[i]));
        }
        return sum;
    }
}
