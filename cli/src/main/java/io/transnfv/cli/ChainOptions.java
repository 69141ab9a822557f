package io.transnfv.cli;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
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
        return spec.withSettings(settings);
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
