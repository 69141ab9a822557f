package io.transnfv.vnf.api;

import java.util.Objects;

/**
 * A state table's declaration. Values are {@code long}; a key never written reads as
 * {@code initialValue}, and writing {@code initialValue} deletes the entry, so a table's
 * size is the number of keys that differ from it.
 *
 * @param name         unique within the VNF instance, e.g. {@code ports}.
 * @param scope        per-flow or cross-flow.
 * @param keyKind      what the keys encode (for dumps).
 * @param initialValue the value of absent keys.
 * @param description  one line for dumps and docs.
 * @param activity     when an entry was last active, for {@link StateMaintenance#forEachDue};
 *                     null for a table that does not expire by time.
 */
public record TableSpec(
    String name, TableScope scope, KeyKind keyKind, long initialValue, String description, ActivityClock activity)
{
    /** A table that does not expire by time. */
    public TableSpec(
        final String name, final TableScope scope, final KeyKind keyKind, final long initialValue,
        final String description)
    {
        this(name, scope, keyKind, initialValue, description, null);
    }

    /**
     * @param clock            when an entry was last active.
     * @param expiryIntervalNs the declaring VNF's expiry period; 0 (no sweep) keeps no index,
     *                         since an index nobody sweeps would only grow.
     * @return this declaration with entries expired by {@code clock}'s activity time.
     */
    public TableSpec expiringBy(final ActivityClock clock, final long expiryIntervalNs)
    {
        Objects.requireNonNull(clock, "clock");
        return expiryIntervalNs > 0 ? new TableSpec(name, scope, keyKind, initialValue, description, clock) : this;
    }

    /** Validates the declaration. */
    public TableSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(keyKind, "keyKind");
        if (!name.matches("[a-z][a-z0-9_-]*"))
        {
            throw new IllegalArgumentException("table name must match [a-z][a-z0-9_-]*: " + name);
        }
        description = description == null ? "" : description;
    }
}
