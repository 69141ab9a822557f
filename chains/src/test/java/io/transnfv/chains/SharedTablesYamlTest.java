package io.transnfv.chains;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.chain.SharedTableSpec;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.vnf.api.KeyKind;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chain's {@code shared_tables:} and its VNFs' {@code shared:}: read into one table the VNFs
 * bound to it share, or refused at file:line with a fix (unknown table or role, a table nobody
 * uses, key kinds that disagree, keys a shared table does not take, tenants); and refused with a
 * fix by the executors that cannot run them.
 */
class SharedTablesYamlTest
{
    private static final String VNFS = """
        vnfs:
          - name: fw
            type: firewall
            params: { internal_net: [10.0.0.0/8] }
            shared: { blocklist: %s }
          - name: scan
            type: port-scan-detector
            shared: { blocklist: blocked }
        edges:
          - { from: fw, to: scan }
        """;

    private final ChainLoader loader = new ChainLoader();

    private List<ChainError> errors(final String yaml)
    {
        return loader.validate(yaml, "t.yaml");
    }

    private static ChainError single(final List<ChainError> errors)
    {
        assertEquals(1, errors.size(), () -> "expected one error, got:\n" + errors.stream().map(ChainError::format)
            .collect(Collectors.joining("\n")));
        return errors.get(0);
    }

