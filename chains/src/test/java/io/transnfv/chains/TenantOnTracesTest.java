package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bundled chain as one tenant of a chain of two tenants, on every readable real trace:
 * the tenant's outputs (records, with its VNFs' names and the classifier and limiter taken out
 * of the path, and the frames it forwards) and its final state equal the bundled chain's own
 * run on the trace, on the serial oracle and on the engine with two threads and small batches.
 * The other tenant, listed first, matches a VLAN no trace carries, so the classifier tries it on
 * every packet and gives it none.
 */
class TenantOnTracesTest
{
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");
    private static final Set<String> UNREADABLE = Set.of("malformed-header.pcap", "test_without_pcap_header.pcap");
    private static final String TENANT = "tenant";

    @TestFactory
    Stream<DynamicTest> shouldGiveABundledChainAsATenantWhatItGivesAloneOnEveryTrace() throws IOException
    {
        final List<Path> traces = new ArrayList<>();
        try (Stream<Path> files = Files.list(TRACES))
        {
            files.filter(f -> f.toString().endsWith(".pcap") || f.toString().endsWith(".pcapng"))
                .filter(f -> !UNREADABLE.contains(f.getFileName().toString())).sorted().forEach(traces::add);
        }
        assertTrue(traces.size() >= 12, "expected the readable shared traces in " + TRACES.toAbsolutePath());
        final List<DynamicTest> tests = new ArrayList<>();
        for (final String chain : TenantsReader.bundledTenantChains())
        {
            for (final Path trace : traces)
            {
                tests.add(DynamicTest.dynamicTest(chain + " on " + trace.getFileName(), () -> check(chain, trace)));
            }
        }
        return tests.stream();
    }

    private static void check(final String chainName, final Path trace) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled(chainName);
        final ChainSpec alone = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.pcap(trace, 1)).withPunctuation(64, 1_000_000)
            .withExecutorThreads(1));
        final TenantRuns.Run expected = TenantRuns.run(new SerialChainExecutor(alone), alone);
        assertTrue(expected.outputs().size() > 0, "the trace has packets");

        final String yaml = "name: two\ntenants:\n"
            + "  - { name: other, match: { vlan: 4094 }, chain: lb }\n"
            + "  - { name: " + TENANT + ", chain: " + chainName + " }\n";
        final ChainSpec parsed = new ChainLoader().parse(yaml, "two.yaml");
        for (final int threads : new int[] {0, 2})
        {
            final ChainSpec tenants = parsed.withSettings(parsed.settings().withTraffic(TrafficSpec.pcap(trace, 1))
                .withPunctuation(threads == 0 ? 64 : 7, 1_000_000).withExecutorThreads(Math.max(1, threads)));
            final TenantRuns.Run run = threads == 0 ? TenantRuns.run(new SerialChainExecutor(tenants), tenants)
                : TenantRuns.run(new BatchedChainExecutor(tenants, TpgBatchExecutor::new, "tpg"), tenants);
            final String where = chainName + " as a tenant on " + trace.getFileName() + (threads == 0 ? ", serial oracle" : ", engine, 2 threads");
            assertEquals(expected.outputs().keySet(), run.outputs().keySet(), where);
            final List<String> want = new ArrayList<>();
            final List<String> got = new ArrayList<>();
            for (final Map.Entry<Long, String> output : expected.outputs().entrySet())
            {
                want.add(output.getValue());
                got.add(untenanted(run.outputs().get(output.getKey())));
            }
            final String outputs = TenantRuns.firstDifference(want, got);
            assertNull(outputs, () -> where + ": outputs " + outputs);
            final List<String> state = run.stateOf(TENANT + "-").stream().map(l -> l.substring(TENANT.length() + 1)).toList();
            final String difference = TenantRuns.firstDifference(expected.state(), state);
            assertNull(difference, () -> where + ": state " + difference);
            assertTrue(run.outputs().values().stream().noneMatch(o -> o.contains("other")), () -> where + ": the other tenant got no packet");
        }
    }

    /** @return a record of the tenant's with the classifier and limiter out of its path and its VNFs under their chain's names. */
    private static String untenanted(final String output)
    {
        return output.replace("ingress>" + TENANT + ">", "").replace(TENANT + "-", "");
    }
}
