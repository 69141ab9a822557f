package io.transnfv.experiments.dpdk;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link DpdkFrontEndBenchmark} in rounds, summarised: every round runs every case (source ×
 * chain) once per native library, the libraries alternating, so load from elsewhere on the
 * machine falls on all of them alike; the report gives, per case and library, the median of
 * the rounds' packets/s with their minimum and maximum, the ratio to the pure-Java path, and
 * the per-packet counters, under the load averages seen. Progress on stderr, Markdown on stdout.
 *
 * <p>Arguments, {@code key=value}: {@code rounds} (3), {@code packets} per invocation
 * (2000000), {@code sources} and {@code chains} (comma lists, default all),
 * {@code trace} (WebattackXSS.pcap), {@code warmups} (1) and {@code iterations} (3) per
 * round, {@code libraries}: {@code label=path.so,...} to compare builds of the native library
 * side by side (each loaded with {@code -Dtransnfv.dpdk.library}; default the bundled one).
 *
 * <pre>
 * scripts/bench-dpdk.sh rounds=5 chains=nat-lb-td
 * </pre>
 */
public final class DpdkFrontEndBenchmarkMain
{
    private static final String BUNDLED = "bundled";
    private static final String JAVA_PCAP = "java-pcap";

    private DpdkFrontEndBenchmarkMain()
    {
    }

    /** @param args {@code key=value} settings (see the class comment). */
    public static void main(final String[] args) throws RunnerException
    {
        final Map<String, String> opts = new LinkedHashMap<>(Map.of(
            "rounds", "3", "packets", "2000000", "sources", "java-pcap,net_pcap,net_null-64,net_null-1500",
            "chains", "none,pass-through,nat-lb-td", "trace", "engine/src/test/resources/traces/WebattackXSS.pcap",
            "warmups", "1", "iterations", "3", "libraries", ""));
        for (final String a : args)
        {
            final int eq = a.indexOf('=');
            if (eq <= 0 || !opts.containsKey(a.substring(0, eq)))
            {
                System.err.println("expected key=value with key one of " + opts.keySet() + ", got '" + a + "'");
                System.exit(2);
            }
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        final Map<String, String> libraries = new LinkedHashMap<>();
        for (final String lib : opts.get("libraries").split(","))
        {
            if (!lib.isBlank())
            {
                final int eq = lib.indexOf('=');
                libraries.put(eq > 0 ? lib.substring(0, eq) : lib, eq > 0 ? lib.substring(eq + 1) : lib);
            }
        }
        if (libraries.isEmpty())
        {
            libraries.put(BUNDLED, null);
        }
        final int rounds = Integer.parseInt(opts.get("rounds"));
        final String[] sources = opts.get("sources").split(",");
        final String[] chains = opts.get("chains").split(",");
        final Map<String, List<double[]>> samples = new LinkedHashMap<>();
        final List<Double> loads = new ArrayList<>();
        loads.add(loadAverage());
        for (int round = 1; round <= rounds; round++)
        {
            for (final Map.Entry<String, String> library : libraries.entrySet())
            {
                System.err.printf(Locale.ROOT, "round %d of %d, library %s, load average %.2f%n", round, rounds,
                    library.getKey(), loadAverage());
                final ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(DpdkFrontEndBenchmark.class.getName() + ".run$")
                    .param("source", sources)
                    .param("chain", chains)
                    .param("packets", opts.get("packets"))
                    .param("trace", opts.get("trace"))
                    .forks(1)
                    .warmupIterations(Integer.parseInt(opts.get("warmups")))
                    .measurementIterations(Integer.parseInt(opts.get("iterations")))
                    .verbosity(VerboseMode.SILENT);
                if (library.getValue() != null)
                {
                    options.jvmArgsAppend("-Dtransnfv.dpdk.library=" + library.getValue());
                }
                for (final RunResult run : new Runner(options.build()).run())
                {
                    final String source = run.getParams().getParam("source");
                    final String chain = run.getParams().getParam("chain");
                    final double packetsPerSecond = counter(run, "delivered");
                    samples.computeIfAbsent(chain + "|" + source + "|" + library.getKey(), k -> new ArrayList<>())
                        .add(new double[] {packetsPerSecond,
                            counter(run, "jniCrossings") / packetsPerSecond, counter(run, "emptyPolls") / packetsPerSecond,
                            counter(run, "framesCopied") / packetsPerSecond, counter(run, "engineBytes") / packetsPerSecond,
                            counter(run, "rxBytes") / packetsPerSecond});
                }
                loads.add(loadAverage());
            }
        }
        System.out.print(report(opts, samples, libraries.keySet(), loads));
    }

    /** @return the run's score of one of {@link DpdkFrontEndBenchmark.Counters}, per second. */
    private static double counter(final RunResult run, final String name)
    {
        return run.getSecondaryResults().get(name).getScore();
    }

    private static String report(final Map<String, String> opts, final Map<String, List<double[]>> samples,
        final Set<String> libraries, final List<Double> loads)
    {
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s rounds of %s packets per case, trace %s; %d cores, %s %s; "
                + "load average (1 min) %.2f–%.2f over the run%n%n", opts.get("rounds"), opts.get("packets"),
            opts.get("trace").substring(opts.get("trace").lastIndexOf('/') + 1), Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
            loads.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
            loads.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
        out.append("| chain | source → sink | library | packets/s, median (min–max) | vs java-pcap | JNI crossings/packet "
            + "| empty rx polls/packet | frames copied/packet | bytes allocated/packet: engine thread | rx thread |\n");
        out.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final Map.Entry<String, List<double[]>> e : samples.entrySet())
        {
            final String[] key = e.getKey().split("\\|");
            final double[] pps = column(e.getValue(), 0);
            final List<double[]> java = samples.get(key[0] + "|" + JAVA_PCAP + "|" + key[2]);
            final boolean dpdk = !key[1].equals(JAVA_PCAP);
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %,.0f (%,.0f–%,.0f) | %s | %s | %s | %s | %.3f | %s |%n",
                key[0], key[1], libraries.size() > 1 ? key[2] : "—", median(pps), pps[0], pps[pps.length - 1],
                java == null ? "—" : String.format(Locale.ROOT, "%.2f×", median(pps) / median(column(java, 0))),
                dpdk ? String.format(Locale.ROOT, "%.4f", median(column(e.getValue(), 1))) : "—",
                dpdk ? String.format(Locale.ROOT, "%.4f", median(column(e.getValue(), 2))) : "—",
                dpdk ? String.format(Locale.ROOT, "%.4f", median(column(e.getValue(), 3))) : "—",
                median(column(e.getValue(), 4)),
                dpdk ? String.format(Locale.ROOT, "%.3f", median(column(e.getValue(), 5))) : "—"));
        }
        return out.toString();
    }

    /** @return the samples' values in one column, sorted. */
    private static double[] column(final List<double[]> rows, final int c)
    {
        return rows.stream().mapToDouble(r -> r[c]).sorted().toArray();
    }

    private static double median(final double[] sorted)
    {
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double loadAverage()
    {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
