package io.transnfv.flink.job;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bundled chain on every readable test capture (the real ones, damaged, fragmented and
 * tunnelled ones among them) on the Flink runtime at parallelism 2, judged as
 * {@code transnfv verify --runtime flink} judges it: each subtask's records and final state equal
 * the serial oracle's over that subtask's packets, and, where the chain shares nothing between
 * subtasks, the union equals the standalone oracle's. Every packet of the capture is accounted for.
 */
class FlinkTraceEquivalenceTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");
    /** The readable captures, and how many packets each holds. */
    private static final List<Object[]> CAPTURES = List.of(
        new Object[] {"WebattackXSS.pcap", 9_374},
        new Object[] {"synscan.pcap", 2_011},
        new Object[] {"alexa-app.pcapng", 3_435},
        new Object[] {"http_ipv6.pcap", 193},
        new Object[] {"6in4tunnel.pcap", 127},
        new Object[] {"4in4tunnel.pcap", 5},
        new Object[] {"ip_fragmented_garbage.pcap", 9_077},
        new Object[] {"badpackets.pcap", 93},
        new Object[] {"malformed_icmp.pcap", 1},
        new Object[] {"big-endian.pcap", 5},
        new Object[] {"truncated_dns_2.pcap", 1},
        new Object[] {"test_damaged.pcap", 1});

    @TempDir
    Path dir;

    static Stream<Arguments> chainsAndCaptures()
    {
        return Stream.of("nat-lb-td", "lb", "fw-portscan-monitor")
            .flatMap(chain -> CAPTURES.stream().map(c -> Arguments.of(chain, c[0], c[1])));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("chainsAndCaptures")
    void shouldEqualTheOraclePerSubtaskOnEveryCapture(final String chainName, final String capture, final int packets)
        throws IOException
    {
        final Path trace = TRACES.resolve(capture).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(trace), "missing test capture " + trace);
        // shipped to the subtasks: serializable fields only (a Path is not)
        final String file = trace.toString();
        final ChainSource chain = () ->
        {
            final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
            return bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(Path.of(file), 1)));
        };

        final FlinkRunResult result = FlinkRunner.run(chain, EngineFactory.tpg(), dir, FlinkSettings.of(2));

        assertEquals(packets, result.stats().packetsFinished(), "every packet of " + capture + " has a verdict");
        final List<FlinkEquivalence.Check> checks = FlinkEquivalence.check(chain.load(), result);
        assertFalse(checks.isEmpty());
        long judged = 0;
        for (final FlinkEquivalence.Check check : checks)
        {
            assertTrue(check.equivalent(), check.toString());
            judged += check.what().startsWith("subtask") ? check.packets() : 0;
        }
        assertEquals(packets, judged, "the subtasks' checks cover every packet: " + checks);
    }
}
