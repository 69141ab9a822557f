package io.transnfv.engine.chain;

/**
 * What a chain says about one VNF table (YAML
 * {@code tables: {t: {expected_entries: n, capacity: m, when_full: reject|evict}}}).
 *
 * @param expectedEntries entries to make room for at the start, 0 to grow as keys arrive (a hint).
 * @param capacity        entries the table may hold, 0 to share the default capacity the runtime
 *                        derives from the heap with the other tables without one
 *                        ({@link ChainRuntime#sharedCapacity()}).
 * @param evict           what the table does when full: true to evict its least recently active
 *                        entries ({@code when_full: evict}, needs a capacity of its own and a VNF
 *                        that evicts from it), false to refuse new ones ({@code reject}).
 */
public record TableSettings(long expectedEntries, long capacity, boolean evict)
{
    /** Checks the sizes are non-negative and that eviction has a capacity to keep. */
    public TableSettings
    {
        if (expectedEntries < 0 || capacity < 0)
        {
            throw new IllegalArgumentException("expected entries and capacity must be >= 0: " + expectedEntries + ", " + capacity);
        }
        if (evict && capacity == 0)
        {
            throw new IllegalArgumentException("eviction needs a capacity of the table's own");
        }
    }

    /** Settings that refuse new entries when full. */
    public TableSettings(final long expectedEntries, final long capacity)
    {
        this(expectedEntries, capacity, false);
    }
}
