package io.transnfv.engine.chain;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.PacketActions;

/**
 * The chain's table triggers (CoGS's trigger state): a write that takes a key's value from at
 * most a table's threshold to more than it raises the table's alert about the key, on the packet
 * whose transaction wrote it, right after its VNF's post-processing. A write's before and after
 * are its values in the serial order, so every executor raises the same alerts on the same
 * packets. READs and ADDs (whose before is not the key's value) never fire; an aborted
 * transaction wrote nothing. Immutable; any thread.
 */
public final class TableTriggers
{
    private static final int READ = OperationType.READ.ordinal();
    private static final int ADD = OperationType.ADD.ordinal();
    private static final int DEFER = OperationType.DEFER.ordinal();
    private static final int STALE_READ = OperationType.STALE_READ.ordinal();
    private static final int STALE_CHOOSE = OperationType.STALE_CHOOSE.ordinal();
    private static final int CHOOSE = OperationType.CHOOSE.ordinal();

    private final boolean[] armed;
    private final long[] above;
    private final int[] alert;
    private final boolean[] vnfArmed;

    /**
     * @param tables    tables, by id.
     * @param vnfs      VNF instances.
     * @param above     each table's threshold (read where {@code alert} is not negative).
     * @param alert     each table's alert id for its VNF, or -1 for no trigger.
     * @param ownerOf   each table's VNF index, -1 for none.
     */
    TableTriggers(final int tables, final int vnfs, final long[] above, final int[] alert, final int[] ownerOf)
    {
        this.armed = new boolean[tables];
        this.above = above.clone();
        this.alert = alert.clone();
        this.vnfArmed = new boolean[vnfs];
        for (int t = 0; t < tables; t++)
        {
            armed[t] = alert[t] >= 0;
            if (armed[t] && ownerOf[t] >= 0)
            {
                vnfArmed[ownerOf[t]] = true;
            }
        }
    }

    /** @return true if any table of VNF {@code vnf} has a trigger. */
    public boolean any(final int vnf)
    {
        return vnfArmed[vnf];
    }

    /** Raises, on {@code actions}, the alerts of the triggers {@code result}'s writes fire (VNF {@code vnf}'s transaction). */
    public void fire(final int vnf, final TransactionView result, final PacketActions actions)
    {
        if (!vnfArmed[vnf] || result.aborted())
        {
            return;
        }
        for (int op = 0, n = result.operationCount(); op < n; op++)
        {
            final int type = result.type(op);
            final int table = result.table(op);
            if (type == READ || type == ADD || type == DEFER || type == STALE_READ || type == STALE_CHOOSE || !armed[table] || (type == CHOOSE && result.chosen(op) == ChooseFunction.NONE))
            {
                continue;
            }
            final long threshold = above[table];
            if (result.before(op) <= threshold && result.after(op) > threshold)
            {
                actions.alert(alert[table], result.key(op));
            }
        }
    }
}
