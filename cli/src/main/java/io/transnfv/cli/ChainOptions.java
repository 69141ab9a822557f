package io.transnfv.cli;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.vnf.api.VnfConfig;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Options shared by the commands that run a chain: which chain, which traffic, and the
 * settings that override the chain's {@code settings:} block.
 */
final class ChainOptions
{
    /** The chain run when none is given. */
    static final String DEFAULT_CHAIN = "nat-lb-td";

    @Parameters(index = "0", arity = "0..1", paramLabel = "CHAIN.yaml",
        description = "Chain definition (default: the bundled " + DEFAULT_CHAIN + " chain).")
    Path chain;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Read packets from a pcap or pcapng file.")
    Path pcap;

    @Option(names = "--loop", paramLabel = "N", defaultValue = "1",
        description = "Replay the --pcap file N times (default: ${DEFAULT-VALUE}).")
    int loops;

    @Option(names = "--generate", paramLabel = "k=v,...",
        description = "Generate traffic with these parameters (e.g. packets=100000,new_conn_ratio=0.2,seed=7).")
    String generate;

    @Option(names = "--out", paramLabel = "FILE", description = "Write forwarded packets to this pcap file.")
    Path out;

    @Option(names = "--threads", paramLabel = "N", description = "Executor threads (0 = one per core).")
    Integer threads;

    @Option(names = "--batch", paramLabel = "TXNS", description = "Punctuation every TXNS transactions.")
    Integer batchTransactions;

    @Option(names = "--interval", paramLabel = "DURATION",
        description = "Punctuation every DURATION of packet time, e.g. 500us, 1ms.")
    String batchInterval;

    @Option(names = "--error-bound", paramLabel = "SHARE",
        description = "Stop the run when more than SHARE of a window's packets fail in VNF code, e.g. 1% or 0.01"
            + " (default 1%; 100% never stops). See settings.faults.error_bound.")
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
            throw new IllegalArgumentException("give --pcap or --generate, not both");
        }
        if (loops < 1)
        {
            throw new IllegalArgumentException("--loop must be at least 1: " + loops);
        }
        ChainSpec spec = chain == null ? new ChainLoader().loadBundled(DEFAULT_CHAIN) : new ChainLoader().load(chain);
        RunSettings settings = spec.settings();
        if (pcap != null)
        {
            settings = settings.withTraffic(TrafficSpec.pcap(pcap, loops));
        }
        else if (generate != null)
        {
            settings = settings.withTraffic(TrafficSpec.generate(generator(generate, settings.traffic())));
        }
        else if (loops != 1 && settings.traffic().kind() == TrafficSpec.Kind.PCAP)
        {
            settings = settings.withTraffic(TrafficSpec.pcap(settings.traffic().pcap(), loops));
        }
        if (out != null)
        {
            settings = settings.withOutPcap(out);
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

    /**
     * Parses {@code k=v,...} once, into the generator's settings: keys given on the command
     * line override the chain's own generator settings, so {@code --generate packets=1000}
     * keeps the chain's other parameters.
     */
    private static GeneratorConfig generator(final String text, final TrafficSpec chainTraffic)
    {
        final GeneratorConfig.Builder config = chainTraffic.kind() == TrafficSpec.Kind.GENERATE
            ? chainTraffic.generator().toBuilder() : GeneratorConfig.builder();
        return config.parse(text, item -> "--generate expects key=value pairs separated by commas, got '" + item + "'")
            .build();
    }
}
