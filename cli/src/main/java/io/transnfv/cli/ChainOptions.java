package io.transnfv.cli;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.vnf.api.VnfConfig;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Options shared by the commands that run a chain: which chain, which traffic, and the
 * settings that override the chain's {@code settings:} block.
 */
final class ChainOptions
{
    /** The chain run when none is given. */
    static final String DEFAULT_CHAIN = "nat-lb-td";

    @Parameters(index = "0", arity = "0..1", paramLabel = "CHAIN.yaml",
        description = "Chain definition: a YAML file, or the name of a bundled chain (" + "nat-lb-td, lb, fw-portscan-monitor"
            + "; default: " + DEFAULT_CHAIN + ").")
    Path chain;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Read packets from a pcap or pcapng file.")
    Path pcap;

    @Option(names = "--loop", paramLabel = "N", defaultValue = "1",
        description = "Replay the --pcap file N times (default: ${DEFAULT-VALUE}).")
    int loops;

    @Option(names = "--generate", paramLabel = "k=v,...",
        description = "Generate traffic with these parameters (e.g. packets=100000,new_conn_ratio=0.2,seed=7).")
    String generate;

    @Option(names = "--threads", paramLabel = "N",
        description = "Executor threads, 0.." + RunSettings.MAX_EXECUTOR_THREADS + " (0 = one per core).")
    Integer threads;

    @Option(names = "--batch", paramLabel = "TXNS", description = "Punctuation every TXNS transactions.")
    Integer batchTransactions;

    @Option(names = "--interval", paramLabel = "DURATION",
        description = "Punctuation every DURATION of packet time, e.g. 500us, 1ms.")
    String batchInterval;

    @Option(names = "--latency-target", paramLabel = "DURATION",
        description = "Size batches for this latency, e.g. 200us: a batch also closes when its first packet has waited a"
            + " quarter of it, and holds what the engine processes in half of it at the cost it measures (never more than"
            + " --batch). See settings.punctuation.latency_target; 0 for none (the default).")
    String latencyTarget;

    @Option(names = "--error-bound", paramLabel = "SHARE",
        description = "Stop the run when more than SHARE of a window's packets fail in VNF code, e.g. 1%% or 0.01"
            + " (default 1%%; 100%% never stops). See settings.faults.error_bound.")
    String errorBound;

    @Option(names = "--error-window", paramLabel = "DURATION",
        description = "The window of packet time the error bound is judged over (default 10s).")
    String errorWindow;

    @Option(names = "--batch-deadline", paramLabel = "DURATION",
        description = "Fail the run when a batch makes no progress for DURATION of wall time, naming the VNF and the"
            + " packet (default 10s; 0 for none).")
    String batchDeadline;

    /**
     * @return the chain with the command line's overrides applied.
     * @throws IOException if the chain file cannot be read.
     */
    ChainSpec resolve() throws IOException
    {
        if (pcap != null && generate != null)
        {
            throw new UsageProblem("--pcap and --generate both name the traffic; a run has one source.",
                "give --pcap FILE to replay a capture, or --generate k=v,... to generate packets, not both.");
        }
        if (loops < 1)
        {
            throw new UsageProblem("--loop must be at least 1, got " + loops + ".", "e.g. --loop 3 replays the capture three times.");
        }
        if (threads != null)
        {
            checkThreads("--threads", threads);
        }
        final ChainSpec spec = load(chain);
        RunSettings settings = spec.settings();
        if (loops != 1 && (generate != null || pcap == null && settings.traffic().kind() != TrafficSpec.Kind.PCAP))
        {
            throw new UsageProblem("--loop " + loops + " replays a capture, but the traffic is generated.",
                "drop --loop and raise the generator's packets=N, or replay a capture with --pcap FILE --loop " + loops + ".");
        }
        if (pcap != null)
        {
            settings = settings.withTraffic(TrafficSpec.pcap(pcap, loops));
        }
        else if (generate != null)
        {
            settings = settings.withTraffic(TrafficSpec.generate(GeneratorOption.parse(generate, settings.traffic())));
        }
        else if (loops != 1)
        {
            settings = settings.withTraffic(TrafficSpec.pcap(settings.traffic().pcap(), loops));
        }
        if (threads != null)
        {
            settings = settings.withExecutorThreads(threads);
        }
        if (batchTransactions != null || batchInterval != null)
        {
            settings = settings.withPunctuation(
                batchTransactions != null ? batchTransactions : settings.punctuationTransactions(),
                batchInterval != null ? VnfConfig.parseDurationNs(batchInterval) : settings.punctuationIntervalNs());
        }
        if (latencyTarget != null)
        {
            settings = settings.withLatencyTarget(VnfConfig.parseDurationNs(latencyTarget));
        }
        warnAboutThreadsBeyondCores(settings.executorThreads());
        return spec.withSettings(withFaultOverrides(settings));
    }

