package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.StateMaintenance;

import java.util.Arrays;

/**
 * The one way every state store implements {@link StateMaintenance#forEach}: sort a snapshot of
 * the table's keys, then visit each key once that still holds a value other than the initial
 * one, reading the value at the visit (the visitor may change any table meanwhile). A store
 * made of several stores (a baseline's per-worker caches or partitions) visits the union of
 * their keys with {@link #visitUnion}. Between batches only, on the thread that owns the store.
 */
public final class SortedKeyVisit
{
    private SortedKeyVisit()
    {
    }

    /**
     * @param keys    a snapshot of the table's keys in {@code [0, count)}, duplicates allowed;
     *                sorted in place.
     * @param count   the number of keys.
     * @param table   the table.
     * @param store   where values are read at each visit.
     * @param initial the table's initial value (an entry holding it is absent).
     * @param visitor receives each present entry once, in ascending key order.
     */
    public static void visit(
        final long[] keys, final int count, final int table, final StateMaintenance store, final long initial,
        final StateMaintenance.EntryVisitor visitor)
    {
        Arrays.sort(keys, 0, count);
        for (int i = 0; i < count; i++)
        {
            final long key = keys[i];
            if (i > 0 && key == keys[i - 1])
            {
                continue;
            }
            final long value = store.get(table, key);
            if (value != initial)
            {
                visitor.visit(key, value);
            }
        }
    }

    /**
     * Visits the union of the keys {@code parts} hold in {@code table}, each key once, with its
     * value read from {@code view} (the store that merges the parts).
     *
     * @param parts   the stores whose keys are visited; a key may be present in several.
     * @param table   the table.
     * @param view    where values are read at each visit.
     * @param initial the table's initial value (an entry holding it is absent).
     * @param visitor receives each present entry once, in ascending key order.
     */
    public static void visitUnion(
        final StateMaintenance[] parts, final int table, final StateMaintenance view, final long initial,
        final StateMaintenance.EntryVisitor visitor)
    {
        final KeySnapshot snapshot = new KeySnapshot();
        for (final StateMaintenance part : parts)
        {
            part.forEach(table, snapshot);
        }
        visit(snapshot.keys, snapshot.count, table, view, initial, visitor);
    }

    /** Collects the keys a store visits, growing by doubling. */
    private static final class KeySnapshot implements StateMaintenance.EntryVisitor
    {
        private long[] keys = new long[64];
        private int count;

        @Override
        public void visit(final long key, final long value)
        {
            if (count == keys.length)
            {
                keys = Arrays.copyOf(keys, count << 1);
            }
            keys[count++] = key;
        }
    }
}
