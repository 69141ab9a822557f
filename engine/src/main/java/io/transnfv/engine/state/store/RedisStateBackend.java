package io.transnfv.engine.state.store;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.instance.TableCatalog;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Committed state in a Redis server, one hash per table: key {@code <prefix>:<vnf>.<table>},
 * field the state key in decimal, value the state value in decimal, so an operator reads it with
 * {@code redis-cli HGET transnfv:lb:lb.connections 42}. A batch's touched keys are read with one
 * pipelined round trip ({@code HMGET} per table, flushed together) and its changed keys written
 * back with another ({@code HSET}/{@code HDEL}); state outlives the process.
 *
 * <p>The connection does not reconnect on its own and rejects commands once it is lost, so a
 * lost server is a {@link StateStoreException} at the next bind or write-back, never a batch
 * run on stale values or writes silently dropped. Lettuce allocates per command and per key
 * (strings, futures): the price of a remote store, paid at bind and write-back only.
 */
public final class RedisStateBackend implements StateBackend
{
    /** How long one round trip may take before the store counts as lost. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /** How long connecting may take. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Fields a full checkpoint's {@code HSCAN} asks for per round trip. */
    static final int SCAN_COUNT = 1024;

    private final TableCatalog catalog;
    private final String url;
    private final String[] hashKeys;
    private final long[] initialValues;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> commands;
    private final List<RedisFuture<?>> pending = new ArrayList<>();

    /**
     * Connects and, unless {@code keep}, deletes the hashes of the tables it holds (a run starts
     * from empty tables, as in the heap).
     *
     * @param catalog the chain's tables.
     * @param mine    per table, true if it lives in this store.
     * @param url     the server, e.g. {@code redis://127.0.0.1:6379/0}.
     * @param prefix  the prefix of the tables' hash keys.
     * @param keep    start from what the server holds (a warm restart).
     * @throws StateStoreException if the server cannot be reached.
     */
    public RedisStateBackend(
        final TableCatalog catalog, final boolean[] mine, final String url, final String prefix, final boolean keep)
    {
        this.catalog = catalog;
        this.url = url;
        this.hashKeys = new String[catalog.size()];
        this.initialValues = new long[catalog.size()];
        for (int t = 0; t < catalog.size(); t++)
        {
            initialValues[t] = catalog.spec(t).initialValue();
            hashKeys[t] = mine[t] ? prefix + ":" + catalog.qualifiedName(t) : null;
        }
        RedisClient created = null;
        try
        {
            created = RedisClient.create(RedisURI.create(url));
            created.setOptions(ClientOptions.builder()
                .autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                .build());
            this.client = created;
            this.connection = created.connect();
        }
        catch (final RuntimeException e)
        {
            if (created != null)
            {
                created.shutdown(Duration.ZERO, Duration.ZERO);
            }
            throw new StateStoreException("cannot reach the redis store at " + url + ": " + rootMessage(e)
                + "\nfix: start redis-server there, or point 'settings: redis: url:' at a running one", e);
        }
        connection.setAutoFlushCommands(false);
        commands = connection.async();
        if (!keep)
        {
            for (final String hash : hashKeys)
            {
                if (hash != null)
                {
                    pending.add(commands.del(hash));
                }
            }
            awaitPending("clearing the tables at the start");
        }
    }

    @Override
    public void load(final KeyBatch batch)
    {
        final int tables = batch.tableCount();
        @SuppressWarnings("unchecked")
        final RedisFuture<List<KeyValue<String, String>>>[] replies = new RedisFuture[tables];
        for (int i = 0; i < tables; i++)
        {
            final int n = batch.count(i);
            if (n > 0)
            {
                final long[] keys = batch.keys(i);
                final String[] fields = new String[n];
                for (int k = 0; k < n; k++)
                {
                    fields[k] = Long.toString(keys[k]);
                }
                replies[i] = commands.hmget(hashKeys[batch.table(i)], fields);
                pending.add(replies[i]);
            }
        }
        awaitPending("reading a batch's keys");
        for (int i = 0; i < tables; i++)
        {
            if (replies[i] == null)
            {
                continue;
            }
            final List<KeyValue<String, String>> values = replies[i].toCompletableFuture().getNow(null);
            final long initial = initialValues[batch.table(i)];
            final long[] out = batch.values(i);
            for (int k = 0, n = batch.count(i); k < n; k++)
            {
                final KeyValue<String, String> value = values.get(k);
                out[k] = value.hasValue() ? parse(batch.table(i), value.getValue()) : initial;
            }
        }
    }

    @Override
    public void store(final KeyBatch batch)
    {
        for (int i = 0; i < batch.tableCount(); i++)
        {
            final int t = batch.table(i);
            final int n = batch.count(i);
            if (n == 0)
            {
                continue;
            }
            final long[] keys = batch.keys(i);
            final long[] values = batch.values(i);
            final long initial = initialValues[t];
            final Map<String, String> set = new HashMap<>();
            final List<String> deleted = new ArrayList<>();
            for (int k = 0; k < n; k++)
            {
                if (values[k] == initial)
                {
                    deleted.add(Long.toString(keys[k]));
                }
                else
                {
                    set.put(Long.toString(keys[k]), Long.toString(values[k]));
                }
            }
            if (!set.isEmpty())
            {
                pending.add(commands.hset(hashKeys[t], set));
            }
            if (!deleted.isEmpty())
            {
                pending.add(commands.hdel(hashKeys[t], deleted.toArray(new String[0])));
            }
        }
        awaitPending("writing a batch back");
    }

