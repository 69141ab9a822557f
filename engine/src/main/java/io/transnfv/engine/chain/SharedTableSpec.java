package io.transnfv.engine.chain;

import io.transnfv.vnf.api.KeyKind;

import java.util.Objects;

/**
 * A table the chain declares for several of its VNFs to share (YAML {@code shared_tables:}), which
 * VNF instances bind to their table roles ({@code shared: {<role>: <table>}}, see
 * {@code VnfSetup.sharedTable}). It lives in the store it names (the heap unless it says), does
 * not expire by time and is {@code serializable}; the engine runs the stages that touch it fused,
 * packet by packet, applying their transactions to the committed state of every table, in whatever
 * store (see {@code docs/design/chains.md}, "Tables shared across VNFs").
 *
 * @param name            unique among the chain's shared tables; it prints as {@code chain.<name>}.
 * @param keyKind         what its keys encode; every role bound to it must agree.
 * @param expectedEntries entries to make room for at the start, 0 to grow as keys arrive (a hint).
 * @param capacity        entries it may hold before it refuses new ones, 0 to share the default
 *                        capacity with the other tables without one.
 * @param store           where its committed state lives; the chain's default {@code store:}
 *                        does not apply to it.
 */
public record SharedTableSpec(String name, KeyKind keyKind, long expectedEntries, long capacity, StoreKind store)
{
    /** A shared table in the heap. */
    public SharedTableSpec(final String name, final KeyKind keyKind, final long expectedEntries, final long capacity)
    {
        this(name, keyKind, expectedEntries, capacity, StoreKind.HEAP);
    }

    /** Checks the fields. */
    public SharedTableSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyKind, "keyKind");
        Objects.requireNonNull(store, "store");
        if (expectedEntries < 0 || capacity < 0)
        {
            throw new IllegalArgumentException("expected entries and capacity must be >= 0: " + expectedEntries + ", " + capacity);
        }
    }
}
