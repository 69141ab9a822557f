package io.transnfv.vnf.builtin.tenant;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * A tenant's first VNF: counts the packets the classifier gave the tenant and, with a rate,
 * lets through at most {@code burst} packets at once and {@code pps} per second of packet
 * time, dropping the rest as {@value #RATE_LIMIT}. The token bucket is kept as the generic
 * cell rate algorithm's one number, the theoretical arrival time (TAT), in table
 * {@code bucket} (CROSS_FLOW, INDEX, key 0), and updated by a transaction, so the engine
 * and the serial oracle let the same packets through.
 *
 * <pre>
 *   T = 1 s / pps (whole ns, rounded down)      tau = (burst - 1) * T
 *   0 RMW bucket[0]   tat' = max(tat, now)
 *                     tat' - now &gt; tau ? tat (refused: the bucket is empty)
 *                                      : tat' + T (one token taken)
 * </pre>
 *
 * A packet is refused exactly when op 0 left the value unchanged (a taken token always moves
 * it forward by T &gt; 0). Without a rate the limiter declares no operation and only counts.
 */
public final class TenantLimiter implements Vnf
{
    /** The drop reason of a packet over the tenant's rate. */
    public static final String RATE_LIMIT = "rate-limit";

    private static final long NS_PER_SECOND = 1_000_000_000L;

    private final long intervalNs;
    private final long toleranceNs;
    private final StateFunction take = this::take;
    private int bucketTable;
    private int rateLimit;
    private VnfCounter packets;
    private VnfCounter passed;

    /**
     * @param pps   packets per second of packet time, or 0 for no limit.
     * @param burst packets that may pass at once after an idle time (at least 1 with a rate).
     */
    public TenantLimiter(final long pps, final long burst)
    {
        if (pps < 0 || pps > NS_PER_SECOND || pps > 0 && (burst < 1 || burst > Integer.MAX_VALUE))
        {
            throw new IllegalArgumentException("pps must be in [0, 1e9] and burst in [1, 2^31): pps " + pps + ", burst " + burst);
        }
        this.intervalNs = pps == 0 ? 0 : NS_PER_SECOND / pps;
        this.toleranceNs = pps == 0 ? 0 : (burst - 1) * intervalNs;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        if (intervalNs > 0)
        {
            bucketTable = setup.table(new TableSpec("bucket", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
                "0 -> theoretical arrival time of the next conforming packet, ns of packet time"));
        }
        rateLimit = setup.dropReason(RATE_LIMIT);
        packets = setup.counter("packets");
        passed = setup.counter("passed");
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (intervalNs > 0)
        {
            txn.readModify(bucketTable, 0L, take, 0L);
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        packets.increment();
        if (intervalNs > 0 && result.after(0) == result.before(0))
        {
            actions.drop(rateLimit);
            return;
        }
        passed.increment();
    }

    private long take(final long tat, final FunctionContext ctx)
    {
        final long now = ctx.timestampNs();
        final long next = Math.max(tat, now);
        return next - now > toleranceNs ? tat : next + intervalNs;
    }
}
