package io.transnfv.engine.state.store;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A real {@code redis-server} on a free loopback port, started for a test and stopped after it:
 * no persistence, its files in a temporary directory. Without {@code redis-server} the test fails
 * (the {@code transnfv} launcher installs it through {@code scripts/install-deps.sh}), or skips
 * with {@code -Dtransnfv.redis.required=false}. The chain tests use it too, through the engine's
 * test-jar.
 */
public final class LocalRedisServer implements AutoCloseable
{
    /** System property: {@code false} lets the Redis tests skip when {@code redis-server} is missing. */
    public static final String REQUIRED_PROPERTY = "transnfv.redis.required";

    private final Process process;
    private final int port;
    private final Path dir;

    private LocalRedisServer(final Process process, final int port, final Path dir)
    {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** Starts a server and waits until it answers (at most 10 s). */
    public static LocalRedisServer start() throws IOException, InterruptedException
    {
        final String binary = findBinary();
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final Path dir = Files.createTempDirectory("transnfv-redis");
        final Process process = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        final LocalRedisServer server = new LocalRedisServer(process, port, dir);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (RedisStateBackend.probe(server.url()) != null)
        {
            if (!process.isAlive() || System.nanoTime() > deadlineNs)
            {
                server.close();
                fail("redis-server did not start on port " + port + ": " + Files.readString(dir.resolve("redis.log")));
            }
            Thread.sleep(20);
        }
        return server;
    }

    private static String findBinary()
    {
        for (final String candidate : new String[] {"/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"})
        {
            if (Files.isExecutable(Path.of(candidate)))
            {
                return candidate;
            }
        }
        final String why = "redis-server not found (Debian: scripts/install-deps.sh redis-server, which ./transnfv runs as root)";
        if (!"false".equals(System.getProperty(REQUIRED_PROPERTY)))
        {
            fail(why + "; to run the other tests without it: -D" + REQUIRED_PROPERTY + "=false");
        }
        abort(why + " (skipped: " + REQUIRED_PROPERTY + "=false)");
        return null;
    }

    /** @return the server's URL, {@code redis://127.0.0.1:<port>}. */
    public String url()
    {
        return "redis://127.0.0.1:" + port;
    }

    /** @return the server's port. */
    public int port()
    {
        return port;
    }

    /** Kills the server at once (a lost server, as a crash or a network cut shows it). */
    public void kill() throws InterruptedException
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
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        try (var files = Files.list(dir))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }
}
