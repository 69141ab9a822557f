package io.transnfv.engine.state.store;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store contract on a real redis-server; a lost server, a warm restart, an unreachable one. */
class RedisStateBackendTest extends StateBackendContractTest
{
    private LocalRedisServer server;

    @Override
    StateBackend open(final TableCatalog catalog) throws Exception
    {
        server = LocalRedisServer.start();
        return new RedisStateBackend(catalog, new boolean[] {true, true}, server.url(), "test", false);
    }

    @AfterEach
    void stopServer() throws Exception
    {
        server.close();
    }

    @Test
    void shouldFailClearlyWhenTheServerIsLost() throws Exception
    {
        backend.put(0, 1, 10);
        server.kill();
        final KeyBatch batch = new KeyBatch(new int[] {0, 1});
        batch.add(0, 1, 0);
        final StateStoreException e = assertThrows(StateStoreException.class, () -> backend.load(batch));
        assertTrue(e.getMessage().contains("redis store at " + server.url() + " failed while reading a batch's keys"), e.getMessage());
        assertTrue(e.getMessage().contains("fix:"), e.getMessage());
        assertThrows(StateStoreException.class, () -> backend.store(batch), "a write-back is never dropped silently");
    }

    @Test
    void shouldKeepWhatTheServerHoldsOnlyWhenAskedTo()
    {
        backend.put(0, 9, 90);
        try (RedisStateBackend kept = new RedisStateBackend(catalog, new boolean[] {true, true}, server.url(), "test", true))
        {
            assertEquals(90, kept.get(0, 9), "keep: a warm restart");
            assertEquals("test:v.a", kept.hashKey(0), "one hash per table, named <prefix>:<vnf>.<table>");
        }
        try (RedisStateBackend fresh = new RedisStateBackend(catalog, new boolean[] {true, true}, server.url(), "test", false))
        {
            assertEquals(INITIAL_A, fresh.get(0, 9), "a run starts from empty tables by default");
        }
    }

    @Test
    void shouldSayWhyAServerCannotBeReached() throws Exception
    {
        assertNull(RedisStateBackend.probe(server.url()));
        final String url = server.url();
        server.kill();
        assertNotNull(RedisStateBackend.probe(url));
        final StateStoreException e = assertThrows(StateStoreException.class,
            () -> new RedisStateBackend(catalog, new boolean[] {true, true}, url, "test", false));
        assertTrue(e.getMessage().startsWith("cannot reach the redis store at " + url), e.getMessage());
        assertNotNull(RedisStateBackend.checkUrl("redis://"), "a URL without a host is refused");
    }
    @Test
    void shouldStreamAFullCheckpointsEntriesWithAScanCursorInsteadOfTakingEveryKey()
    {
        final int entries = 20 * RedisStateBackend.SCAN_COUNT;
        final RedisClient client = RedisClient.create(server.url());
        try (StatefulRedisConnection<String, String> direct = client.connect())
        {
            final RedisCommands<String, String> redis = direct.sync();
            final Map<String, String> fields = new HashMap<>();
            for (long key = 1; key <= entries; key++)
            {
                fields.put(Long.toString(key * 7919), Long.toString(key));
            }
            redis.hset(((RedisStateBackend)backend).hashKey(0), fields);
            redis.configResetstat();

            final Map<Long, Long> visited = new HashMap<>();
            backend.forEachEntry(0, (key, value) -> assertNull(visited.put(key, value), "each entry once: " + key));

            assertEquals(entries, visited.size());
            for (long key = 1; key <= entries; key++)
            {
                assertEquals(key, visited.get(key * 7919));
            }
            final String stats = redis.info("commandstats");
            assertFalse(stats.contains("cmdstat_hkeys:"), "no key list taken into the heap: " + stats);
            assertFalse(stats.contains("cmdstat_hget:"), "no round trip per key: " + stats);
            final Matcher scans = Pattern.compile("cmdstat_hscan:calls=(\\d+)").matcher(stats);
            assertTrue(scans.find(), stats);
            assertTrue(Long.parseLong(scans.group(1)) >= entries / (2 * RedisStateBackend.SCAN_COUNT),
                "the hash came in pages of about " + RedisStateBackend.SCAN_COUNT + " fields: " + stats);
        }
        finally
        {
            client.shutdown();
        }
    }
}
