package io.transnfv.vnf.api;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.packet.FlowKeys;

/**
 * The operations of a {@link StateType#RING} table of capacity {@code n}
 * ({@link TableSpec#ringCapacity()}), spelled in the operation kinds every table has, so that
 * the graph, the multi-version table, the stores and the serial oracle need nothing new. A ring
 * key {@code r} owns, in its table:
 * <pre>
 *  head entry  headKey(r)     = mix64(r ^ HEAD_SALT)               → values pushed so far, 0 = none
 *  slot entry  slotKey(r, k)  = mix64(mix64(r ^ SLOT_SALT) + k)    → the value pushed when the head was k mod n,
 *                                                                    for k in 0 .. n - 1
 * </pre>
 * and each operation declares, in statement order:
 * <pre>
 *  push(r, v)   i      READ_MODIFY head     → head + 1
 *               i + 1  CHOOSE slot(r, 0..n-1): picks slot before(i) mod n, writes v   operand v
 *  read(r)      i      READ head
 *               i + 1 + k  READ slot(r, k), k in 0 .. n - 1
 *  size(r)      i      READ head
 * </pre>
 * A push's choice reads its own transaction's head result ({@link FunctionContext#before}),
 * which the graph's statement-order dependency makes ready before it runs; the graph orders a
 * CHOOSE as a write of every candidate, so a later push or read of the ring waits for it
 * whichever slot it picks (docs/design/tpg.md, "Sets, rings and structs"). The head and the slot it names commit or
 * abort together, so in every committed state slot {@code (head - 1 - j) mod n} holds the value
 * pushed {@code j} pushes before the last, for {@code j < min(head, n)}.
 *
 * <p>For one ring key, the slot keys are a bijection of {@code k} and so never share an entry;
 * entries of different rings, or a head and a slot, meet with probability 2<sup>-64</sup> per
 * pair, deterministically, so the engine and the serial oracle meet them alike.
 *
 * <p>No method allocates: the functions are constants (one chooser per possible position of the
 * head operation in its transaction, made once), the keys are arithmetic.
 */
public final class StateRing
{
    /** The largest capacity: a push is a choice among every slot, an entry of the graph each. */
    public static final int MAX_CAPACITY = 64;
    /** A push's head operation must be among its transaction's first this-many operations. */
    public static final int MAX_HEAD_INDEX = 1024;
    /** Mixed into a ring key to make its head entry's key. */
    public static final long HEAD_SALT = 0x3C6EF372FE94F82BL;
    /** Mixed into a ring key to make the base of its slot entries' keys. */
    public static final long SLOT_SALT = 0xA54FF53A5F1D36F1L;

    private static final StateFunction ADVANCE = (head, ctx) -> head + 1;
    private static final StateFunction STORE = (slot, ctx) -> ctx.operand();
    private static final ChooseFunction[] SLOT_AT_HEAD = new ChooseFunction[MAX_HEAD_INDEX];

    static
    {
        for (int i = 0; i < MAX_HEAD_INDEX; i++)
        {
            final int headOp = i;
            SLOT_AT_HEAD[i] = ctx -> (int)Long.remainderUnsigned(ctx.before(headOp), ctx.candidateCount());
        }
    }

    private StateRing()
    {
    }

    /** @return the key of ring {@code ringKey}'s head entry. */
    public static long headKey(final long ringKey)
    {
        return FlowKeys.mix64(ringKey ^ HEAD_SALT);
    }

    /** @return the key of slot {@code slot} of ring {@code ringKey}. */
    public static long slotKey(final long ringKey, final int slot)
    {
        return FlowKeys.mix64(FlowKeys.mix64(ringKey ^ SLOT_SALT) + slot);
    }

