package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.engine.source.SourceException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every real trace through the shipped nat-lb-td and fw-portscan-monitor chains: the engine
 * equals the oracle, with small batches (many punctuations) and with two threads. Traces
 * a reader rejects as a whole (no capture header) have nothing to compare and are skipped
 * by name; every other trace must run.
 */
class TraceEquivalenceTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnEveryTrace() throws IOException
    {
        final List<Path> traces = new ArrayList<>();
        try (Stream<Path> files = Files.list(TRACES))
        {
            files.filter(f -> f.toString().endsWith(".pcap") || f.toString().endsWith(".pcapng")).sorted().forEach(traces::add);
        }
        assertTrue(traces.size() >= 14, "expected the 14 shared traces in " + TRACES.toAbsolutePath());
        final List<DynamicTest> tests = new ArrayList<>();
        for (final String chainName : List.of("nat-lb-td", "fw-portscan-monitor"))
        {
            for (final Path trace : traces)
            {
                tests.add(DynamicTest.dynamicTest(chainName + " on " + trace.getFileName(), () -> check(chainName, trace)));
            }
        }
        return tests.stream();
    }

    private static void check(final String chainName, final Path trace) throws IOException
    {
        try
        {
            PcapSource.open(trace).close();
        }
        catch (final SourceException e)
        {
            // a file with no readable capture header: the reader tests cover its error message
            assertTrue(e.getMessage().contains(trace.getFileName().toString()), e.getMessage());
            return;
        }
        final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.pcap(trace, 2)).withPunctuation(64, 1_000_000).withExecutorThreads(2));
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg"));
        assertTrue(result.equivalent(), () -> chainName + " on " + trace + ": first diverging packet #"
            + result.divergingSequence() + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord()
            + "\n  state: " + result.stateDifference());
    }
}
