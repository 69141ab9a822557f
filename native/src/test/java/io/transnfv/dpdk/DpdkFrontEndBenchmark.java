package io.transnfv.dpdk;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Packets per second through DPDK (net_null and net_pcap vdevs) → engine → DPDK, against
 * the pure-Java pcap path (PcapSource → engine → PcapWriter), with a pass-through chain
 * (one flow monitor) and with nat-lb-td; JNI crossings per packet; frames the front end
 * copied (in / out; 0 when the engine sees every frame in place); bytes allocated per
 * packet by the engine's thread and by the rx thread. net_null runs with 64-byte and with
 * 1500-byte frames, where a copy per frame would cost the most. One JVM (the EAL starts
 * once); each case runs twice and the second run is reported. Prints a Markdown table.
 *
 * <pre>
 *   scripts/bench-dpdk.sh [packets-per-case]      (default 2,000,000)
 * </pre>
 */
public final class DpdkFrontEndBenchmark
{
    private static final String PASS_THROUGH = String.join("\n",
        "name: pass-through",
        "description: one flow monitor, which forwards every packet unchanged",
        "vnfs:",
        "  - name: mon",
        "    type: flow-monitor",
        "");

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    /** As the tests', with room for the 9 KiB mbufs that net_pcap's infinite_rx needs for jumbo frames. */
    private static final java.util.List<String> EAL_ARGS =
        java.util.List.of("--no-huge", "--no-pci", "-m", "1024", "--no-shconf", "--no-telemetry", "-l", "0", "--log-level=*:warning");

    private static int vdevs;

    private DpdkFrontEndBenchmark()
    {
    }

    /**
     * @param args optional: packets per case, and the trace (default WebattackXSS.pcap from the test resources).
     * @throws Exception if a case fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final long packets = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        final Path trace = args.length > 1 ? Path.of(args[1]) : DpdkTestSupport.trace("WebattackXSS.pcap");
        final Path dir = Files.createTempDirectory("dpdk-bench");
        final Path passYaml = dir.resolve("pass-through.yaml");
        Files.writeString(passYaml, PASS_THROUGH, StandardCharsets.UTF_8);
        final ChainSpec pass = new ChainLoader().load(passYaml);
        final ChainSpec nat = new ChainLoader().loadBundled("nat-lb-td");
        final PrintStream out = System.out;
        out.printf(Locale.ROOT, "%d packets per case, trace %s, %d cores, DPDK %s%n%n", packets, trace.getFileName(),
            Runtime.getRuntime().availableProcessors(), Dpdk.isAvailable() ? "available" : Dpdk.unavailableReason());
        out.println("| source → sink | chain | packets/s | vs Java pcap | JNI crossings/packet (incl. empty polls) "
            + "| frames copied in / out | bytes allocated/packet: engine thread | rx thread |");
        out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (final ChainSpec chain : new ChainSpec[] {pass, nat})
        {
            final String name = chain.name();
            javaPcap(chain, trace, packets, dir);
            final Result java = javaPcap(chain, trace, packets, dir);
            out.println(java.row("Java pcap → PcapWriter", name, java));
            if (!Dpdk.isAvailable())
            {
                continue;
            }
            final String pcapArgs = "rx_pcap=" + trace + ",infinite_rx=1,tx_pcap=" + dir.resolve("tx.pcap");
            dpdk(chain, "net_pcap", pcapArgs, packets);
            final Result pcap = dpdk(chain, "net_pcap", pcapArgs, packets);
            out.println(pcap.row("DPDK net_pcap (infinite_rx) → net_pcap tx", name, java));
            for (final int size : new int[] {64, 1500})
            {
                dpdk(chain, "net_null", "size=" + size, packets);
                final Result nul = dpdk(chain, "net_null", "size=" + size, packets);
                out.println(nul.row("DPDK net_null (" + size + " B, zeros) → net_null", name, java));
            }
        }
    }

    private static Result javaPcap(final ChainSpec chain, final Path trace, final long packets, final Path dir)
        throws IOException
    {
        final int loops = (int)((packets + 9373) / 9374);
        final long self = Thread.currentThread().getId();
        try (ChainExecutor engine = DpdkTestSupport.engine(chain);
             PacketSource source = PcapSource.open(trace, loops);
             PcapWriter writer = PcapWriter.create(dir.resolve("java-out.pcap")))
        {
            final PacketListener listener = (record, buffer, packet) ->
            {
                if (!record.dropped())
                {
                    try
                    {
                        writer.write(buffer);
                    }
                    catch (final IOException e)
                    {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            final long bytes0 = THREADS.getThreadAllocatedBytes(self);
            final long t0 = System.nanoTime();
            engine.run(source, listener);
            final long ns = System.nanoTime() - t0;
            final long n = engine.stats().packetsFinished();
            return new Result(n, ns, Double.NaN, Double.NaN, -1, -1,
                (THREADS.getThreadAllocatedBytes(self) - bytes0) / (double)n, Double.NaN);
        }
    }

    private static Result dpdk(final ChainSpec chain, final String driver, final String devargs, final long packets)
        throws IOException
    {
        final DpdkConfig config = DpdkConfig.of(EAL_ARGS)
            .withAttach(driver + "_bench" + (vdevs++) + "," + devargs)
            .withDataRoom(9216)
            .withExtraMbufs(driver.equals("net_pcap") ? 16_384 : 0)
            .withMaxPackets(packets)
            .forBatch(chain.settings().punctuationTransactions());
        final long self = Thread.currentThread().getId();
        try (ChainExecutor engine = DpdkTestSupport.engine(chain); DpdkFrontEnd dpdk = DpdkFrontEnd.open(config))
        {
            final long rx = rxThreadId(dpdk);
            final long bytes0 = THREADS.getThreadAllocatedBytes(self);
            final long rxBytes0 = THREADS.getThreadAllocatedBytes(rx);
            final long t0 = System.nanoTime();
            engine.run(dpdk.source(), dpdk.sink());
            dpdk.sink().flush();
            final long ns = System.nanoTime() - t0;
            final long bytes = THREADS.getThreadAllocatedBytes(self) - bytes0;
            final long rxBytes = THREADS.getThreadAllocatedBytes(rx) - rxBytes0;
            final long n = engine.stats().packetsFinished();
            dpdk.close();
            final NativeCounters c = dpdk.port().counters();
            return new Result(n, ns, (c.rxBursts() + c.txBursts()) / (double)n,
                (c.rxBursts() + c.rxEmptyPolls() + c.txBursts()) / (double)n, dpdk.framesCopiedIn(), dpdk.framesCopiedOut(),
                bytes / (double)n, Math.max(0, rxBytes) / (double)n);
        }
    }

    private static long rxThreadId(final DpdkFrontEnd dpdk)
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

    private record Result(long packets, long ns, double crossings, double crossingsWithPolls, long copiedIn, long copiedOut,
        double engineBytes, double rxBytes)
    {
        double pps()
        {
            return packets * 1e9 / ns;
        }

        String row(final String path, final String chain, final Result java)
        {
            return String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f× | %s | %s | %.3f | %s |", path, chain, pps(),
                pps() / java.pps(), Double.isNaN(crossings) ? "—" : String.format(Locale.ROOT, "%.4f (%.4f)", crossings, crossingsWithPolls),
                copiedIn < 0 ? "—" : String.format(Locale.ROOT, "%,d / %,d", copiedIn, copiedOut),
                engineBytes, Double.isNaN(rxBytes) ? "—" : String.format(Locale.ROOT, "%.3f", rxBytes));
        }
    }
}
