package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** One test per kind of chain error: the exact line:column, the message and the fix. */
class ChainErrorsTest
{
    private final ChainLoader loader = new ChainLoader();

    private List<ChainError> errors(final String yaml)
    {
        return loader.validate(yaml, "t.yaml");
    }

    private static ChainError single(final List<ChainError> errors)
    {
        assertEquals(1, errors.size(), () -> "expected one error, got:\n" + render(errors));
        return errors.get(0);
    }

    private static ChainError at(final List<ChainError> errors, final String position)
    {
        for (final ChainError error : errors)
        {
            if (error.position().equals(position))
            {
                return error;
            }
        }
        return fail("no error at " + position + " in:\n" + render(errors));
    }

    private static void assertContains(final String text, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(text.contains(part), () -> "expected '" + part + "' in: " + text);
        }
    }

    private static String render(final List<ChainError> errors)
    {
        return errors.stream().map(ChainError::format).collect(Collectors.joining("\n"));
    }

    @Test
    void shouldReportYamlSyntaxErrorAtJacksonsLocation()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
               type: b
            """));
        assertEquals("4:4", error.position());
        assertContains(error.message(), "YAML syntax error");
        assertContains(error.fix(), "indentation");
    }

    @Test
    void shouldReportABadErrorBoundWithWhatToWrite()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              faults:
                error_bound: 150%
            """));
        assertEquals("7:18", error.position());
        assertContains(error.message(), "bad error_bound");
        assertContains(error.fix(), "e.g. 1% or 0.01");
    }

    @Test
    void shouldReportAnEmptyFile()
    {
        final ChainError error = single(errors(""));
        assertEquals("1:1", error.position());
        assertContains(error.message(), "empty");
    }

    @Test
    void shouldSuggestTheClosestTopLevelKey()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            edgse: []
            """));
        assertEquals("5:1", error.position());
        assertContains(error.message(), "unknown key 'edgse' at the top level");
        assertContains(error.fix(), "did you mean 'edges'?");
    }

    @Test
    void shouldSuggestTheClosestVnfKey()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
                parms: { capacity: 4 }
            """));
        assertEquals("5:5", error.position());
        assertContains(error.message(), "unknown key 'parms' in a VNF");
        assertContains(error.fix(), "did you mean 'params'?");
    }

    @Test
    void shouldReportMissingNameAndTypeAtTheVnf()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - type: test-sink
              - name: b
            """);
        assertEquals(2, errors.size(), () -> render(errors));
        assertContains(at(errors, "3:5").message(), "a VNF is missing 'name'");
        assertContains(at(errors, "4:5").message(), "VNF 'b' is missing 'type'");
        assertContains(at(errors, "4:5").fix(), "test-router", "test-sink");
    }

    @Test
    void shouldReportMissingChainName()
    {
        final ChainError error = single(errors("""
            vnfs:
              - name: a
                type: test-sink
            """));
        assertEquals("1:1", error.position());
        assertContains(error.message(), "missing 'name'");
    }

    @Test
    void shouldReportDuplicateVnfNameWithTheFirstUse()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: a
                type: test-sink
            """));
        assertEquals("5:11", error.position());
        assertContains(error.message(), "duplicate VNF name 'a' (first used at 3:11)");
    }

    @Test
    void shouldListKnownTypesAndSuggestTheClosestForUnknownType()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-routr
            """));
        assertEquals("4:11", error.position());
        assertContains(error.message(), "unknown VNF type 'test-routr'");
        assertContains(error.fix(), "did you mean 'test-router'?", "test-sink");
    }

    @Test
    void shouldPointAtTheVnfWhenARequiredParameterIsMissing()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-router
            """));
        assertEquals("3:5", error.position());
        assertContains(error.message(), "VNF 'a' is missing parameter 'capacity'");
        assertContains(error.fix(), "add 'capacity: ", "under 'params:'");
    }

    @Test
    void shouldPointAtEveryBadTableSizeAndSuggestTheClosestTable()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  conections: { expected_entries: 1000 }
                  active: { expected_entries: 0 }
                  bytes: { expected: 10 }
                  connection-bytes: 5
            """);
        assertEquals(5, errors.size(), () -> render(errors));
        final ChainError unknown = at(errors, "6:7");
        assertContains(unknown.message(), "VNF 'lb' has no table 'conections'");
        assertContains(unknown.fix(), "did you mean 'connections'?", "known tables: connections, connection-bytes, active, bytes");
        assertContains(at(errors, "7:35").message(), "bad 'expected_entries' of table 'active' of VNF 'lb'");
        assertContains(at(errors, "7:35").fix(), "[1, 1073741824]");
        assertContains(at(errors, "8:16").message(), "unknown key 'expected' in table 'bytes' of VNF 'lb'");
        assertContains(at(errors, "8:14").message(), "table 'bytes' of VNF 'lb' sets neither 'expected_entries' nor 'capacity'");
        assertContains(at(errors, "9:25").message(), "table 'connection-bytes' of VNF 'lb' must be a map");
    }

    @Test
    void shouldPointAtEveryBadCapacityAndEvictionOnlyWhereTheVnfCanEvict()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { capacity: 0 }
                  active: { capacity: 10, when_full: evict }
                  bytes: { expected_entries: 50, capacity: 10 }
                  connection-bytes: { when_full: evict, expected_entries: 5 }
              - name: fw
                type: firewall
                tables:
                  connections: { capacity: 100, when_full: drop }
            edges:
              - { from: lb, to: fw }
            """);
        assertEquals(5, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:32").message(), "bad 'capacity' of table 'connections' of VNF 'lb'");
        assertContains(at(errors, "7:42").message(), "VNF 'lb' cannot evict from table 'active'");
        assertContains(at(errors, "7:42").fix(), "evict from connections");
        assertContains(at(errors, "8:34").message(), "'expected_entries' 50 of table 'bytes' of VNF 'lb' is more than its capacity 10");
        assertContains(at(errors, "9:38").message(), "table 'connection-bytes' of VNF 'lb' evicts when full but has no capacity of its own");
        assertContains(at(errors, "13:48").message(), "bad 'when_full' 'drop' of table 'connections' of VNF 'fw'");
        assertContains(at(errors, "13:48").fix(), "write 'reject'");
    }

    @Test
    void shouldPointAtEveryBadTrigger()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: monitor
                type: flow-monitor
                tables:
                  host-packets: { trigger: { above: many, alert: busy } }
                  host-bytes: { trigger: { above: 10 } }
                  flow-packets: { trigger: { above: 10, alert: "1st" } }
            """);
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(render(errors), "bad 'above' of 'trigger' of table 'host-packets' of VNF 'monitor': 'many'",
            "'trigger' of table 'host-bytes' of VNF 'monitor' is missing 'alert'", "bad 'alert' of 'trigger' of table 'flow-packets'");
    }

    @Test
    void shouldRefuseCommutativeWhereTheVnfCannotRunItsUpdatesAsAdds()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: fw
                type: firewall
                tables:
                  connections: { consistency: commutative }
              - name: monitor
                type: flow-monitor
                params: { host_idle_timeout: 30s }
                tables:
                  host-packets: { consistency: commutative }
              - name: totals
                type: flow-monitor
                tables:
                  host-bytes: { consistency: stale-reads }
                  host-packets: { consistency: commutative, trigger: { above: 10, alert: busy } }
            edges:
              - { from: fw, to: monitor }
              - { from: monitor, to: totals }
            """);
        assertEquals(4, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:35").message(), "table 'connections' of VNF 'fw' cannot be commutative: its VNF reads the table");
        assertContains(at(errors, "6:35").fix(), "remove 'consistency: commutative'", "can make none of its tables commutative");
        assertContains(at(errors, "11:36").message(), "table 'host-packets' of VNF 'monitor' cannot be commutative",
            "with 'host_idle_timeout' the monitor restarts a host's count", "not a delta");
        assertContains(at(errors, "15:34").message(), "bad 'consistency' 'stale-reads' of table 'host-bytes' of VNF 'totals'");
        assertContains(at(errors, "15:34").fix(), "'stale-reads' needs its bound: '{ stale-reads: 1 }'");
        assertContains(at(errors, "16:36").message(), "table 'host-packets' of VNF 'totals' cannot be commutative and have a trigger");
    }

    @Test
    void shouldRefuseFireAndForgetWhereTheVnfReadsTheTableOrTheResultsOfItsUpdates()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: monitor
                type: flow-monitor
                tables:
                  flow-last-seen: { consistency: fire-and-forget }
                  flow-errors: { consistency: fire-and-forget }
                  flow-packets: { consistency: fire-and-forget }
              - name: totals
                type: flow-monitor
                tables:
                  host-packets: { consistency: fire-and-forget, trigger: { above: 10, alert: busy } }
                  host-bytes: { consistency: forget }
            edges:
              - { from: monitor, to: totals }
            """);
        assertEquals(4, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:38").message(), "table 'flow-last-seen' of VNF 'monitor' cannot be fire-and-forget: its VNF reads the table");
        assertContains(at(errors, "6:38").fix(), "remove 'consistency: fire-and-forget'",
            "can make flow-packets, flow-bytes, host-packets, host-bytes fire-and-forget");
        assertContains(at(errors, "7:35").message(), "table 'flow-errors' of VNF 'monitor' cannot be fire-and-forget");
        assertContains(at(errors, "12:36").message(), "table 'host-packets' of VNF 'totals' cannot be fire-and-forget and have a trigger");
        assertContains(at(errors, "13:34").message(), "bad 'consistency' 'forget' of table 'host-bytes' of VNF 'totals'");
        assertContains(at(errors, "13:34").fix(), "'fire-and-forget' (updates nobody waits for");
    }

    @Test
    void shouldRefuseStaleReadsWhereTheVnfNeedsCurrentReadsAndBadBounds()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { consistency: { stale-reads: 1 } }
                  bytes: { consistency: { stale: 1 } }
              - name: lb2
                type: load-balancer
                tables:
                  active: { consistency: { stale-reads: -1 } }
              - name: lb3
                type: load-balancer
                tables:
                  active: { consistency: { stale-reads: 1 }, trigger: { above: 10, alert: busy } }
            edges:
              - { from: lb, to: lb2 }
              - { from: lb2, to: lb3 }
            """);
        assertEquals(5, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:50").message(), "table 'connections' of VNF 'lb' cannot have stale reads: its VNF needs every read");
        assertContains(at(errors, "6:50").fix(), "remove 'consistency: { stale-reads: 1 }'", "can give active stale reads");
        assertContains(render(errors), "'stale'", "has no 'stale-reads'");
        assertContains(at(errors, "11:45").message(), "bad 'stale-reads' bound of table 'active' of VNF 'lb2'");
        assertContains(at(errors, "15:45").message(), "table 'active' of VNF 'lb3' cannot have stale reads and a trigger");
    }

    @Test
    void shouldReadStaleReadsTablesAndTheirBoundsIntoTheChain()
    {
        final ChainSpec chain = new ChainLoader().parse("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  active: { consistency: { stale-reads: 2 } }
            """, "x.yaml");
        assertEquals(java.util.Map.of("active", 2), chain.vnfs().get(0).staleReads());
        assertEquals(java.util.Set.of(), chain.vnfs().get(0).commutative());
    }

    @Test
    void shouldReadFireAndForgetTablesIntoTheChain()
    {
        final ChainSpec chain = new ChainLoader().parse("""
            name: x
            vnfs:
              - name: monitor
                type: flow-monitor
                params: { host_idle_timeout: 5s, expiry_interval: 1s }
                tables:
                  host-packets: { consistency: fire-and-forget }
                  flow-bytes: { consistency: fire-and-forget, capacity: 1000 }
                  flow-packets: { consistency: serializable }
            """, "x.yaml");
        assertEquals(java.util.Set.of("host-packets", "flow-bytes"), chain.vnfs().get(0).fireAndForget());
        assertEquals(java.util.Set.of(), chain.vnfs().get(0).commutative());
        assertEquals(1000, chain.vnfs().get(0).tables().get("flow-bytes").capacity());
    }

    @Test
    void shouldReadCommutativeTablesIntoTheChain()
    {
        final ChainSpec chain = new ChainLoader().parse("""
            name: x
            vnfs:
              - name: monitor
                type: flow-monitor
                tables:
                  host-packets: { consistency: commutative }
                  host-bytes: { consistency: commutative, capacity: 1000 }
                  flow-packets: { consistency: serializable }
            """, "x.yaml");
        assertEquals(java.util.Set.of("host-packets", "host-bytes"), chain.vnfs().get(0).commutative());
        assertEquals(1000, chain.vnfs().get(0).tables().get("host-bytes").capacity());
    }

    @Test
    void shouldReadCapacitiesAndEvictionIntoTheChain()
    {
        assertEquals(List.of(), errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { capacity: 1000, when_full: evict, expected_entries: 1000 }
                  connection-bytes: { capacity: 2000, when_full: reject }
            """));
    }

    @Test
    void shouldReadTableSizesIntoTheChain()
    {
        assertEquals(List.of(), errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { expected_entries: 200_000 }
            """));
    }

    @Test
    void shouldPointAtAnUnknownDistributionAndAtDistributionsNoRoutingKeySatisfies()
    {
        final ChainError unknown = single(errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  active: { distribution: by-flows }
            """));
        assertEquals("6:31", unknown.position());
        assertContains(unknown.message(), "unknown distribution 'by-flows' for table 'active' of VNF 'lb'");
        assertContains(unknown.fix(), "by-flow, by-source-host, single, per-subtask");

        final ChainError conflict = single(errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  active: { distribution: per-subtask }
                  bytes: { distribution: by-source-host }
            """));
        assertEquals("7:30", conflict.position());
        assertContains(conflict.message(), "table lb.bytes is by-source-host and table lb.connections is by-flow",
            "lb.connections declares nothing: a per-flow table is by-flow");
        assertContains(conflict.fix(), "declare one of them 'distribution: single'");
    }

    @Test
    void shouldReadDistributionsIntoTheChainWithoutSizes()
    {
        assertEquals(List.of(), errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  active: { distribution: per-subtask }
                  bytes: { distribution: single, expected_entries: 64 }
            """));
    }

    @Test
    void shouldPointAtTheKeyOfAnUnknownParameter()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-router
                params:
                  capacity: 4
                  capacty: 5
            """));
        assertEquals("7:7", error.position());
        assertContains(error.message(), "unknown parameter 'capacty' for VNF type 'test-router'");
        assertContains(error.fix(), "did you mean 'capacity'?");
    }

    @Test
    void shouldPointAtTheValueOfEveryBadParameter()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-router
                params: { capacity: 0, ratio: abc, timeout: 5, ports: [80, 70000] }
            """);
        assertEquals(4, errors.size(), () -> render(errors));
        assertContains(at(errors, "5:25").message(), "'capacity' = 0 is out of range");
        assertContains(at(errors, "5:25").fix(), "allowed: [1, 1000000]");
        assertContains(at(errors, "5:35").message(), "bad value 'abc' for 'ratio'");
        assertContains(at(errors, "5:35").fix(), "write a number");
        assertContains(at(errors, "5:49").message(), "'timeout'");
        assertContains(at(errors, "5:49").fix(), "duration with a unit");
        assertContains(at(errors, "5:59").message(), "'ports'");
    }

    @Test
    void shouldPointAtTheParameterTheFactoryRejects()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-router
                params: { capacity: 4, mode: broken }
            """));
        assertEquals("5:34", error.position());
        assertContains(error.message(), "mode 'broken' is not supported");
    }

    @Test
    void shouldReportEveryBadSetting()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              punctuation: { transactions: 0, interval: 5 }
              executor_threads: -1
              threads: 2
            """);
        assertEquals(4, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:32").message(), "bad punctuation transactions 0");
        assertContains(at(errors, "6:45").message(), "bad punctuation interval 5");
        assertContains(at(errors, "6:45").fix(), "unit");
        assertContains(at(errors, "7:21").message(), "bad executor_threads -1");
        assertContains(at(errors, "7:21").fix(), "0 = one per core");
        assertContains(at(errors, "8:3").fix(), "did you mean 'executor_threads'?");
    }

    @Test
    void shouldReadTheControlPlanesAddressOnLoopbackByDefaultAndReportABadOne()
    {
        final ChainSpec bare = loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              http: 9100
            """, "t.yaml");
        assertEquals(new HttpAddress("127.0.0.1", 9100), bare.settings().http());
        final ChainSpec everywhere = loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              http: "0.0.0.0:9100"
            """, "t.yaml");
        assertEquals(new HttpAddress("0.0.0.0", 9100), everywhere.settings().http());
        final ChainSpec none = loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            """, "t.yaml");
        assertNull(none.settings().http());

        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              http: "localhost:web"
            """);
        assertEquals(1, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:9").message(), "bad http 'localhost:web': 'web' is not a port number");
        assertContains(at(errors, "6:9").fix(), "HOST:PORT");
    }

    @Test
    void shouldReadALatencyTargetAndReportABadOne()
    {
        final ChainSpec chain = loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              punctuation: { transactions: 128, latency_target: 200us }
            """, "t.yaml");
        assertEquals(200_000, chain.settings().latencyTargetNs());
        assertEquals(128, chain.settings().punctuationTransactions());

        final ChainError bad = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              punctuation: { latency_target: fast }
            """));
        assertEquals("6:34", bad.position());
        assertContains(bad.message(), "bad punctuation latency_target 'fast'");
        assertContains(bad.fix(), "unit");
    }

    @Test
    void shouldReportBadFragmentSettingsAndReadGoodOnes()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              fragments: { timeout: 0s, max_held: 5000, hold: 3 }
            """);
        assertEquals(3, errors.size(), () -> render(errors));
        assertContains(at(errors, "6:25").message(), "bad fragment timeout");
        assertContains(at(errors, "6:25").fix(), "positive duration");
        assertContains(at(errors, "6:39").message(), "bad fragments max_held 5000");
        assertContains(at(errors, "6:39").fix(), "[0, 4096]", "0 = hold none");
        assertContains(at(errors, "6:45").message(), "'hold'");

        final io.transnfv.engine.chain.ChainSpec chain = loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              fragments: { timeout: 250ms, max_held: 8 }
            """, "chain.yaml");
        assertEquals(new io.transnfv.engine.chain.FragmentSettings(250_000_000L, 8), chain.settings().fragments());
    }

    @Test
    void shouldReportEdgesToAndFromUnknownVnfs()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: nat
                type: test-sink
              - name: lb
                type: test-sink
            edges:
              - from: nat
                to: lbb
              - from: nta
                to: lb
            """);
        assertEquals(2, errors.size(), () -> render(errors));
        assertContains(at(errors, "9:9").message(), "no VNF named 'lbb'");
        assertContains(at(errors, "9:9").fix(), "did you mean 'lb'?");
        assertContains(at(errors, "10:11").message(), "no VNF named 'nta'");
        assertContains(at(errors, "10:11").fix(), "did you mean 'nat'?");
    }

    @Test
    void shouldListTheOutputsOfTheVnfForAnUnknownOutput()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-router
                params: { capacity: 4 }
              - name: b
                type: test-sink
            edges:
              - from: a
                output: suspicous
                to: b
            """));
        assertEquals("10:13", error.position());
        assertContains(error.message(), "VNF 'a' (type test-router) has no output 'suspicous'");
        assertContains(error.fix(), "did you mean 'suspicious'?", "out, suspicious");
    }

    @Test
    void shouldNameTheVnfsOnACycle()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
              - name: c
                type: test-sink
            edges:
              - from: a
                to: b
              - from: b
                to: c
              - from: c
                to: b
            """));
        assertEquals("14:5", error.position());
        assertContains(error.message(), "cycle: b -> c -> b");
        assertContains(error.fix(), "b -> c at 12:5", "c -> b at 14:5");
    }

    @Test
    void shouldReportAVnfUnreachableFromTheEntry()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
            """));
        assertEquals("5:11", error.position());
        assertContains(error.message(), "VNF 'b' is unreachable from the entry VNF 'a'");
    }

    @Test
    void shouldReportBadPredicateFieldsAndValues()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
            edges:
              - from: a
                to: b
                when:
                  proto: sctpp
                  dport: 80
                  src_net: 10.1.0.0/8
                  dst_port: [80, 70000]
                  tcp_flags: [syn, psh]
                  ip_version: 5
            """);
        assertEquals(6, errors.size(), () -> render(errors));
        assertContains(at(errors, "11:14").message(), "bad proto 'sctpp'");
        assertContains(at(errors, "12:7").fix(), "did you mean 'dst_port'?");
        assertContains(at(errors, "13:16").message(), "host bits set");
        assertContains(at(errors, "14:22").message(), "bad dst_port 70000");
        assertContains(at(errors, "15:24").message(), "bad tcp_flags item 'psh'");
        assertContains(at(errors, "16:19").message(), "bad ip_version 5");
    }

    @Test
    void shouldReportAPredicateNoPacketCanMatch()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
            edges:
              - from: a
                to: b
                when: { proto: udp, tcp_flags: [syn] }
            """));
        assertEquals("10:20", error.position());
        assertContains(error.message(), "'tcp_flags' needs TCP");
    }

    @Test
    void shouldReportAnEdgeShadowedByAnEarlierUnconditionalEdge()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
              - name: b
                type: test-sink
              - name: c
                type: test-sink
            edges:
              - from: a
                to: b
              - from: a
                to: c
                when: { proto: tcp }
            """));
        assertEquals("12:5", error.position());
        assertContains(error.message(), "never taken", "10:5");
    }

    @Test
    void shouldReportTrafficWithBothGenerateAndPcap()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate: { packets: 10 }
                pcap: trace.pcap
            """));
        assertEquals("8:5", error.position());
        assertContains(error.message(), "both 'generate' and 'pcap'");
        assertContains(error.fix(), "keep one");
    }

    @Test
    void shouldReportTrafficWithNeitherGenerateNorPcap()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic: { loop: 2 }
            """));
        assertEquals("6:12", error.position());
        assertContains(error.message(), "needs 'generate' or 'pcap'");
    }

    @Test
    void shouldReportBadGeneratorParameters()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate: { packets: 0, new_con_ratio: 0.1 }
            """);
        assertEquals(2, errors.size(), () -> render(errors));
        assertContains(at(errors, "7:26").message(), "'packets'");
        assertContains(at(errors, "7:29").fix(), "did you mean 'new_conn_ratio'?");
    }

    @Test
    void shouldReadGeneratorStreamsAndReportABadOneAtItsLine()
    {
        final String good = """
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate:
                  packets: 5000
                  streams:
                    - { rate_pps: 900000, vlan: 100, client_base: 10.1.0.1 }
                    - { rate_pps: 100000, vlan: 200, dscp: 46, new_conn_ratio: 0.5, dst_ports: [80, 443] }
            """;
        assertEquals(List.of(), errors(good));
        final var generator = loader.parse(good, "t.yaml").settings().traffic().generator();
        assertEquals(2, generator.streams().size());
        assertEquals(200, generator.streams().get(1).vlan());
        assertEquals(46, generator.streams().get(1).dscp());
        assertEquals(0x0A010001, generator.streams().get(0).clientBase());
        assertEquals(5_000, generator.totalPackets());

        final List<ChainError> bad = errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate:
                  streams:
                    - { rate_pps: 900000, vlan: 5000 }
                    - { rate_ps: 100000 }
                    - { streams: [] }
            """);
        assertEquals(3, bad.size(), () -> render(bad));
        assertContains(at(bad, "9:37").message(), "stream 0: generator parameter 'vlan': expected an integer in 0..4094");
        assertContains(at(bad, "10:13").message(), "unknown generator parameter 'rate_ps' in stream 1");
        assertContains(at(bad, "10:13").fix(), "did you mean 'rate_pps'?");
        assertContains(at(bad, "11:13").fix(), "a stream has no streams of its own");
        assertContains(single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate: { streams: { vlan: 1 } }
            """)).message(), "'streams'");
    }

    @Test
    void shouldPointAnInvertedFrameSizeRangeAtMinSizeAndAcceptOneAboveTheDefaults()
    {
        final ChainError inverted = single(errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate: { max_size: 100, min_size: 200 }
            """));
        assertEquals("7:42", inverted.position());
        assertEquals("generator parameter 'max_size' (100) must be >= 'min_size' (200)", inverted.message());
        assertEquals("see 'generate' in docs/chain-yaml.md for each parameter's range", inverted.fix());

        // each value is checked on its own and the range against the values written: a range
        // wholly above the default maximum (1500) is valid
        assertEquals(List.of(), errors("""
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic:
                generate: { min_size: 2000, max_size: 3000 }
            """));
    }

    @Test
    void shouldReportAMissingPcapFileRelativeToTheChainFile(@TempDir final Path dir) throws Exception
    {
        final Path chain = dir.resolve("c.yaml");
        Files.writeString(chain, """
            name: x
            vnfs:
              - name: a
                type: test-sink
            settings:
              traffic: { pcap: missing.pcap, loop: 2 }
            """);
        final List<ChainError> errors = loader.validate(chain);
        final ChainError error = single(errors);
        assertEquals("6:20", error.position());
        assertContains(error.message(), "pcap file not found: " + dir.toRealPath().resolve("missing.pcap"));
        assertContains(error.fix(), "chain file's directory");
    }

    @Test
    void shouldReportADuplicateKey()
    {
        final ChainError error = single(errors("""
            name: x
            name: y
            vnfs:
              - name: a
                type: test-sink
            """));
        assertEquals("2:1", error.position());
        assertContains(error.message(), "duplicate key 'name' (first written at 1:1)");
    }

    @Test
    void shouldCollectEveryErrorInFileOrder()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: a
                type: nope
              - name: b
                type: test-sink
                params: { x: 1 }
            edges:
              - from: a
                to: zz
            settings:
              executor_threads: many
            """);
        assertEquals(List.of("4:11", "5:11", "7:15", "10:9", "12:21"),
            errors.stream().map(ChainError::position).toList(), () -> render(errors));
    }

    @Test
    void shouldThrowWithEveryErrorAsFileLineColumnAndItsFix()
    {
        final ChainValidationException e = assertThrows(ChainValidationException.class, () -> loader.parse("""
            name: x
            vnfs:
              - name: a
                type: test-sinc
            sttings: {}
            """, "chains/t.yaml"));
        assertEquals(2, e.errors().size());
        assertContains(e.getMessage(), "2 errors in chain chains/t.yaml:",
            "chains/t.yaml:4:11: unknown VNF type 'test-sinc'", "fix: did you mean 'test-sink'?",
            "chains/t.yaml:5:1: unknown key 'sttings' at the top level", "fix: did you mean 'settings'?");
    }

    @Test
    void shouldReportAMissingChainFile(@TempDir final Path dir)
    {
        final ChainValidationException e =
            assertThrows(ChainValidationException.class, () -> loader.load(dir.resolve("none.yaml")));
        assertContains(e.getMessage(), "chain file not found");
    }

    @Test
    void shouldRefuseWhatASetRingOrStructTableCannotHonourAtItsValue()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: fw
                type: firewall
                tables:
                  connections: { type: set }
              - name: ports
                type: test-state-types
                tables:
                  ports: { type: list }
                  seen: { type: value }
              - name: more
                type: test-state-types
                tables:
                  ports: { type: set, consistency: commutative }
              - name: late
                type: test-state-types
                tables:
                  ports: { consistency: { stale-reads: 1 } }
                  seen: { consistency: fire-and-forget }
              - name: alerting
                type: test-state-types
                tables:
                  ports: { trigger: { above: 0, alert: busy } }
                  recent: { type: ring, trigger: { above: 3, alert: busy } }
                  hosts: { type: struct, trigger: { above: 3, alert: busy } }
            edges:
              - { from: fw, to: ports }
              - { from: ports, to: more }
              - { from: more, to: late }
              - { from: late, to: alerting }
            """);
        assertEquals(8, errors.size(), () -> render(errors));
        assertContains(at(errors, "26:39").message(), "struct table 'hosts' of VNF 'alerting' cannot have a trigger",
            "its fields packets, score");
        assertContains(at(errors, "25:38").message(), "ring table 'recent' of VNF 'alerting' cannot have a trigger");
        assertContains(at(errors, "6:28").message(), "table 'connections' of VNF 'fw' is a value table, not a set");
        assertContains(at(errors, "6:28").fix(), "write 'type: value', or remove 'type:'");
        assertContains(at(errors, "10:22").message(), "bad 'type' 'list' of table 'ports' of VNF 'ports'");
        assertContains(at(errors, "10:22").fix(), "value, set");
        assertContains(at(errors, "15:40").message(), "table 'ports' of VNF 'more' cannot be commutative: it is a set");
        assertContains(at(errors, "19:44").message(), "table 'ports' of VNF 'late' cannot have stale reads: it is a set");
        assertContains(at(errors, "20:28").message(), "table 'seen' of VNF 'late' cannot be fire-and-forget");
        assertContains(at(errors, "24:34").message(), "'above' 0 of the trigger of set table 'ports' of VNF 'alerting'",
            "would fire on every member added");
    }
}
