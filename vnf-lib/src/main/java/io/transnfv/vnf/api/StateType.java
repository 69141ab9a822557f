package io.transnfv.vnf.api;

/**
 * What a state table holds under each of its names: its {@link TableSpec#type()}. Every type
 * is stored as entries of a 64-bit key and one {@code long}, so the graph, the multi-version
 * table, the stores and checkpoints treat every table alike; a type fixes how its operations
 * are spelled in those entries.
 */
public enum StateType
{
    /** One {@code long} per key, today's tables: reads, writes, read-modify-writes, choices, adds. */
    VALUE("value"),
    /**
     * A set of {@code long} members per set key, spelled by {@link StateSet}: add, remove,
     * contains and size, each one or two read-modify-writes of a member entry and a size entry.
     */
    SET("set"),
    /**
     * A bounded ring of the last {@link TableSpec#ringCapacity()} {@code long} values pushed per key,
     * spelled by {@link StateRing}: push, read the last values, size; a push is a read-modify-write
     * of a head entry and a choice among the ring's slot entries.
     */
    RING("ring"),
    /**
     * A record of the {@link TableSpec#fields()} {@code long} fields per key, spelled by
     * {@link StateStruct}: each field is an entry of its own, read, written and updated by the
     * operations of a value, so that one transaction updates several fields atomically and an
     * update may read the others as parameters.
     */
    STRUCT("struct"),
    /**
     * A record of the {@link TableSpec#packed()} layout's fields per key, packed side by side in
     * one {@code long} ({@link PackedLayout}): one entry per record, so a transaction reads or
     * rewrites the whole record with one operation of a value, and the fields are read and set
     * in the value with {@link PackedField}'s accessors.
     */
    PACKED("packed");

    private final String yamlName;

    StateType(final String yamlName)
    {
        this.yamlName = yamlName;
    }

    /** @return the name chain YAML uses in a table's {@code type:}. */
    public String yamlName()
    {
        return yamlName;
    }

    /** @return the type named {@code name} in chain YAML, or null. */
    public static StateType parse(final String name)
    {
        for (final StateType type : values())
        {
            if (type.yamlName.equals(name))
            {
                return type;
            }
        }
        return null;
    }
}