    private static void assertContains(final String text, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(text.contains(part), () -> "expected '" + part + "' in: " + text);
        }
    }

    @Test
    void shouldBindOneTableToEveryVnfThatNamesIt()
    {
        final ChainSpec chain = loader.parse("name: x\nshared_tables:\n  - { name: blocked, key: host, capacity: 1000, expected_entries: 100 }\n"
            + String.format(VNFS, "blocked"), "t.yaml");
        assertEquals(List.of(new SharedTableSpec("blocked", KeyKind.HOST, 100, 1000)), chain.sharedTables());
        assertEquals(Map.of("blocklist", "blocked"), chain.vnfs().get(0).shared());
        assertEquals(Map.of("blocklist", "blocked"), chain.vnfs().get(1).shared());
        final ChainRuntime runtime = new ChainRuntime(chain);
        final int table = runtime.catalog().find("chain", "blocked");
        assertTrue(table >= 0, "the shared table is in the catalogue once, as chain.blocked");
        assertEquals(List.of(table), runtime.instance(0).sharedTables());
        assertEquals(List.of(table), runtime.instance(1).sharedTables());
        assertEquals(1, runtime.catalog().specs().stream().filter(s -> s.name().equals("blocked")).count());
        assertEquals(1000, runtime.capacities().capacity(table));
        assertEquals(100, runtime.catalog().expectedEntries(table));
        assertEquals(0, runtime.fusedFirstStage());
        assertEquals(1, runtime.fusedLastStage());
    }

    @Test
    void shouldRefuseARoleBoundToAnUndeclaredTable()
    {
        final ChainError error = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host }\n" + String.format(VNFS, "blokced")));
        assertEquals("8:26", error.position());
        assertContains(error.message(), "role 'blocklist' of VNF 'fw' names no shared table 'blokced'");
        assertContains(error.fix(), "did you mean 'blocked'?");
    }

    @Test
    void shouldRefuseASharedTableNobodyUses()
    {
        final ChainError error = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host }\n  - { name: spare, key: host }\n"
            + String.format(VNFS, "blocked")));
        assertEquals("4:13", error.position());
        assertContains(error.message(), "no VNF uses shared table 'spare'");
        assertContains(error.fix(), "shared: { <role>: spare }", "or remove it");
    }

    @Test
    void shouldRefuseATableWhoseKeysAreNotTheRoles()
    {
        // 'flows' is then bound by nobody, which is reported too
        final ChainError error = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host }\n  - { name: flows, key: flow }\n"
            + String.format(VNFS, "flows")).stream().filter(e -> !e.message().contains("no VNF uses")).toList());
        assertContains(error.message(), "role 'blocklist' of VNF 'fw' cannot use shared table 'flows': its keys are host keys, the table's are flow keys");
        assertContains(error.fix(), "'key: host'");
    }

    @Test
    void shouldRefuseARoleTheVnfTypeDoesNotDeclare()
    {
        final ChainError error = single(errors("""
            name: x
            shared_tables:
              - { name: blocked, key: host }
            vnfs:
              - name: fw
                type: firewall
                shared: { blocklist: blocked }
              - name: mon
                type: flow-monitor
                shared: { blocklist: blocked }
            edges:
              - { from: fw, to: mon }
            """));
        assertEquals("10:15", error.position());
        assertContains(error.message(), "VNF 'mon' (type flow-monitor) has no shared table role 'blocklist'");
        assertContains(error.fix(), "this VNF type shares no table");
    }

    @Test
    void shouldRefuseAnUnknownKeyKindAndKeysASharedTableDoesNotTake()
    {
        final List<ChainError> errors = errors("name: x\nshared_tables:\n  - { name: blocked, key: hots, when_full: evict }\n"
            + String.format(VNFS, "blocked"));
        assertTrue(errors.stream().anyMatch(e -> e.message().contains("unknown key kind 'hots' of shared table 'blocked'")
            && e.fix().contains("did you mean 'host'?")), () -> errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.message().contains("when_full") && e.position().startsWith("3:")), () -> errors.toString());
    }

    @Test
    void shouldPutASharedTableInTheStoreItNames()
    {
        final ChainSpec chronicle = loader.parse("name: x\nshared_tables:\n  - { name: blocked, key: host, store: chronicle, expected_entries: 100 }\n"
            + String.format(VNFS, "blocked"), "t.yaml");
        assertEquals(List.of(new SharedTableSpec("blocked", KeyKind.HOST, 100, 0, StoreKind.CHRONICLE)), chronicle.sharedTables());
        final ChainRuntime runtime = new ChainRuntime(chronicle);
        assertEquals(StoreKind.CHRONICLE, runtime.storeKind(runtime.catalog().find("chain", "blocked")));
        assertEquals(StoreKind.HEAP, runtime.storeKind(runtime.catalog().find("fw", "connections")), "the VNFs' own tables stay where they were");
        final ChainSpec explicit = loader.parse("name: x\nshared_tables:\n  - { name: blocked, key: host, store: heap }\n"
            + String.format(VNFS, "blocked"), "t.yaml");
        assertEquals(StoreKind.HEAP, explicit.sharedTables().get(0).store());
    }

    @Test
    void shouldRefuseAnUnknownStoreAndAChronicleTableWithoutItsSizeAtTheValue()
    {
        final ChainError unknown = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host, store: reddis }\n"
            + String.format(VNFS, "blocked")));
        assertEquals("3:40", unknown.position());
        assertContains(unknown.message(), "unknown store of shared table 'blocked' 'reddis'");
        assertContains(unknown.fix(), "did you mean 'redis'?");
        final ChainError unsized = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host, store: chronicle }\n"
            + String.format(VNFS, "blocked")));
        assertEquals("3:40", unsized.position());
        assertContains(unsized.message(), "shared table 'blocked' is stored in chronicle but has no 'expected_entries'");
        assertContains(unsized.fix(), "add 'expected_entries: <n>' beside 'store: chronicle'");
    }

    @Test
    void shouldRefuseASharedTableInRedisWhenTheServerDoesNotAnswer() throws IOException
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final ChainError error = single(errors("name: x\nshared_tables:\n  - { name: blocked, key: host, store: redis }\n"
            + String.format(VNFS, "blocked") + "settings:\n  redis: { url: \"redis://127.0.0.1:" + port + "\" }\n"));
        assertEquals("15:17", error.position());
        assertContains(error.message(), "cannot reach the redis store at redis://127.0.0.1:" + port, "(tables chain.blocked)");
        assertContains(error.fix(), "start redis-server there");
    }

    @Test
    void shouldRefuseSharedTablesInAChainOfTenants()
    {
        final List<ChainError> errors = errors("""
            name: x
            shared_tables:
              - { name: blocked, key: host }
            tenants:
              - name: a
                match: { vlan: 10 }
                chain: chains/lb.yaml
            """);
        assertTrue(errors.stream().anyMatch(e -> e.position().equals("2:1")
            && e.message().contains("'shared_tables' beside 'tenants'")), () -> errors.toString());
    }

    @Test
    void shouldRefuseTheBundledSharedTablesChainAsATenantsChain()
    {
        final List<ChainError> errors = errors("""
            name: x
            tenants:
              - name: a
                match: { vlan: 10 }
                chain: fw-scan-block
            """);
        assertTrue(errors.stream().anyMatch(e -> e.position().equals("5:12")
            && e.message().contains("a tenant's chain cannot share tables between its VNFs")), () -> errors.toString());
    }

    @Test
    void shouldBeRefusedByAScaledOutRun()
    {
        final ChainSpec chain = loader.loadBundled("fw-scan-block");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Partitioning.of(new ChainRuntime(chain)));
        assertContains(refused.getMessage(), "shares table 'blocked'", "a scaled-out run", "fix: run it with the transnfv engine");
    }
}
