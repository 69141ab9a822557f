package io.transnfv.vnf.api;

import java.util.List;
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
 * @param notCommutative why its VNF cannot run its updates of the table as ADDs (a chain's
 *                     {@code consistency: commutative}), or null if it can ({@link #commutable()}):
 *                     every transactional access it makes to the table is then an update by a
 *                     delta that never reads the old value, and the VNF asks
 *                     {@link VnfSetup#commutative(int)} at setup which form to declare.
 * @param notForgettable why its VNF cannot run its updates of the table as fire-and-forget
 *                     updates (a chain's {@code consistency: fire-and-forget}), or null if it can
 *                     ({@link #forgettable()}): every transactional access it makes to the table
 *                     is then an update whose result nothing in the transaction, nor its
 *                     post-processing, reads, and the VNF asks {@link VnfSetup#fireAndForget(int)}
 *                     at setup which form to declare.
 * @param notStaleReadable why its VNF cannot read the table as of the batch start (a chain's
 *                     {@code consistency: {stale-reads: <bound>}}), or null if it can
 *                     ({@link #staleReadable()}): every transactional access it makes to the
 *                     table is then a read or a choice that may see the batch start's value and
 *                     an update by a delta, and the VNF asks {@link VnfSetup#staleReads(int)}
 *                     at setup which form to declare.
 * @param type         what the table holds: one value per key ({@link StateType#VALUE}), a set
 *                     per key ({@link StateType#SET}, declared with {@link #asSet()} and accessed
 *                     through {@link StateSet} only) or a ring of the last values pushed per key
 *                     ({@link StateType#RING}, declared with {@link #asRing(int)} and accessed
 *                     through {@link StateRing} only).
 * @param ringCapacity a ring's capacity, the values it keeps per key; 0 for the other types.
 * @param fields       a struct's field names, in layout order ({@link StateType#STRUCT}, declared
 *                     with {@link #asStruct(String...)} and accessed through {@link StateStruct});
 *                     or a packed record's, from the most significant ({@link StateType#PACKED});
 *                     empty for the other types.
 * @param packed       a packed record's layout ({@link StateType#PACKED}, declared with
 *                     {@link #asPacked(PackedLayout)}); null for the other types.
 */
public record TableSpec(
    String name, TableScope scope, KeyKind keyKind, long initialValue, String description, ActivityClock activity,
    String notCommutative, String notForgettable, String notStaleReadable, StateType type, int ringCapacity, List<String> fields,
    PackedLayout packed)
{
    /** Why a set table cannot honour {@code commutative}, {@code fire-and-forget} or {@code stale-reads}. */
    public static final String SET_READS_MEMBERSHIP =
        "it is a set: adding or removing a member changes the set's size only if the member was absent or present,"
            + " so each update reads the current membership";

    /** Why a ring table cannot honour {@code commutative}, {@code fire-and-forget} or {@code stale-reads}. */
    public static final String RING_READS_HEAD =
        "it is a ring: a push writes the slot its ring's head points at and moves the head, so each push reads the head";

    /** A table of one value per key, with the hints given. */
    public TableSpec(
        final String name, final TableScope scope, final KeyKind keyKind, final long initialValue, final String description,
        final ActivityClock activity, final String notCommutative, final String notForgettable, final String notStaleReadable)
    {
        this(name, scope, keyKind, initialValue, description, activity, notCommutative, notForgettable, notStaleReadable, StateType.VALUE, 0, List.of(), null);
    }

    /** Why a table's VNF cannot honour {@code consistency: {stale-reads: <bound>}}, unless it says otherwise. */
    public static final String NEEDS_CURRENT_READS =
        "its VNF needs every read of the table to see the writes before it, or computes its updates from the old value";

    /** Why a table's VNF cannot honour {@code consistency: fire-and-forget}, unless it says otherwise. */
    public static final String READS_RESULTS =
        "its VNF reads the table, or the results of its updates of it, in its transactions";

    /** Why a table's VNF cannot honour {@code consistency: commutative}, unless it says otherwise. */
    public static final String READS_OR_REWRITES =
        "its VNF reads the table in its transactions or computes its updates from the old value";

    /** A table whose VNF reads it or rewrites it from the old value. */
    public TableSpec(
        final String name, final TableScope scope, final KeyKind keyKind, final long initialValue,
        final String description, final ActivityClock activity)
    {
        this(name, scope, keyKind, initialValue, description, activity, READS_OR_REWRITES, READS_RESULTS, NEEDS_CURRENT_READS);
    }

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
        return expiryIntervalNs > 0 ? new TableSpec(name, scope, keyKind, initialValue, description, clock, notCommutative, notForgettable, notStaleReadable, type, ringCapacity, fields, packed) : this;
    }

    /**
     * @return this declaration, from a VNF that can run every update of the table as an ADD (a
     *         delta computed from its own transaction, never from the table) and never reads it in
     *         a transaction, so a chain may set {@code consistency: commutative} on it.
     */
    public TableSpec commutable()
    {
        return new TableSpec(name, scope, keyKind, initialValue, description, activity, null, notForgettable, notStaleReadable, type, ringCapacity, fields, packed);
    }

    /**
     * @param why what stops the VNF, in its configuration, from running its updates as ADDs; the
     *            chain validator quotes it when a chain asks for {@code consistency: commutative}.
     * @return this declaration, refusing {@code commutative}.
     */
    public TableSpec notCommutable(final String why)
    {
        return new TableSpec(name, scope, keyKind, initialValue, description, activity, Objects.requireNonNull(why, "why"), notForgettable, notStaleReadable, type, ringCapacity, fields, packed);
    }

    /** @return true if the chain may set {@code consistency: commutative} on the table. */
    public boolean honoursCommutative()
    {
        return notCommutative == null;
    }

    /**
     * @return this declaration, from a VNF that can declare every update of the table as a DEFER
     *         ({@code TransactionBuilder.defer}: nothing in the transaction, nor its
     *         post-processing, reads the result, and an update that aborts may be dropped) and
     *         never reads the table in a transaction, so a chain may set
     *         {@code consistency: fire-and-forget} on it.
     */
    public TableSpec forgettable()
    {
        return new TableSpec(name, scope, keyKind, initialValue, description, activity, notCommutative, null, notStaleReadable, type, ringCapacity, fields, packed);
    }

    /**
     * @param why what stops the VNF, in its configuration, from declaring its updates
     *            fire-and-forget; the chain validator quotes it when a chain asks for
     *            {@code consistency: fire-and-forget}.
     * @return this declaration, refusing {@code fire-and-forget}.
     */
    public TableSpec notForgettable(final String why)
    {
        return new TableSpec(name, scope, keyKind, initialValue, description, activity, notCommutative, Objects.requireNonNull(why, "why"), notStaleReadable, type, ringCapacity, fields, packed);
    }

    /** @return true if the chain may set {@code consistency: fire-and-forget} on the table. */
    public boolean honoursFireAndForget()
    {
        return notForgettable == null;
    }

    /**
     * @return this declaration, from a VNF that can declare every access to the table as a
     *         STALE_READ, a STALE_CHOOSE or an ADD ({@code TransactionBuilder.staleRead},
     *         {@code staleChoose}, {@code add}): its reads and choices may see the value as of
     *         the batch start and its updates are deltas, so a chain may set
     *         {@code consistency: {stale-reads: <bound>}} on it.
     */
    public TableSpec staleReadable()
    {
        return new TableSpec(name, scope, keyKind, initialValue, description, activity, notCommutative, notForgettable, null, type, ringCapacity, fields, packed);
    }

    /** @return true if the chain may set {@code consistency: {stale-reads: <bound>}} on the table. */
    public boolean honoursStaleReads()
    {
        return notStaleReadable == null;
    }

    /**
     * @return this declaration as a {@link StateType#SET}: each key names a set of {@code long}
     *         members, which transactions access through {@link StateSet} (add, remove, contains,
     *         size) and nothing else. The table's entries are the sets' member and size entries
     *         ({@link StateSet#memberKey}, {@link StateSet#sizeKey}), so its keys print as opaque,
     *         and it refuses every consistency hint but {@code serializable}
     *         ({@link #SET_READS_MEMBERSHIP}).
     * @throws IllegalArgumentException if the initial value is not 0 (an absent member, an empty set).
     */
    public TableSpec asSet()
    {
        if (initialValue != 0)
        {
            throw new IllegalArgumentException("set table '" + name + "' must have initial value 0 (absent member, empty set), not " + initialValue);
        }
        return new TableSpec(name, scope, KeyKind.OPAQUE, 0L, description, activity,
            SET_READS_MEMBERSHIP, SET_READS_MEMBERSHIP, SET_READS_MEMBERSHIP, StateType.SET, 0, List.of(), null);
    }

    /**
     * @param capacity the values kept per key, 1 to {@link StateRing#MAX_CAPACITY}: a push beyond
     *                 it overwrites the oldest.
     * @return this declaration as a {@link StateType#RING}: each key names a ring of the last
     *         {@code capacity} {@code long} values pushed, which transactions access through
     *         {@link StateRing} (push, read the last values, size) and nothing else. The table's
     *         entries are the rings' head and slot entries ({@link StateRing#headKey},
     *         {@link StateRing#slotKey}), so its keys print as opaque, and it refuses every
     *         consistency hint but {@code serializable} ({@link #RING_READS_HEAD}).
     * @throws IllegalArgumentException if the initial value is not 0 or the capacity is out of range.
     */
    public TableSpec asRing(final int capacity)
    {
        if (initialValue != 0)
        {
            throw new IllegalArgumentException("ring table '" + name + "' must have initial value 0 (no value pushed), not " + initialValue);
        }
        return new TableSpec(name, scope, KeyKind.OPAQUE, 0L, description, activity,
            RING_READS_HEAD, RING_READS_HEAD, RING_READS_HEAD, StateType.RING, capacity, List.of(), null);
    }

    /**
     * @param fieldNames the struct's fields in layout order, 1 to {@link StateStruct#MAX_FIELDS}
     *                   distinct names of the form of a table name; field {@code i} is addressed
     *                   by its index {@code i}.
     * @return this declaration as a {@link StateType#STRUCT}: each key names a record of
     *         {@code long} fields, which transactions access through {@link StateStruct} (read,
     *         write and update single fields, update one from others); an absent field reads 0.
     *         Its entries are the fields' ({@link StateStruct#fieldKey}), so its keys print as
     *         opaque. Its consistency hints stay as declared: a field is a value like any other.
     * @throws IllegalArgumentException if the initial value is not 0 or the fields are not as above.
     */
    public TableSpec asStruct(final String... fieldNames)
    {
        if (initialValue != 0)
        {
            throw new IllegalArgumentException("struct table '" + name + "' must have initial value 0 (absent fields), not " + initialValue);
        }
        return new TableSpec(name, scope, KeyKind.OPAQUE, 0L, description, activity,
            notCommutative, notForgettable, notStaleReadable, StateType.STRUCT, 0, List.of(fieldNames), null);
    }

    /**
     * @param layout the record's fields and their widths, e.g.
     *               {@code PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16))}.
     * @return this declaration as a {@link StateType#PACKED}: each key names one record of the
     *         layout's fields packed in its {@code long}, 0 = absent. A record is one entry, so it is
     *         read, written and updated by the operations of a value, one operation for all its
     *         fields, and the fields are read and set in the value with the layout's
     *         {@link PackedField} accessors. Keys, consistency hints and everything else stay as
     *         declared: the table is a value table whose values have named fields.
     * @throws IllegalArgumentException if the initial value is not 0.
     */
    public TableSpec asPacked(final PackedLayout layout)
    {
        Objects.requireNonNull(layout, "layout");
        if (initialValue != 0)
        {
            throw new IllegalArgumentException("packed table '" + name + "' must have initial value 0 (no record), not " + initialValue);
        }
        return new TableSpec(name, scope, keyKind, 0L, description, activity,
            notCommutative, notForgettable, notStaleReadable, StateType.PACKED, 0, layout.names(), layout);
    }

    /**
     * @param widths the record's fields and their widths, from the most significant, e.g.
     *               {@code asPacked(field("seen", 40), field("address", 8), field("port", 16))}
     *               with {@link PackedLayout#field} imported.
     * @return {@code asPacked(PackedLayout.of(widths))}.
     */
    public TableSpec asPacked(final PackedLayout.Width... widths)
    {
        return asPacked(PackedLayout.of(widths));
    }

    /**
     * @return what the table holds, as {@code transnfv} shows it: its type's YAML name, with a
     *         ring's capacity, a struct's fields or a packed record's layout, e.g.
     *         {@code packed {seen: 40, address: 8, port: 16}}.
     */
    public String typeText()
    {
        return switch (type)
        {
            case RING -> "ring of " + ringCapacity;
            case STRUCT -> "struct " + fields;
            case PACKED -> "packed " + packed;
            default -> type.yamlName();
        };
    }

    /**
     * @return the index of field {@code field} of this struct table, for {@link StateStruct}.
     * @throws IllegalArgumentException if it has no such field.
     */
    public int field(final String field)
    {
        final int index = fields.indexOf(field);
        if (index < 0)
        {
            throw new IllegalArgumentException("table '" + name + "' has no field '" + field + "': its fields are " + fields);
        }
        return index;
    }

    /** Validates the declaration. */
    public TableSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(keyKind, "keyKind");
        Objects.requireNonNull(type, "type");
        fields = List.copyOf(Objects.requireNonNull(fields, "fields"));
        if (type == StateType.PACKED ? packed == null || !fields.equals(packed.names()) : packed != null)
        {
            throw new IllegalArgumentException("table '" + name + "': a packed layout " + (type == StateType.PACKED
                ? "is required, with the fields' names " + fields : "is only for packed tables"));
        }
        if (type == StateType.PACKED && initialValue != 0)
        {
            throw new IllegalArgumentException("packed table '" + name + "' must have initial value 0");
        }
        if (type == StateType.STRUCT ? fields.isEmpty() || fields.size() > StateStruct.MAX_FIELDS
            || fields.stream().distinct().count() != fields.size() || !fields.stream().allMatch(f -> f.matches("[a-z][a-z0-9_-]*"))
            : type != StateType.PACKED && !fields.isEmpty())
        {
            throw new IllegalArgumentException("table '" + name + "': fields " + fields + (type == StateType.STRUCT
                ? " must be 1 to " + StateStruct.MAX_FIELDS + " distinct names matching [a-z][a-z0-9_-]*" : " are only for structs and packed records"));
        }
        if (type == StateType.STRUCT && initialValue != 0)
        {
            throw new IllegalArgumentException("struct table '" + name + "' must have initial value 0");
        }
        if ((type == StateType.SET || type == StateType.RING) && (initialValue != 0 || notCommutative == null || notForgettable == null || notStaleReadable == null))
        {
            throw new IllegalArgumentException(type.yamlName() + " table '" + name + "' must have initial value 0 and refuse every"
                + " consistency hint but serializable");
        }
        if (type == StateType.RING ? ringCapacity < 1 || ringCapacity > StateRing.MAX_CAPACITY : ringCapacity != 0)
        {
            throw new IllegalArgumentException("table '" + name + "': ring capacity " + ringCapacity + (type == StateType.RING
                ? " is out of range: a ring keeps 1 to " + StateRing.MAX_CAPACITY + " values" : " is only for rings"));
        }
        if (!name.matches("[a-z][a-z0-9_-]*"))
        {
            throw new IllegalArgumentException("table name must match [a-z][a-z0-9_-]*: " + name);
        }
        description = description == null ? "" : description;
    }
}
