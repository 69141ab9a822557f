package io.transnfv.tpg.graph;

/**
 * Where a graph finds the keys a batch touches: it maps each (table, key) of a shard to a
 * dense id for the batch, assigning the next one on the first touch, and tells where the key's
 * committed value lives (a <em>location</em>, opaque to the graph, which executors hand back
 * to the directory). The engine's state table is one: its committed map is probed once per
 * access, so building the graph and binding its keys to their values are one step.
 * {@link #touchedKeyTables(int)} is the self-contained one for a graph on its own (its
 * locations are the ids).
 *
 * <p>Called by one thread per shard at a time: the builder of that shard.
 */
@FunctionalInterface
public interface KeyDirectory
{
    /**
     * @param shard the pair's shard ({@link TouchedKeyTable#shardOf}).
     * @param table the table.
     * @param key   the key.
     * @param hash  {@link TouchedKeyTable#hash(int, long)} of the pair.
     * @param newId the id to give the pair if this batch has not touched it yet.
     * @return the pair's location {@code << 32 |} its id for this batch ({@code newId} on the
     *         first touch).
     */
    long touch(int shard, int table, long key, long hash, int newId);

    /** Forgets the previous batch (called once per batch before any touch). */
    default void beginBatch()
    {
    }

    /** @return a directory of one {@link TouchedKeyTable} per shard, cleared every batch. */
    static KeyDirectory touchedKeyTables(final int shards)
    {
        final TouchedKeyTable[] tables = new TouchedKeyTable[shards];
        for (int s = 0; s < shards; s++)
        {
            tables[s] = new TouchedKeyTable(256);
        }
        return new KeyDirectory()
        {
            @Override
            public long touch(final int shard, final int table, final long key, final long hash, final int newId)
            {
                final int id = tables[shard].idOf(table, key, hash);
                return (long)id << 32 | id;
            }

            @Override
            public void beginBatch()
            {
                for (final TouchedKeyTable t : tables)
                {
                    t.clear();
                }
            }
        };
    }
}