    /**
     * Declares: push {@code value} onto ring {@code ringKey}, overwriting its oldest value if it
     * holds {@code capacity} already.
     *
     * @param table    a table declared {@link TableSpec#asRing(int)}.
     * @param capacity its {@link TableSpec#ringCapacity()}.
     * @return the index of the operation whose result {@link #pushesBefore} reads (two
     *         operations are declared; this is the second).
     * @throws IllegalArgumentException if the transaction already has {@link #MAX_HEAD_INDEX} operations.
     */
    public static int push(final TransactionBuilder txn, final int table, final int capacity, final long ringKey, final long value)
    {
        final int head = txn.readModify(table, headKey(ringKey), ADVANCE, 0L);
        if (head >= MAX_HEAD_INDEX)
        {
            throw new IllegalArgumentException("a ring push must be among the first " + MAX_HEAD_INDEX
                + " operations of its transaction, not operation " + head);
        }
        final int op = txn.choose(table, SLOT_AT_HEAD[head], STORE, value);
        final long base = FlowKeys.mix64(ringKey ^ SLOT_SALT);
        for (int k = 0; k < capacity; k++)
        {
            txn.candidate(FlowKeys.mix64(base + k));
        }
        return op;
    }

    /**
     * Declares: read the last values of ring {@code ringKey} (its head and every slot).
     *
     * @return the index of the first of the {@code capacity + 1} operations declared, which
     *         {@link #pushes}, {@link #length} and {@link #last} read.
     */
    public static int read(final TransactionBuilder txn, final int table, final int capacity, final long ringKey)
    {
        final int op = txn.read(table, headKey(ringKey));
        final long base = FlowKeys.mix64(ringKey ^ SLOT_SALT);
        for (int k = 0; k < capacity; k++)
        {
            txn.read(table, FlowKeys.mix64(base + k));
        }
        return op;
    }

    /**
     * Declares: how many values were pushed onto ring {@code ringKey}?
     *
     * @return the index of the operation {@link #pushes} and {@link #length} read.
     */
    public static int size(final TransactionBuilder txn, final int table, final long ringKey)
    {
        return txn.read(table, headKey(ringKey));
    }

    /** @return for a {@link #push} operation: how many values the ring had been pushed before it. */
    public static long pushesBefore(final TransactionView result, final int op)
    {
        return result.before(op - 1);
    }

    /** @return for a {@link #read} or {@link #size} operation: how many values the ring has been pushed. */
    public static long pushes(final TransactionView result, final int op)
    {
        return result.after(op);
    }

    /** @return for a {@link #read} or {@link #size} operation: how many values the ring holds, at most its capacity. */
    public static int length(final TransactionView result, final int op, final int capacity)
    {
        return (int)Math.min(result.after(op), capacity);
    }

    /**
     * @param back 0 for the newest value, 1 for the one pushed before it, up to
     *             {@link #length} - 1.
     * @return for a {@link #read} operation: that value.
     * @throws IndexOutOfBoundsException if the ring holds no such value.
     */
    public static long last(final TransactionView result, final int op, final int capacity, final int back)
    {
        final long pushes = result.after(op);
        if (back < 0 || back >= Math.min(pushes, capacity))
        {
            throw new IndexOutOfBoundsException("value " + back + " back of a ring of " + Math.min(pushes, capacity));
        }
        return result.after(op + 1 + (int)Long.remainderUnsigned(pushes - 1 - back, capacity));
    }

    /**
     * Between batches ({@link Vnf#expire}): empties ring {@code ringKey}, deleting its entries.
     *
     * @return how many values it held.
     */
    public static int clear(final StateMaintenance state, final int table, final int capacity, final long ringKey)
    {
        final long head = state.get(table, headKey(ringKey));
        for (int k = 0; k < capacity; k++)
        {
            state.put(table, slotKey(ringKey, k), 0L);
        }
        state.put(table, headKey(ringKey), 0L);
        return (int)Math.min(head, capacity);
    }

    /**
     * @param back 0 for the newest value, up to the ring's length - 1.
     * @return between batches: that value of ring {@code ringKey}.
     */
    public static long last(final StateReader state, final int table, final int capacity, final long ringKey, final int back)
    {
        final long pushes = state.get(table, headKey(ringKey));
        if (back < 0 || back >= Math.min(pushes, capacity))
        {
            throw new IndexOutOfBoundsException("value " + back + " back of a ring of " + Math.min(pushes, capacity));
        }
        return state.get(table, slotKey(ringKey, (int)Long.remainderUnsigned(pushes - 1 - back, capacity)));
    }
}
