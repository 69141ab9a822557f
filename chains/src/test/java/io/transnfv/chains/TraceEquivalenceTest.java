package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.SourceException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every real trace through the shipped nat-lb-td and fw-portscan-monitor chains: the engine
 * equals the oracle, with small batches (many punctuations) and with two threads. The two
 * traces with no readable capture header have nothing to compare: a test of their own checks
 * that the chain's traffic source refuses them with the reader's error; every other trace
 * must open and run.
 */
class TraceEquivalenceTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    /** The traces without a readable capture header, and the reader's error for each. */
    private static final Map<String, String> UNREADABLE = Map.of(
        "malformed-header.pcap", "malformed-header.pcap: byte 0: not a pcap or pcapng file (magic 0x74686973)",
        "test_without_pcap_header.pcap", "test_without_pcap_header.pcap: byte 0: not a pcap or pcapng file (magic 0x00000000)");

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnEveryReadableTrace() throws IOException
    {
        final List<Path> traces = new ArrayList<>();
        try (Stream<Path> files = Files.list(TRACES))
        {
            files.filter(f -> f.toString().endsWith(".pcap") || f.toString().endsWith(".pcapng"))
                .filter(f -> !UNREADABLE.containsKey(f.getFileName().toString())).sorted().forEach(traces::add);
        }
        assertTrue(traces.size() >= 12, "expected the 12 readable shared traces in " + TRACES.toAbsolutePath());
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

    @Test
    void shouldRefuseTheTracesWithoutACaptureHeaderWithTheReadersError()
    {
        for (final Map.Entry<String, String> unreadable : new TreeMap<>(UNREADABLE).entrySet())
        {
            final TrafficSpec traffic = TrafficSpec.pcap(TRACES.resolve(unreadable.getKey()), 2);
            final SourceException e = assertThrows(SourceException.class, () -> PacketSources.open(traffic).close(),
                unreadable.getKey());
            assertEquals(unreadable.getValue(), e.getMessage());
        }
    }

    private static void check(final String chainName, final Path trace) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.pcap(trace, 2)).withPunctuation(64, 1_000_000).withExecutorThreads(2));
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg"));
        assertTrue(result.equivalent(), () -> chainName + " on " + trace + ": first diverging packet #"
            + result.divergingSequence() + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord()
            + "\n  state: " + result.stateDifference());
        assertTrue(result.checkersHeld(), () -> chainName + " on " + trace + ": checkers violated: oracle "
            + result.oracleCheckers() + ", engine " + result.candidateCheckers());
    }
}