    @Override
    public long get(final int table, final long key)
    {
        final RedisFuture<String> reply = commands.hget(hashKeys[table], Long.toString(key));
        pending.add(reply);
        awaitPending("reading a key");
        final String value = reply.toCompletableFuture().getNow(null);
        return value == null ? initialValues[table] : parse(table, value);
    }

    @Override
    public void put(final int table, final long key, final long value)
    {
        if (value == initialValues[table])
        {
            pending.add(commands.hdel(hashKeys[table], Long.toString(key)));
        }
        else
        {
            pending.add(commands.hset(hashKeys[table], Long.toString(key), Long.toString(value)));
        }
        awaitPending("writing a key");
    }

    @Override
    public long size(final int table)
    {
        final RedisFuture<Long> reply = commands.hlen(hashKeys[table]);
        pending.add(reply);
        awaitPending("counting a table's keys");
        return reply.toCompletableFuture().getNow(0L);
    }

    @Override
    public long[] keys(final int table)
    {
        final RedisFuture<List<String>> reply = commands.hkeys(hashKeys[table]);
        pending.add(reply);
        awaitPending("listing a table's keys");
        final List<String> fields = reply.toCompletableFuture().getNow(List.of());
        final long[] keys = new long[fields.size()];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = parse(table, fields.get(i));
        }
        return keys;
    }

    /**
     * Streams the table's hash with {@code HSCAN} and a cursor, {@link #SCAN_COUNT} fields a round
     * trip: each page's entries go to {@code visitor} before the next page is asked for, so the
     * heap holds one page, never the table ({@code HKEYS} took every key into the heap, then
     * cost an {@code HGET} per key). Between batches nothing writes the hash, so every entry comes
     * once; Redis returns an entry twice only if it shrinks the hash in the middle of a scan, which
     * the checkpoint writer's count check turns into a failed checkpoint naming the table.
     */
    @Override
    public void forEachEntry(final int table, final StateReader.EntryVisitor visitor)
    {
        final ScanArgs count = ScanArgs.Builder.limit(SCAN_COUNT);
        ScanCursor cursor = ScanCursor.INITIAL;
        do
        {
            final RedisFuture<MapScanCursor<String, String>> reply = commands.hscan(hashKeys[table], cursor, count);
            pending.add(reply);
            awaitPending("scanning a table for a checkpoint");
            final MapScanCursor<String, String> page = reply.toCompletableFuture().getNow(null);
            for (final Map.Entry<String, String> entry : page.getMap().entrySet())
            {
                visitor.visit(parse(table, entry.getKey()), parse(table, entry.getValue()));
            }
            cursor = page;
        }
        while (!cursor.isFinished());
    }

    @Override
    public void clear(final int table)
    {
        pending.add(commands.del(hashKeys[table]));
        awaitPending("clearing a table");
    }

    @Override
    public String describe()
    {
        return "redis at " + url;
    }

    /** @return null if {@code url} is a Redis URL Lettuce can connect to, else what is wrong with it. */
    public static String checkUrl(final String url)
    {
        try
        {
            final RedisURI uri = RedisURI.create(url);
            return uri.getHost() == null && uri.getSocket() == null ? "it names no host" : null;
        }
        catch (final RuntimeException e)
        {
            return rootMessage(e);
        }
    }

    /**
     * Checks that a Redis server answers at {@code url}: connects (at most {@link #CONNECT_TIMEOUT})
     * and sends {@code PING}; any reply will do (a server asking for a password answers too).
     *
     * @return null if it answered, else why not.
     */
    public static String probe(final String url)
    {
        final RedisURI uri;
        try
        {
            uri = RedisURI.create(url);
        }
        catch (final RuntimeException e)
        {
            return rootMessage(e);
        }
        try (Socket socket = new Socket())
        {
            final int timeoutMs = (int)CONNECT_TIMEOUT.toMillis();
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            final int first = socket.getInputStream().read();
            return first == '+' || first == '-' ? null : "it does not answer as a Redis server";
        }
        catch (final IOException e)
        {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    /** @return the hash key of {@code table} (for operators and tests). */
    public String hashKey(final int table)
    {
        return hashKeys[table];
    }

    @Override
    public void close()
    {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }

    /** Sends the queued commands in one flush and waits for every reply: one round trip. */
    private void awaitPending(final String doing)
    {
        connection.flushCommands();
        try
        {
            final long deadlineNs = System.nanoTime() + COMMAND_TIMEOUT.toNanos();
            for (final RedisFuture<?> reply : pending)
            {
                reply.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        catch (final ExecutionException | TimeoutException | RuntimeException e)
        {
            throw lost(doing, e);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw lost(doing, e);
        }
        finally
        {
            pending.clear();
        }
    }

    private StateStoreException lost(final String doing, final Exception e)
    {
        return new StateStoreException("the redis store at " + url + " failed while " + doing + ": " + rootMessage(e)
            + "; the run stops rather than go on with state the store does not hold"
            + "\nfix: check that redis-server is running and reachable; resume from the last checkpoint (--resume) once it is", e);
    }

    private long parse(final int table, final String text)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException e)
        {
            throw new StateStoreException("the redis store at " + url + " holds '" + text + "' in " + hashKeys[table]
                + ", not a whole number\nfix: the hash belongs to this chain's table " + catalog.qualifiedName(table)
                + ": delete it (redis-cli DEL " + hashKeys[table] + ") or give the chain another 'prefix:'", e);
        }
    }

    private static String rootMessage(final Throwable e)
    {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t)
        {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
