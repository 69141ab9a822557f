package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.StateMaintenance;

import java.util.Arrays;

/**
 * The one way every state store implements {@link StateMaintenance#forEach}: sort a snapshot of
 * the table's keys, then visit each key that still holds a value other than the initial one,
 * reading the value at the visit (the visitor may change any table meanwhile).
 */
public final class SortedKeyVisit
{
    private SortedKeyVisit()
    {
    }

    /**
     * @param keys    a snapshot of the table's keys in {@code [0, count)}; sorted in place.
     * @param count   the number of keys.
     * @param table   the table.
     * @param store   where values are read at each visit.
     * @param initial the table's initial value (an entry holding it is absent).
     * @param visitor receives each present entry in ascending key order.
     */
    public static void visit(
        final long[] keys, final int count, final int table, final StateMaintenance store, final long initial,
        final StateMaintenance.EntryVisitor visitor)
    {
        Arrays.sort(keys, 0, count);
        for (int i = 0; i < count; i++)
        {
            final long key = keys[i];
            final long value = store.get(table, key);
            if (value != initial)
            {
                visitor.visit(key, value);
            }
        }
    }
}
