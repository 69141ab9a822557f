package io.transnfv.experiments.dpdk;

import io.transnfv.chains.ChainLoader;
import io.transnfv.dpdk.Dpdk;
import io.transnfv.dpdk.DpdkConfig;
import io.transnfv.dpdk.DpdkFrontEnd;
import io.transnfv.dpdk.NativeCounters;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Packets per second through DPDK → engine → DPDK, against the pure-Java path
 * ({@code PcapSource} looping the trace → the same engine → {@code PcapWriter} of forwarded
 * packets). One invocation runs {@code packets} packets through a fresh front end (a vdev
 * hot-plugged for it) and a fresh engine, set up and torn down outside the timing, like
 * {@code transnfv run --dpdk}: the score is packets per second ({@code ·packets}), and the
 * other counters, per second too, divide by it to give per-packet figures.
 *
 * <ul>
 *   <li>{@code source}: {@code java-pcap}; {@code net_pcap}, the vdev replaying the trace
 *       from memory ({@code infinite_rx=1}) and writing forwarded frames to a pcap file;
 *       {@code net_null-64} / {@code net_null-1500}, the null vdev's frames of zeros (not IP,
 *       so the VNFs touch no state), freed on tx.</li>
 *   <li>{@code chain}: {@code none}, the source and the sink alone (every packet forwarded
 *       unchanged, no engine); {@code pass-through}, one flow monitor on the engine;
 *       {@code nat-lb-td}, the bundled chain.</li>
 * </ul>
 *
 * <p>Counters ({@code @AuxCounters}, per second; divide by {@code ·packets}):
 * {@code ·jniCrossings} rx and tx crossings that moved packets, {@code ·emptyPolls} rx
 * crossings that found none, {@code ·framesCopied} frames the front end copied in or out
 * (0 when the engine sees every frame in its mbuf), {@code ·engineBytes} and {@code ·rxBytes}
 * bytes allocated by the engine's thread (source, executor driver, sink) and by the rx
 * thread ({@code ThreadMXBean}). DPDK runs with a 9216-byte data room (every frame of the
 * trace in one mbuf), bursts of 32 and the ring {@code DpdkConfig.forBatch} gives the chain.
 *
 * <pre>
 * java -jar experiments/target/benchmarks.jar DpdkFrontEndBenchmark -p trace=engine/src/test/resources/traces/WebattackXSS.pcap
 * scripts/bench-dpdk.sh        (rounds of it, summarised as a Markdown table)
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
public class DpdkFrontEndBenchmark
{
    private static final String PASS_THROUGH = String.join("\n",
        "name: pass-through",
        "description: one flow monitor, which forwards every packet unchanged",
        "vnfs:",
        "  - name: mon",
        "    type: flow-monitor",
        "");

    /** Packets of WebattackXSS.pcap, the default trace: the Java path loops it to reach {@link #packets}. */
    private static final int DEFAULT_TRACE_PACKETS = 9374;

    /** As the tests', with room for the 9 KiB mbufs net_pcap's infinite_rx keeps the whole trace in. */
    private static final List<String> EAL_ARGS =
        List.of("--no-huge", "--no-pci", "-m", "1024", "--no-shconf", "--no-telemetry", "-l", "0", "--log-level=*:warning");

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static int vdevs;

    @Param({"java-pcap", "net_pcap", "net_null-64", "net_null-1500"})
    String source;

    @Param({"none", "pass-through", "nat-lb-td"})
    String chain;

    @Param("2000000")
    long packets;

    @Param("engine/src/test/resources/traces/WebattackXSS.pcap")
    String trace;

    private Path tracePath;
    private Path dir;
    private ChainSpec chainSpec;
    private ChainExecutor engine;
    private DpdkFrontEnd dpdk;
    private PacketSource javaSource;
    private PcapWriter writer;
    private PacketListener listener;
    private final PacketBuffer buffer = new PacketBuffer();
    private final PacketRecord record = new PacketRecord();

