package io.transnfv.vnf.api;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.packet.FlowKeys;

/**
 * The operations of a {@link StateType#SET} table, spelled in the operation kinds every table
 * has, so that the graph, the multi-version table, the stores and the serial oracle need
 * nothing new. A set key {@code s} owns, in its table:
 * <pre>
 *  size entry    sizeKey(s)        = mix64(s ^ SIZE_SALT)               → number of members, 0 = empty
 *  member entry  memberKey(s, m)   = mix64(mix64(s ^ MEMBER_SALT) + m)  → 1 if m is a member, 0 (absent) if not
 * </pre>
 * and each operation declares, in statement order:
 * <pre>
 *  add(s, m)       i     READ_MODIFY member  → 1
 *                  i + 1 READ_MODIFY size    → size + (before(i) == 0 ? 1 : 0)     operand i
 *  remove(s, m)    i     READ_MODIFY member  → 0
 *                  i + 1 READ_MODIFY size    → size - (before(i) != 0 ? 1 : 0)     operand i
 *  contains(s, m)  i     READ member
 *  size(s)         i     READ size
 * </pre>
 * The size update reads its own transaction's member result ({@link FunctionContext#before}),
 * which the graph's statement-order dependency makes ready before it runs. Each member flip and
 * its size change are two operations of one transaction, so they commit or abort together, and
 * each entry sees its key's writes in serial order: in every committed state, a set's size
 * entry equals the number of its member entries that are 1 (docs/design/tpg.md, "Sets, rings and structs").
 *
 * <p>For one set key, {@code memberKey} is a bijection of the member (mix64 and adding a
 * constant are both bijections), so two members of one set never share an entry; a member
 * entry of one set meets another set's entry, or a size entry, with probability 2<sup>-64</sup>
 * per pair. Such a meeting is deterministic in the keys, so the engine and the serial oracle
 * meet it alike and chain output equivalence holds regardless.
 *
 * <p>No method allocates: the functions are constants, the keys are arithmetic.
 */
public final class StateSet
{
    /** Mixed into a set key to make its size entry's key. */
    public static final long SIZE_SALT = 0x6A09E667F3BCC908L;
    /** Mixed into a set key to make the base of its member entries' keys. */
    public static final long MEMBER_SALT = 0xBB67AE8584CAA73BL;

    private static final StateFunction MEMBER_IN = (current, ctx) -> 1L;
    private static final StateFunction MEMBER_OUT = (current, ctx) -> 0L;
    private static final StateFunction SIZE_AFTER_ADD = StateSet::sizeAfterAdd;
    private static final StateFunction SIZE_AFTER_REMOVE = StateSet::sizeAfterRemove;

    private StateSet()
    {
    }

    /** @return the key of set {@code setKey}'s size entry. */
    public static long sizeKey(final long setKey)
    {
        return FlowKeys.mix64(setKey ^ SIZE_SALT);
    }

    /** @return the key of {@code member}'s entry in set {@code setKey}. */
    public static long memberKey(final long setKey, final long member)
    {
        return FlowKeys.mix64(FlowKeys.mix64(setKey ^ MEMBER_SALT) + member);
    }

    /**
     * Declares: add {@code member} to set {@code setKey} (nothing changes if it is a member).
     *
     * @param table a table declared {@link TableSpec#asSet()}.
     * @return the index of the operation whose results {@link #added}, {@link #sizeBefore} and
     *         {@link #sizeAfter} read (two operations are declared; this is the second).
     */
    public static int add(final TransactionBuilder txn, final int table, final long setKey, final long member)
    {
        final int op = txn.readModify(table, memberKey(setKey, member), MEMBER_IN, 0L);
        return txn.readModify(table, sizeKey(setKey), SIZE_AFTER_ADD, op);
    }

    /**
     * Declares: remove {@code member} from set {@code setKey} (nothing changes if it is absent).
     *
     * @param table a table declared {@link TableSpec#asSet()}.
     * @return the index of the operation whose results {@link #removed}, {@link #sizeBefore} and
     *         {@link #sizeAfter} read (two operations are declared; this is the second).
     */
    public static int remove(final TransactionBuilder txn, final int table, final long setKey, final long member)
    {
        final int op = txn.readModify(table, memberKey(setKey, member), MEMBER_OUT, 0L);
        return txn.readModify(table, sizeKey(setKey), SIZE_AFTER_REMOVE, op);
    }

    /**
     * Declares: is {@code member} in set {@code setKey}?
     *
     * @return the index of the operation {@link #contains(TransactionView, int)} reads.
     */
    public static int contains(final TransactionBuilder txn, final int table, final long setKey, final long member)
    {
        return txn.read(table, memberKey(setKey, member));
    }

    /**
     * Declares: how many members has set {@code setKey}?
     *
     * @return the index of the operation {@link #sizeAfter} reads.
     */
    public static int size(final TransactionBuilder txn, final int table, final long setKey)
    {
        return txn.read(table, sizeKey(setKey));
    }

    /** @return for a {@link #contains} operation: whether the member was in the set. */
    public static boolean contains(final TransactionView result, final int op)
    {
        return result.after(op) != 0;
    }

    /** @return for an {@link #add} operation: whether the member was absent, so the set grew. */
    public static boolean added(final TransactionView result, final int op)
    {
        return result.before(op - 1) == 0;
    }

    /** @return for a {@link #remove} operation: whether the member was present, so the set shrank. */
    public static boolean removed(final TransactionView result, final int op)
    {
        return result.before(op - 1) != 0;
    }

    /** @return for an {@link #add} or {@link #remove} operation: the set's size before it. */
    public static long sizeBefore(final TransactionView result, final int op)
    {
        return result.before(op);
    }

    /** @return for an {@link #add}, {@link #remove} or {@link #size} operation: the set's size after it. */
    public static long sizeAfter(final TransactionView result, final int op)
    {
        return result.after(op);
    }

    /** @return between batches: whether {@code member} is in set {@code setKey}. */
    public static boolean contains(final StateReader state, final int table, final long setKey, final long member)
    {
        return state.get(table, memberKey(setKey, member)) != 0;
    }

    /** @return between batches: the size of set {@code setKey}. */
    public static long size(final StateReader state, final int table, final long setKey)
    {
        return state.get(table, sizeKey(setKey));
    }

    /**
     * Between batches ({@link Vnf#expire}): removes {@code member} from set {@code setKey},
     * keeping the size entry equal to the members.
     *
     * @return true if it was a member.
     */
    public static boolean remove(final StateMaintenance state, final int table, final long setKey, final long member)
    {
        final long key = memberKey(setKey, member);
        if (state.get(table, key) == 0)
        {
            return false;
        }
        state.put(table, key, 0L);
        final long size = sizeKey(setKey);
        state.put(table, size, state.get(table, size) - 1);
        return true;
    }

    private static long sizeAfterAdd(final long size, final FunctionContext ctx)
    {
        return ctx.before((int)ctx.operand()) == 0 ? size + 1 : size;
    }

    private static long sizeAfterRemove(final long size, final FunctionContext ctx)
    {
        return ctx.before((int)ctx.operand()) != 0 ? size - 1 : size;
    }
}
