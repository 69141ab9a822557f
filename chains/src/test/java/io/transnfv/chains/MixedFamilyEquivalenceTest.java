package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chain output equivalence on mixed IPv4/IPv6 traffic: every bundled chain, on a seeded
 * capture of both families with ICMP errors, scans and the real IPv6 capture
 * ({@link MixedFamilyCapture}), equals the serial oracle with small batches and two threads.
 */
class MixedFamilyEquivalenceTest
{
    private static final Path REAL_IPV6 = Path.of("..", "engine", "src", "test", "resources", "traces", "http_ipv6.pcap");
    private static final List<String> BUNDLED = List.of("fw-portscan-monitor", "nat-lb-td", "lb");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> shouldEqualTheOracleOnMixedIpv4AndIpv6TrafficThroughEveryBundledChain() throws IOException
    {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final long seed : new long[] {7, 42})
        {
            final Path capture = dir.resolve("mixed-" + seed + ".pcap");
            final int packets = MixedFamilyCapture.write(capture, 2_500, seed, REAL_IPV6);
            for (final String chainName : BUNDLED)
            {
                tests.add(DynamicTest.dynamicTest(chainName + " on mixed traffic, seed " + seed,
                    () -> check(chainName, capture, packets)));
            }
        }
        return tests.stream();
    }

    private static void check(final String chainName, final Path capture, final int packets) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.pcap(capture, 1)).withPunctuation(64, 1_000_000).withExecutorThreads(2));
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, TpgBatchExecutor::new, "tpg"));
        assertTrue(result.equivalent(), () -> chainName + " on " + capture + ": first diverging packet #"
            + result.divergingSequence() + "\n  oracle: " + result.oracleRecord() + "\n  engine: " + result.candidateRecord()
            + "\n  state: " + result.stateDifference());
        assertEquals(packets, result.packets());
    }

    @TestFactory
    Stream<DynamicTest> shouldExerciseTheIpv6PathsOfTheSecurityChain() throws IOException
    {
        final Path capture = dir.resolve("mixed-oracle.pcap");
        MixedFamilyCapture.write(capture, 2_500, 7, REAL_IPV6);
        final ChainSpec bundled = new ChainLoader().loadBundled("fw-portscan-monitor");
        final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(capture, 1)));
        final RunStats stats;
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            stats = oracle.run(source, null);
        }
        return Stream.of(
            DynamicTest.dynamicTest("the IPv6 scanner that changes address per probe is caught",
                () -> assertTrue(stats.alerts(1, 0) >= 1, "port-scan alerts: " + stats.alerts(1, 0))),
            DynamicTest.dynamicTest("unsolicited IPv6 packets abort their verification in the firewall",
                () -> assertTrue(stats.aborts(0) > 0, "firewall aborts: " + stats.aborts(0))),
            DynamicTest.dynamicTest("the firewall drops some packets and forwards most",
                () -> assertTrue(stats.forwarded() > stats.packetsFinished() / 2 && stats.forwarded() < stats.packetsFinished(),
                    stats.forwarded() + " of " + stats.packetsFinished())));
    }
}
