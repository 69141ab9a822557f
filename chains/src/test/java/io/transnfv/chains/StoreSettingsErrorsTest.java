package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state-store keys of a chain ({@code store:}, {@code chronicle:}, {@code redis:}): read, or refused at file:line with a fix. */
class StoreSettingsErrorsTest
{
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
    void shouldSuggestTheClosestStoreForAnUnknownOne()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { store: cronicle, expected_entries: 1000 }
            """));
        assertEquals("6:29", error.position());
        assertContains(error.message(), "unknown store of table 'connections' of VNF 'lb' 'cronicle'");
        assertContains(error.fix(), "did you mean 'chronicle'?", "heap, chronicle, redis");
    }

    @Test
    void shouldRefuseAChronicleTableWithoutItsSize()
    {
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { store: chronicle }
            """));
        assertEquals("6:29", error.position());
        assertContains(error.message(), "table 'connections' of VNF 'lb' is stored in chronicle but has no 'expected_entries'");
        assertContains(error.fix(), "add 'expected_entries: <n>' beside 'store: chronicle'");
    }

    @Test
    void shouldNameEveryTableTheChainsDefaultStorePutsInChronicleUnsized()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { expected_entries: 1000 }
                  connection-bytes: { store: heap }
                  active: { expected_entries: 64 }
            settings:
              store: chronicle
            """);
        assertEquals(1, errors.size(), () -> errors.stream().map(ChainError::format).collect(Collectors.joining("\n")));
        assertEquals("10:10", errors.get(0).position());
        assertContains(errors.get(0).message(), "'store: chronicle' puts table 'bytes' of VNF 'lb' in Chronicle Map",
            "no 'expected_entries'");
        assertContains(errors.get(0).fix(), "add 'tables: { bytes: { expected_entries: <n> } }' to VNF 'lb'", "'store: heap'");
    }

    @Test
    void shouldPointAtTheUrlOfARedisServerThatDoesNotAnswer() throws IOException
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final ChainError error = single(errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { store: redis }
            settings:
              redis: { url: "redis://127.0.0.1:%d" }
            """.formatted(port)));
        assertEquals("8:17", error.position());
        assertContains(error.message(), "cannot reach the redis store at redis://127.0.0.1:" + port, "(tables lb.connections)");
        assertContains(error.fix(), "start redis-server there");
    }

    @Test
    void shouldRefuseBadRedisAndChronicleSettings()
    {
        final List<ChainError> errors = errors("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
            settings:
              store: reddis
              redis: { url: "http//nowhere", keep: maybe, port: 1 }
              chronicle: { }
            """);
        final String all = errors.stream().map(ChainError::format).collect(Collectors.joining("\n"));
        assertEquals(5, errors.size(), all);
        assertContains(all, "t.yaml:6:10: unknown store 'reddis'", "did you mean 'redis'?", "bad redis url", "bad redis keep 'maybe'",
            "unknown key 'port' in 'redis'", "'chronicle' needs a 'dir'");
    }

    @Test
    void shouldReadTheStoresIntoTheChain()
    {
        final ChainSpec chain = loader.parse("""
            name: x
            vnfs:
              - name: lb
                type: load-balancer
                tables:
                  connections: { store: chronicle, expected_entries: 200_000 }
                  active: { store: heap }
            settings:
              store: heap
              chronicle: { dir: state }
              redis: { url: "redis://10.0.0.1:6380/2", prefix: lb, keep: true }
            """, "t.yaml");
        assertEquals(Map.of("connections", StoreKind.CHRONICLE, "active", StoreKind.HEAP), chain.vnfs().get(0).stores());
        assertEquals(200_000L, chain.vnfs().get(0).tables().get("connections").expectedEntries());
        final StoreSettings stores = chain.settings().stores();
        assertEquals(StoreKind.HEAP, stores.defaultKind());
        assertEquals(Path.of("state"), stores.chronicleDir());
        assertEquals("redis://10.0.0.1:6380/2", stores.redisUrl());
        assertEquals("lb", stores.redisPrefix("x"));
        assertTrue(stores.redisKeep());
        assertEquals("transnfv:x", StoreSettings.defaults().redisPrefix("x"), "the default prefix names the chain");
    }
}
