package io.transnfv.engine.chain;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The chain's state stores (YAML {@code settings: store:}, {@code chronicle:} and {@code redis:}):
 * the store of every VNF table that does not name its own, where Chronicle tables persist, and
 * which Redis server holds Redis tables.
 *
 * @param defaultKind   the store of a table without its own {@code store:}.
 * @param chronicleDir  the directory Chronicle tables persist to ({@code <vnf>.<table>.cm}, a cache
 *                      for a warm restart, not crash-safe: checkpoints are the source of truth),
 *                      or null to keep them in memory only.
 * @param redisUrl      the Redis server, e.g. {@code redis://127.0.0.1:6379/0}.
 * @param redisPrefix   the prefix of every Redis key of the chain ({@code <prefix>:<vnf>.<table>}), or
 *                      null for {@code transnfv:<chain name>}.
 * @param redisKeep     start from what Redis holds (a warm restart) instead of deleting the chain's
 *                      tables when the run starts.
 */
public record StoreSettings(StoreKind defaultKind, Path chronicleDir, String redisUrl, String redisPrefix, boolean redisKeep)
{
    /** The Redis server a chain uses when it names none. */
    public static final String DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

    /** Validates the settings. */
    public StoreSettings
    {
        Objects.requireNonNull(defaultKind, "defaultKind");
        Objects.requireNonNull(redisUrl, "redisUrl");
    }

    /** @return every table in the heap; Redis, if a table asks for it, on the local default port. */
    public static StoreSettings defaults()
    {
        return new StoreSettings(StoreKind.HEAP, null, DEFAULT_REDIS_URL, null, false);
    }

    /** @return the prefix of the chain's Redis keys. */
    public String redisPrefix(final String chainName)
    {
        return redisPrefix != null ? redisPrefix : "transnfv:" + chainName;
    }

    /** @return a copy with another default store. */
    public StoreSettings withDefaultKind(final StoreKind kind)
    {
        return new StoreSettings(kind, chronicleDir, redisUrl, redisPrefix, redisKeep);
    }

    /** @return a copy with another Redis server and key prefix (null: the chain's name). */
    public StoreSettings withRedis(final String url, final String prefix, final boolean keep)
    {
        return new StoreSettings(defaultKind, chronicleDir, url, prefix, keep);
    }

    /** @return a copy persisting Chronicle tables to {@code dir} (null: in memory only). */
    public StoreSettings withChronicleDir(final Path dir)
    {
        return new StoreSettings(defaultKind, dir, redisUrl, redisPrefix, redisKeep);
    }
}