    /** Per-second counters (JMH zeroes them each iteration); divide by {@code delivered} for per-packet figures. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters
    {
        public long delivered;
        public long jniCrossings;
        public long emptyPolls;
        public long framesCopied;
        public long engineBytes;
        public long rxBytes;
    }

    @Setup(Level.Trial)
    public void setUpTrial() throws IOException
    {
        tracePath = Path.of(trace).toAbsolutePath();
        if (!Files.isRegularFile(tracePath))
        {
            throw new IllegalArgumentException("no trace " + tracePath + ": run from the repository root or give -p trace=FILE");
        }
        dir = Files.createTempDirectory("dpdk-bench");
        final ChainLoader loader = new ChainLoader();
        chainSpec = switch (chain)
        {
            case "none" -> null;
            case "pass-through" -> loader.parse(PASS_THROUGH, "pass-through.yaml");
            default -> loader.loadBundled(chain);
        };
        if (!source.equals("java-pcap"))
        {
            Dpdk.ensureAvailable();
        }
    }

    @Setup(Level.Invocation)
    public void setUpRun() throws IOException
    {
        engine = chainSpec == null ? null : new BatchedChainExecutor(chainSpec, TpgBatchExecutor::new, "tpg");
        if (source.equals("java-pcap"))
        {
            javaSource = PcapSource.open(tracePath, (int)((packets + DEFAULT_TRACE_PACKETS - 1) / DEFAULT_TRACE_PACKETS));
            writer = PcapWriter.create(dir.resolve("java-out.pcap"));
            listener = this::write;
            return;
        }
        final int dash = source.indexOf('-');
        final String driver = dash < 0 ? source : source.substring(0, dash);
        final String devargs = driver.equals("net_pcap")
            ? "rx_pcap=" + tracePath + ",infinite_rx=1,tx_pcap=" + dir.resolve("tx.pcap")
            : "size=" + source.substring(dash + 1);
        dpdk = DpdkFrontEnd.open(DpdkConfig.of(EAL_ARGS)
            .withAttach(driver + "_bench" + (vdevs++) + "," + devargs)
            .withDataRoom(DpdkConfig.MAX_FRAME_BYTES)
            .withExtraMbufs(driver.equals("net_pcap") ? 16_384 : 0)
            .withMaxPackets(packets)
            .forBatch(chainSpec == null ? 0 : chainSpec.settings().punctuationTransactions()));
        listener = dpdk.sink();
    }

    private void write(final PacketRecord packetRecord, final PacketBuffer packetBuffer, final PacketFlyweight packet)
    {
        if (!packetRecord.dropped())
        {
            try
            {
                writer.write(packetBuffer);
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Runs {@link #packets} packets (or the looped trace's, for java-pcap) from source to sink. */
    @Benchmark
    public void run(final Counters counters) throws IOException
    {
        final PacketSource from = dpdk != null ? dpdk.source() : javaSource;
        final long self = Thread.currentThread().getId();
        final long rx = dpdk != null ? rxThreadId() : -1;
        final long bytes0 = THREADS.getThreadAllocatedBytes(self);
        final long rxBytes0 = rx < 0 ? 0 : THREADS.getThreadAllocatedBytes(rx);
        final long delivered;
        if (engine != null)
        {
            engine.run(from, listener);
            delivered = engine.stats().packetsFinished();
        }
        else
        {
            delivered = sourceToSink(from);
        }
        if (dpdk != null)
        {
            dpdk.sink().flush();
            counters.rxBytes += Math.max(0, THREADS.getThreadAllocatedBytes(rx) - rxBytes0);
            // final: the stream ended because the receiver stopped, and the sink has flushed
            final NativeCounters c = dpdk.port().counters();
            counters.jniCrossings += c.rxBursts() + c.txBursts();
            counters.emptyPolls += c.rxEmptyPolls();
            counters.framesCopied += dpdk.framesCopiedIn() + dpdk.framesCopiedOut();
        }
        counters.engineBytes += THREADS.getThreadAllocatedBytes(self) - bytes0;
        counters.delivered += delivered;
    }

    private long sourceToSink(final PacketSource from) throws IOException
    {
        long n = 0;
        while (from.next(buffer))
        {
            record.reset(buffer.sequence(), buffer.timestampNs());
            listener.onPacket(record, buffer, null);
            n++;
        }
        return n;
    }

    @TearDown(Level.Invocation)
    public void tearDownRun() throws IOException
    {
        if (engine != null)
        {
            engine.close();
            engine = null;
        }
        if (javaSource != null)
        {
            javaSource.close();
            writer.close();
            javaSource = null;
            writer = null;
        }
        if (dpdk != null)
        {
            dpdk.close();
            dpdk = null;
        }
        // each invocation writes up to 2,000,000 frames (about 1 GB): keep one at a time
        Files.deleteIfExists(dir.resolve("tx.pcap"));
        Files.deleteIfExists(dir.resolve("java-out.pcap"));
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() throws IOException
    {
        Files.deleteIfExists(dir.resolve("tx.pcap"));
        Files.deleteIfExists(dir.resolve("java-out.pcap"));
        Files.deleteIfExists(dir);
    }

    private long rxThreadId()
    {
        final String name = "transnfv-dpdk-rx-" + dpdk.port().id();
        for (final Thread t : Thread.getAllStackTraces().keySet())
        {
            if (t.getName().equals(name))
            {
                return t.getId();
            }
        }
        return -1;
    }
}
