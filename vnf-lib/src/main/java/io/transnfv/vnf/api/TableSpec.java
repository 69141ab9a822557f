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
 */
public record TableSpec(String name, TableScope scope, KeyKind keyKind, long initialValue, String description)
{
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
