package io.transnfv.chains;

import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.chain.TableSettings;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.state.store.RedisStateBackend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the state-store settings ({@code settings: store:}, {@code chronicle:}, {@code redis:})
 * into {@link StoreSettings}, and checks them against the VNFs' tables once both are read: every
 * table in Chronicle Map is sized, and the Redis server of Redis tables answers. Setup only.
 */
final class StoresReader
{
    static final List<String> CHRONICLE_KEYS = List.of("dir");
    static final List<String> REDIS_KEYS = List.of("url", "prefix", "keep");

    private final ChainErrors errors;
    private StoreSettings settings = StoreSettings.defaults();
    private YamlNode storeAt;
    private YamlNode redisAt;

    /** @param errors where problems are added. */
    StoresReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /** @return the store named by {@code node}, or null (and an error) if it names none. */
    static StoreKind storeKind(final ChainErrors errors, final YamlNode node, final String what)
    {
        final String text = ChainErrors.scalarText(node);
        final StoreKind kind = text == null ? null : StoreKind.ofYamlName(text);
        if (kind == null)
        {
            errors.add(node, "unknown " + what + " " + node.describe(),
                text == null ? "write one of " + String.join(", ", StoreKind.yamlNames())
                    : ChainErrors.suggestion(text, StoreKind.yamlNames(), "stores"));
        }
        return kind;
    }

    /** Reads the store keys of the {@code settings:} map. */
    StoreSettings read(final YamlNode.MapNode map)
    {
        StoreSettings read = StoreSettings.defaults();
        final YamlNode storeNode = map.get("store");
        if (!ChainErrors.isAbsent(storeNode))
        {
            storeAt = storeNode;
            final StoreKind kind = storeKind(errors, storeNode, "store");
            if (kind != null)
            {
                read = read.withDefaultKind(kind);
            }
        }
        final YamlNode chronicleNode = map.get("chronicle");
        if (!ChainErrors.isAbsent(chronicleNode))
        {
            final YamlNode.MapNode chronicle = errors.expectMap(chronicleNode, "'chronicle'", "write '{ dir: state }'");
            if (chronicle != null)
            {
                errors.checkKeys(chronicle, CHRONICLE_KEYS, "in 'chronicle'");
                final YamlNode dirNode = chronicle.get("dir");
                final String dir = ChainErrors.isAbsent(dirNode) ? null : ChainErrors.scalarText(dirNode);
                if (dir == null || dir.isBlank())
                {
                    errors.add(dirNode == null ? chronicleNode : dirNode, "'chronicle' needs a 'dir'",
                        "write the directory the Chronicle tables persist to, e.g. 'dir: state' (relative paths resolve"
                            + " against the working directory), or remove 'chronicle:' to keep them in memory");
                }
                else
                {
                    read = read.withChronicleDir(Path.of(dir));
                }
            }
        }
        final YamlNode redisNode = map.get("redis");
        if (!ChainErrors.isAbsent(redisNode))
        {
            final YamlNode.MapNode redis = errors.expectMap(redisNode, "'redis'",
                "write '{ url: " + StoreSettings.DEFAULT_REDIS_URL + ", prefix: my-chain, keep: false }'");
            if (redis != null)
            {
                errors.checkKeys(redis, REDIS_KEYS, "in 'redis'");
                String url = read.redisUrl();
                final YamlNode urlNode = redis.get("url");
                redisAt = urlNode == null ? redisNode : urlNode;
                if (!ChainErrors.isAbsent(urlNode))
                {
                    final String text = ChainErrors.scalarText(urlNode);
                    final String problem = text == null ? "not text" : RedisStateBackend.checkUrl(text);
                    if (problem != null)
                    {
                        errors.add(urlNode, "bad redis url " + urlNode.describe() + ": " + problem,
                            "write redis://<host>:<port>[/<database>], e.g. " + StoreSettings.DEFAULT_REDIS_URL);
                    }
                    else
                    {
                        url = text;
                    }
                }
                String prefix = null;
                final YamlNode prefixNode = redis.get("prefix");
                if (!ChainErrors.isAbsent(prefixNode))
                {
                    prefix = ChainErrors.scalarText(prefixNode);
                    if (prefix == null || prefix.isBlank())
                    {
                        errors.add(prefixNode, "bad redis prefix " + prefixNode.describe(), "write text, e.g. 'prefix: my-chain'");
                        prefix = null;
                    }
                }
                boolean keep = false;
                final YamlNode keepNode = redis.get("keep");
                if (!ChainErrors.isAbsent(keepNode))
                {
                    final String text = ChainErrors.scalarText(keepNode);
                    if (!"true".equals(text) && !"false".equals(text))
                    {
                        errors.add(keepNode, "bad redis keep " + keepNode.describe(),
                            "write 'true' (start from what Redis holds) or 'false' (clear the chain's tables at the start)");
                    }
                    keep = "true".equals(text);
                }
                read = read.withRedis(url, prefix, keep);
            }
        }
        settings = read;
        return read;
    }

    /**
     * Checks the stores against the tables: a table put in Chronicle Map by the chain's default
     * store needs its size; if any table is in Redis, its server must answer now.
     */
    void check(final List<VnfsReader.Vnf> vnfs)
    {
        check(vnfs, Map.of());
    }

    /**
     * As {@link #check(List)}, with the chain's shared tables in Redis ({@code chain.<table>} to
     * the node of its {@code store:}).
     */
    void check(final List<VnfsReader.Vnf> vnfs, final Map<String, YamlNode> sharedInRedis)
    {
        final List<String> redisTables = new ArrayList<>(sharedInRedis.keySet());
        YamlNode firstRedis = sharedInRedis.isEmpty() ? null : sharedInRedis.values().iterator().next();
        for (final VnfsReader.Vnf vnf : vnfs)
        {
            final VnfNode node = vnf.node();
            if (node == null)
            {
                continue;
            }
            for (final String table : vnf.tables())
            {
                final StoreKind kind = node.stores().getOrDefault(table, settings.defaultKind());
                final TableSettings sized = node.tables().get(table);
                if (kind == StoreKind.CHRONICLE && (sized == null || sized.expectedEntries() == 0) && !node.stores().containsKey(table))
                {
                    errors.add(storeAt, "'store: chronicle' puts table '" + table + "' of VNF '" + vnf.name()
                        + "' in Chronicle Map, but the table has no 'expected_entries'",
                        "add 'tables: { " + table + ": { expected_entries: <n> } }' to VNF '" + vnf.name()
                            + "' (Chronicle Map is sized when it is created), or give the table 'store: heap'");
                }
                if (kind == StoreKind.REDIS)
                {
                    redisTables.add(vnf.name() + "." + table);
                    firstRedis = firstRedis == null ? (node.stores().containsKey(table) ? vnf.at() : storeAt) : firstRedis;
                }
            }
        }
        if (!redisTables.isEmpty() && errors.count() == 0)
        {
            final String problem = RedisStateBackend.probe(settings.redisUrl());
            if (problem != null)
            {
                errors.add(redisAt != null ? redisAt : firstRedis, "cannot reach the redis store at " + settings.redisUrl()
                    + " (tables " + String.join(", ", redisTables) + "): " + problem,
                    "start redis-server there (e.g. 'redis-server --port 6379 --daemonize yes'), or set 'settings: redis: url:'"
                        + " to a running one");
            }
        }
    }
}
