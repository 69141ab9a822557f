package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.CheckerReport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * State checkers at punctuations ({@code settings: checkers:}): a NAT whose housekeeping maps one
 * port for two endpoints trips its checker at the same punctuations on the engine and the oracle
 * (the real NAT, the negative control, does not); the checks fall where the chain asks, by packet
 * time or by batches of the configured size; and every bundled chain passes its checkers, checked
 * every two batches, on every readable trace.
 */
class StateCheckerTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");
    /** The traces without a capture header: the chain's source refuses them (TraceEquivalenceTest). */
    private static final Set<String> UNREADABLE = Set.of("malformed-header.pcap", "test_without_pcap_header.pcap");

    /** 20,000 packets 0.5 ms apart: ten seconds of packet time, a NAT housekeeping tick every second. */
    private static final String NAT_CHAIN = """
        name: checked
        vnfs:
          - name: nat
            type: nat
            params: { pool_size: 64_000 }
        settings:
          executor_threads: 2
          punctuation: { transactions: 64 }
          checkers: %s
          traffic:
            generate: { packets: 20000, new_conn_ratio: 0.3, rate_pps: 2000, seed: 3 }
        """;

    @Test
    void shouldTripTheNatCheckerAtTheSamePunctuationsOnBothExecutorsWhenABrokenNatMapsOnePortTwice() throws IOException
    {
        final EquivalenceCheck.Result broken = compare(brokenNat(new ChainLoader().parse(NAT_CHAIN.formatted("{ every: 2s }"),
            "broken.yaml")));
        assertTrue(broken.equivalent(), "the bug is the same on both executors: " + broken.stateDifference());
        assertTrue(broken.checkersAgree(), () -> "oracle " + broken.oracleCheckers() + "\nengine " + broken.candidateCheckers());
        final CheckerReport report = broken.oracleCheckers();
        assertEquals(5, report.checks(), "at 2, 4, 6 and 8 s of packet time, and at the end");
        final CheckerReport.Violation twice = report.violations().stream()
            .filter(v -> v.checker().equals("port-owned-by-its-mapping")).findFirst().orElseThrow(() -> new AssertionError(report));
        assertEquals("nat", twice.vnf());
        assertEquals("the check before packet #4000", twice.firstSeen(), "the first check, at 2 s of packet time");
        assertTrue(twice.firstMessage().contains("which is owned by endpoint"), twice.firstMessage());
        // from the first tick on, some port serves two endpoints: every one of the five checks sees it
        assertTrue(twice.count() >= 5, String.valueOf(twice));
        assertEquals("checker:port-owned-by-its-mapping", twice.alert().type());

        final EquivalenceCheck.Result real = compare(new ChainLoader().parse(NAT_CHAIN.formatted("{ every: 2s }"), "real.yaml"));
        assertTrue(real.equivalent() && real.checkersHeld(), "the negative control: " + real.oracleCheckers());
        assertEquals(5, real.oracleCheckers().checks());
        assertEquals(5, real.candidateCheckers().checks());
    }

    @Test
    void shouldCheckEveryNBatchesOfTheConfiguredSizeAndOnlyTheEnabledCheckers() throws IOException
    {
        final ChainSpec chain = brokenNat(new ChainLoader().parse(NAT_CHAIN.formatted(
            "{ enabled: [nat.mappings-within-pool], every: 10 }"), "counted.yaml"));
        assertEquals(new CheckerSettings(List.of("nat.mappings-within-pool"), 0, 10), chain.settings().checkers());
        final EquivalenceCheck.Result result = compare(chain);
        assertTrue(result.equivalent() && result.checkersAgree(), String.valueOf(result));
        // every 10 x 64 = 640 packets: before packets 640, 1280, ..., 19,840 (31 checks), and at the end
        assertEquals(32, result.oracleCheckers().checks());
        assertEquals(32, result.candidateCheckers().checks());
        assertEquals(List.of("nat.mappings-within-pool"), result.oracleCheckers().checkers());
        assertTrue(result.checkersHeld(), "the broken NAT's other checkers did not run: " + result.oracleCheckers());
        assertEquals("every 10 batches (640 packets) and at the end", result.oracleCheckers().when());
    }

    @TestFactory
    Stream<DynamicTest> shouldPassTheirCheckersEveryTwoBatchesOnEveryReadableTraceForEveryBundledChain() throws IOException
    {
        final List<Path> traces = new ArrayList<>();
        try (Stream<Path> files = Files.list(TRACES))
        {
            files.filter(f -> f.toString().endsWith(".pcap") || f.toString().endsWith(".pcapng"))
                .filter(f -> !UNREADABLE.contains(f.getFileName().toString())).sorted().forEach(traces::add);
        }
        assertTrue(traces.size() >= 12, "expected the readable shared traces in " + TRACES.toAbsolutePath());
        final List<DynamicTest> tests = new ArrayList<>();
        for (final String chainName : ChainLoader.BUNDLED)
        {
            for (final Path trace : traces)
            {
                tests.add(DynamicTest.dynamicTest(chainName + " on " + trace.getFileName(), () ->
                {
                    final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
                    final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(trace, 2))
                        .withPunctuation(64, 1_000_000).withExecutorThreads(2).withCheckers(new CheckerSettings(null, 0, 2)));
                    final EquivalenceCheck.Result result = compare(chain);
                    assertTrue(result.equivalent(), () -> chainName + " on " + trace + ": first diverging packet #"
                        + result.divergingSequence() + "; state: " + result.stateDifference());
                    assertTrue(result.checkersHeld(), () -> chainName + " on " + trace + ": " + result.oracleCheckers()
                        + "\n engine: " + result.candidateCheckers());
                    assertTrue(result.checkersAgree(), () -> chainName + " on " + trace + ": checks " + result.oracleCheckers().checks()
                        + " vs " + result.candidateCheckers().checks());
                    assertFalse(result.oracleCheckers().checkers().isEmpty(), chainName + " declares checkers");
                }));
            }
        }
        return tests.stream();
    }

    /** @return {@code chain} with its NAT replaced by the broken one, same parameters. */
    private static ChainSpec brokenNat(final ChainSpec chain)
    {
        final VnfNode nat = chain.vnfs().get(0);
        return new ChainSpec(chain.name(), chain.description(), List.of(new VnfNode(nat.name(), new BrokenNatFactory(), nat.config())),
            chain.edges(), chain.settings());
    }

    private static EquivalenceCheck.Result compare(final ChainSpec chain) throws IOException
    {
        return EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg"));
    }
}
