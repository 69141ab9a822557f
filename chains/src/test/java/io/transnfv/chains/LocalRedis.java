package io.transnfv.chains;

import io.transnfv.engine.state.store.RedisStateBackend;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A real {@code redis-server} on a free loopback port for the chain tests (the engine's tests have
 * their own, {@code LocalRedisServer}): no persistence, files in a temporary directory. Without
 * {@code redis-server} the tests fail, or skip with {@code -Dtransnfv.redis.required=false}.
 */
final class LocalRedis implements AutoCloseable
{
    private static final Path BINARY = Path.of("/usr/bin/redis-server");

    private final Process process;
    private final Path dir;
    private final String url;

    private LocalRedis(final Process process, final Path dir, final String url)
    {
        this.process = process;
        this.dir = dir;
        this.url = url;
    }

    static LocalRedis start() throws IOException, InterruptedException
    {
        if (!Files.isExecutable(BINARY))
        {
            final String why = "redis-server not found (Debian: scripts/install-deps.sh redis-server, which ./transnfv runs as root)";
            if (!"false".equals(System.getProperty("transnfv.redis.required")))
            {
                fail(why + "; to run the other tests without it: -Dtransnfv.redis.required=false");
            }
            abort(why + " (skipped: transnfv.redis.required=false)");
        }
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final Path dir = Files.createTempDirectory("transnfv-redis");
        final Process process = new ProcessBuilder(BINARY.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        final LocalRedis redis = new LocalRedis(process, dir, "redis://127.0.0.1:" + port);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (RedisStateBackend.probe(redis.url) != null)
        {
            if (!process.isAlive() || System.nanoTime() > deadlineNs)
            {
                final String log = Files.readString(dir.resolve("redis.log"));
                redis.close();
                fail("redis-server did not start: " + log);
            }
            Thread.sleep(20);
        }
        return redis;
    }

    String url()
    {
        return url;
    }

    /** Kills the server at once: a lost store, as a crash or a cut network shows it. */
    void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException, IOException
    {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            kill();
        }
        Files.deleteIfExists(dir.resolve("redis.log"));
        Files.deleteIfExists(dir);
    }
}
