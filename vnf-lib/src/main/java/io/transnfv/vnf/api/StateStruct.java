package io.transnfv.vnf.api;

import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.packet.FlowKeys;

/**
 * The operations of a {@link StateType#STRUCT} table, whose keys name records of
 * {@link TableSpec#fields()} {@code long} fields (e.g. a NAT mapping {public address, public
 * port, last seen}). Each field is an entry of its own,
 * <pre>
 *  field f of struct s   fieldKey(s, f) = mix64(mix64(s ^ FIELD_SALT) + f)   → the field, 0 = absent
 * </pre>
 * accessed by the operations of a value: a READ, a WRITE, a READ_MODIFY whose function may read
 * other fields of any struct as parameters ({@link #see}: a parametric dependency on them). So a
 * transaction that writes several fields writes them atomically, a transaction touching one
 * field waits only for the earlier writers of that field, and chain output equivalence holds as
 * for any table (docs/design/tpg.md, "Sets, rings and structs"). For one struct key the field keys are a
 * bijection of the field index, so two fields never share an entry.
 *
 * <p>Field indices come from {@link TableSpec#field(String)} at setup. No method allocates.
 */
public final class StateStruct
{
    /** The most fields a struct may declare. */
    public static final int MAX_FIELDS = 16;
    /** Mixed into a struct key to make the base of its fields' keys. */
    public static final long FIELD_SALT = 0x510E527FADE682D1L;

    private StateStruct()
    {
    }

    /** @return the key of field {@code field} of struct {@code structKey}. */
    public static long fieldKey(final long structKey, final int field)
    {
        return FlowKeys.mix64(FlowKeys.mix64(structKey ^ FIELD_SALT) + field);
    }

    /**
     * Declares: read field {@code field} of struct {@code structKey}.
     *
     * @return the operation's index; its {@code after} is the field.
     */
    public static int read(final TransactionBuilder txn, final int table, final long structKey, final int field)
    {
        return txn.read(table, fieldKey(structKey, field));
    }

    /**
     * Declares: read every field of struct {@code structKey}, in layout order.
     *
     * @param fields the table's field count ({@code spec.fields().size()}).
     * @return the index of the first of the {@code fields} operations, which {@link #value} reads.
     */
    public static int readAll(final TransactionBuilder txn, final int table, final int fields, final long structKey)
    {
        final long base = FlowKeys.mix64(structKey ^ FIELD_SALT);
        final int first = txn.read(table, FlowKeys.mix64(base));
        for (int f = 1; f < fields; f++)
        {
            txn.read(table, FlowKeys.mix64(base + f));
        }
        return first;
    }

    /**
     * Declares: set field {@code field} of struct {@code structKey} to {@code value} (0 deletes it).
     *
     * @return the operation's index.
     */
    public static int write(final TransactionBuilder txn, final int table, final long structKey, final int field, final long value)
    {
        return txn.write(table, fieldKey(structKey, field), value);
    }

    /**
     * Declares: replace field {@code field} of struct {@code structKey} by {@code fn} of it; follow
     * with {@link #see} for each other field {@code fn} reads ({@code ctx.param(i)}, in the order
     * of the calls).
     *
     * @return the operation's index.
     */
    public static int update(
        final TransactionBuilder txn, final int table, final long structKey, final int field, final StateFunction fn, final long operand)
    {
        return txn.readModify(table, fieldKey(structKey, field), fn, operand);
    }

    /** Lets the last {@link #update} read field {@code field} of struct {@code structKey} as its next parameter. */
    public static void see(final TransactionBuilder txn, final int table, final long structKey, final int field)
    {
        txn.param(table, fieldKey(structKey, field));
    }

    /** @return for a {@link #readAll} operation: field {@code field}'s value. */
    public static long value(final TransactionView result, final int first, final int field)
    {
        return result.after(first + field);
    }

    /** @return between batches: field {@code field} of struct {@code structKey}. */
    public static long get(final StateReader state, final int table, final long structKey, final int field)
    {
        return state.get(table, fieldKey(structKey, field));
    }

    /** Between batches ({@link Vnf#expire}): sets field {@code field} of struct {@code structKey} (0 deletes it). */
    public static void put(final StateMaintenance state, final int table, final long structKey, final int field, final long value)
    {
        state.put(table, fieldKey(structKey, field), value);
    }

    /** Between batches ({@link Vnf#expire}): deletes every field of struct {@code structKey}. */
    public static void clear(final StateMaintenance state, final int table, final int fields, final long structKey)
    {
        for (int f = 0; f < fields; f++)
        {
            state.put(table, fieldKey(structKey, f), 0L);
        }
    }
}
