package io.transnfv.vnf.builtin.example;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The example of docs/vnfs.md: at most {@code limit} packets per source host per one-second
 * window of packet time; the rest are dropped as {@code rate-limited}.
 *
 * <p>Table {@code windows} (CROSS_FLOW, HOST), 0 = none:
 * <pre>
 *  63                               20 19                0
 *  | window number (packet time / 1s) | packets in window |
 * </pre>
 */
public final class HostRateLimiter implements Vnf
{
    private static final long WINDOW_NS = 1_000_000_000L;
    private static final int COUNT_BITS = 20;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    private final long limit;
    private final StateFunction count = HostRateLimiter::count;

    private int windowsTable;
    private int rateLimited;
    private VnfCounter drops;

    /** @param limit packets allowed per host per second, 1 to 2^20 - 1. */
    public HostRateLimiter(final long limit)
    {
        this.limit = limit;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        windowsTable = setup.table(new TableSpec("windows", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> window << 20 | packets"));
        rateLimited = setup.dropReason("rate-limited");
        drops = setup.counter("rate-limited");
        setup.expiryIntervalNs(WINDOW_NS);
        setup.checker("no-empty-window", "a host's window counts at least the packet that opened it", this::checkNoEmptyWindow);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (packet.isValid() && packet.isIp())
        {
            txn.readModify(windowsTable, FlowKeys.srcHost(packet), count, 0L);
        }
    }

    private static long count(final long current, final FunctionContext ctx)
    {
        final long window = ctx.timestampNs() / WINDOW_NS;
        if (current >>> COUNT_BITS != window)
        {
            return (window << COUNT_BITS) | 1;
        }
        return (current & COUNT_MASK) == COUNT_MASK ? current : current + 1;
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        if (result.operationCount() == 1 && (result.after(0) & COUNT_MASK) > limit)
        {
            drops.increment();
            actions.drop(rateLimited);
        }
    }

    private void checkNoEmptyWindow(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(windowsTable, (host, value) ->
        {
            if ((value & COUNT_MASK) == 0)
            {
                violations.violated(host, "host " + Long.toHexString(host) + " has a window with no packet");
            }
        });
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long window = nowNs / WINDOW_NS;
        state.forEach(windowsTable, (host, value) ->
        {
            if (value >>> COUNT_BITS != window)
            {
                state.put(windowsTable, host, 0L);
            }
        });
    }
}
