package io.transnfv.experiments.packet;

import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PcapSource;
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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * PROTOTYPE (measured, not kept): the packet view parsing a frame in an mbuf-like direct
 * buffer ({@code wrap}) against taking the offsets of an rx descriptor ({@code wrapParsed}),
 * over every frame of the readable test traces, in capture order. The descriptor values are
 * those a complete C parse would write.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RxDescriptorViewBenchmark
{
    private static final int HEADROOM = 128;
    private static final int FRAMES = 1 << 15;

    @Param("engine/src/test/resources/traces")
    String traces;

    private ByteBuffer window;
    private int[] offsets;
    private int[] lengths;
    private int[] malformed;
    private int[] l3;
    private int[] l4;
    private int[] protocol;
    private int count;
    private final PacketFlyweight packet = new PacketFlyweight();

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final List<byte[]> frames = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(traces)))
        {
            for (final Path f : (Iterable<Path>)files.sorted()::iterator)
            {
                if (!f.toString().endsWith(".pcap") && !f.toString().endsWith(".pcapng")
                    || f.getFileName().toString().equals("malformed-header.pcap")
                    || f.getFileName().toString().equals("test_without_pcap_header.pcap"))
                {
                    continue;
                }
                try (PcapSource source = PcapSource.open(f))
                {
                    final PacketBuffer b = new PacketBuffer();
                    while (source.next(b) && frames.size() < FRAMES)
                    {
                        final byte[] frame = new byte[b.length()];
                        b.copyTo(frame, 0, frame.length);
                        frames.add(frame);
                    }
                }
            }
        }
        count = frames.size();
        offsets = new int[count];
        lengths = new int[count];
        malformed = new int[count];
        l3 = new int[count];
        l4 = new int[count];
        protocol = new int[count];
        int size = 0;
        for (final byte[] f : frames)
        {
            size += HEADROOM + ((f.length + 63) & ~63);
        }
        window = ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
        final ByteBuffer frameOrder = window.duplicate().order(ByteOrder.BIG_ENDIAN);
        int at = 0;
        final PacketFlyweight check = new PacketFlyweight();
        for (int i = 0; i < count; i++)
        {
            final byte[] f = frames.get(i);
            offsets[i] = at + HEADROOM;
            lengths[i] = f.length;
            window.put(offsets[i], f);
            at += HEADROOM + ((f.length + 63) & ~63);
            packet.wrap(frameOrder, offsets[i], lengths[i]);
            malformed[i] = packet.malformedReason();
            l3[i] = packet.isIp() ? packet.l3Offset() - offsets[i] : 0;
            l4[i] = packet.isIp() && packet.fragmentOffset() == 0 ? packet.l4Offset() - offsets[i] : 0;
            protocol[i] = packet.isIp() ? packet.ipProtocol() : 0;
            check.wrapParsed(frameOrder, offsets[i], lengths[i], malformed[i], l3[i], l4[i], protocol[i]);
            final String a = describe(packet);
            final String b = describe(check);
            if (!a.equals(b))
            {
                throw new IllegalStateException("frame " + i + ": parsed " + a + " but from the descriptor " + b);
            }
        }
    }

    private static String describe(final PacketFlyweight p)
    {
        return p.malformedReason() + " " + p.etherType() + " " + p.vlanCount() + " " + p.vlanId() + " " + p.innerVlanId()
            + " " + p.isIpv4() + p.isIpv6() + " " + p.l3Offset() + " " + p.l4Offset() + " " + p.payloadOffset() + " "
            + p.payloadLength() + " " + p.ipProtocol() + " " + p.ttl() + " " + p.ipTotalLength() + " " + p.isFragment()
            + p.isFirstFragment() + p.hasMoreFragments() + " " + p.fragmentOffset() + " " + p.hasPorts() + " "
            + p.srcPort() + " " + p.dstPort() + " " + p.tcpFlags() + " " + p.icmpType() + " " + p.srcIpv4() + " "
            + p.dstIpv4() + " " + p.srcIpv6Low() + " " + p.dstIpv6High();
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int parse()
    {
        int valid = 0;
        for (int i = 0, n = count; i < FRAMES; i++)
        {
            final int f = i < n ? i : i % n;
            valid += packet.wrap(window, offsets[f], lengths[f]).isValid() ? 1 : 0;
        }
        return valid;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int fromDescriptor()
    {
        int valid = 0;
        for (int i = 0, n = count; i < FRAMES; i++)
        {
            final int f = i < n ? i : i % n;
            valid += packet.wrapParsed(window, offsets[f], lengths[f], malformed[f], l3[f], l4[f], protocol[f]).isValid() ? 1 : 0;
        }
        return valid;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long parseAndFlowKey()
    {
        long sum = 0;
        for (int i = 0, n = count; i < FRAMES; i++)
        {
            final int f = i < n ? i : i % n;
            sum += FlowKeys.fiveTuple(packet.wrap(window, offsets[f], lengths[f]));
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long fromDescriptorAndFlowKey()
    {
        long sum = 0;
        for (int i = 0, n = count; i < FRAMES; i++)
        {
            final int f = i < n ? i : i % n;
            sum += FlowKeys.fiveTuple(packet.wrapParsed(window, offsets[f], lengths[f], malformed[f], l3[f], l4[f], protocol[f]));
        }
        return sum;
    }
}