    private RunSettings withFaultOverrides(final RunSettings settings)
    {
        FaultSettings faults = settings.faults();
        if (errorBound != null)
        {
            try
            {
                faults = faults.withErrorBound(FaultSettings.parseShare(errorBound));
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("--error-bound: " + e.getMessage(), e);
            }
        }
        if (errorWindow != null)
        {
            faults = faults.withErrorWindow(durationNs("--error-window", errorWindow, false));
        }
        if (batchDeadline != null)
        {
            faults = faults.withBatchDeadline(durationNs("--batch-deadline", batchDeadline, true));
        }
        return settings.withFaults(faults);
    }

    private static long durationNs(final String option, final String text, final boolean zeroAllowed)
    {
        if (zeroAllowed && "0".equals(text.trim()))
        {
            return 0;
        }
        try
        {
            final long ns = VnfConfig.parseDurationNs(text);
            if (ns > 0)
            {
                return ns;
            }
        }
        catch (final IllegalArgumentException e)
        {
            // said below, with what to write
        }
        throw new IllegalArgumentException(option + ": '" + text + "' is not a positive duration; fix: write a number"
            + " with a unit: ns, us, ms, s, m or h, e.g. 10s" + (zeroAllowed ? " (0 for none)" : ""));
    }

    /** @return the chain file the run reads, or null when the chain is a bundled one. */
    Path chainFile()
    {
        return chain == null || !Files.exists(chain) && bundledName(chain) != null ? null : chain;
    }

    /**
     * Loads a chain the way every command takes one: a YAML file when one exists at that path,
     * otherwise a bundled chain of that name ({@code lb}, {@code lb.yaml}); null means the default.
     *
     * @param chain the chain as the user named it, or null.
     * @return the chain.
     */
    static ChainSpec load(final Path chain)
    {
        if (chain == null)
        {
            return new ChainLoader().loadBundled(DEFAULT_CHAIN);
        }
        final String bundled = Files.exists(chain) ? null : bundledName(chain);
        return bundled != null ? new ChainLoader().loadBundled(bundled) : new ChainLoader().load(chain);
    }

    /** @return the bundled chain {@code chain} names ({@code lb} or {@code lb.yaml}, no directory), or null. */
    private static String bundledName(final Path chain)
    {
        if (chain.getNameCount() != 1)
        {
            return null;
        }
        final String name = chain.toString();
        final String bare = name.endsWith(".yaml") ? name.substring(0, name.length() - ".yaml".length()) : name;
        return ChainLoader.BUNDLED.contains(bare) ? bare : null;
    }

    /**
     * Checks a thread count given with {@code option} against the one bound chains and experiments share.
     *
     * @throws UsageProblem if it is out of range.
     */
    static void checkThreads(final String option, final long threads)
    {
        if (threads < 0 || threads > RunSettings.MAX_EXECUTOR_THREADS)
        {
            throw new UsageProblem(option + " must be in 0.." + RunSettings.MAX_EXECUTOR_THREADS + ", got " + threads + ".",
                "give the number of executor threads, e.g. " + option + " " + Runtime.getRuntime().availableProcessors()
                    + " (this machine's cores), or 0 for one per core.");
        }
    }

    /** Warns on stderr when more executor threads are asked for than the machine has cores: they would take turns. */
    static void warnAboutThreadsBeyondCores(final int threads)
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        if (threads > cores)
        {
            System.err.printf(Locale.ROOT, "warning: %,d executor threads on %,d cores: threads beyond the cores take turns "
                + "and slow the run down (use --threads 0 for one per core)%n", threads, cores);
        }
    }
}
