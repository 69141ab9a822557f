package io.transnfv.engine.chain;

import java.util.List;

/**
 * Where a table's committed state lives between batches (YAML {@code store:}, per table or as
 * the chain's default). Whatever the store, the multi-version state table runs every batch in
 * the heap, so the graph, the schedules and chain output equivalence do not depend on it.
 */
public enum StoreKind
{
    /** In the heap, in the state table's own shards: the default, and the fastest. */
    HEAP("heap"),
    /** Off-heap in Chronicle Map, sized from {@code expected_entries}; optionally persisted to a file (a cache). */
    CHRONICLE("chronicle"),
    /** In a Redis server, one hash per table; read and written back with one pipelined round trip a batch. */
    REDIS("redis");

    private final String yamlName;

    StoreKind(final String yamlName)
    {
        this.yamlName = yamlName;
    }

    /** @return the name the chain YAML uses, e.g. {@code chronicle}. */
    public String yamlName()
    {
        return yamlName;
    }

    /** @return the kind named {@code name} in the YAML, or null if none is. */
    public static StoreKind ofYamlName(final String name)
    {
        for (final StoreKind kind : values())
        {
            if (kind.yamlName.equals(name))
            {
                return kind;
            }
        }
        return null;
    }

    /** @return every YAML name, in declaration order. */
    public static List<String> yamlNames()
    {
        return List.of(HEAP.yamlName, CHRONICLE.yamlName, REDIS.yamlName);
    }
}
