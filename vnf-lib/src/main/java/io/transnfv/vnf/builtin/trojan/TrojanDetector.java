package io.transnfv.vnf.builtin.trojan;

import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.PacketClock;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The trojan detector of the TransNFV paper's motivating chain: a host that opens an SSH
 * session, then downloads over FTP, then talks IRC (default pattern of destination ports
 * 22, 21, 6667), each event within {@code window} of the first, is reported with alert
 * {@code trojan} and subject = the host key. An event is a TCP SYN without ACK, or a UDP
 * datagram, to a pattern port; every other packet is forwarded with no transaction.
 *
 * <p>Table {@code progress} (CROSS_FLOW, HOST = FlowKeys.srcHost), 0 = no progress:
 * <pre>
 *  63                                                   8 7             0
 *  | packet time of the pattern's first event, ms (56)    | stage 1..n-1 |
 * </pre>
 * One transaction per event: RMW progress[host]. The expected event advances the stage;
 * the pattern's first port (re)starts it at stage 1; completing it resets the entry (and
 * post-processing, which recomputes the step from the value before, raises the alert); any
 * other event leaves it unchanged. Progress older than {@code window} counts as none.
 */
public final class TrojanDetector implements Vnf
{
    private static final int STAGE_BITS = 8;
    private static final long STAGE_MASK = 0xFFL;

    private final int[] pattern;
    private final long windowMs;
    private final long expiryIntervalNs;
    private final StateFunction advance = (current, ctx) -> next(current, (int)ctx.operand(), PacketClock.millis(ctx.timestampNs()));

    private int progressTable;
    private int trojanAlert;
    private VnfCounter events;
    private VnfCounter alerts;
    private VnfCounter expired;

    /**
     * @param pattern          destination ports in the order that makes an alert (1 to 255 of them).
     * @param windowNs         how long after the first event the pattern may take.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public TrojanDetector(final int[] pattern, final long windowNs, final long expiryIntervalNs)
    {
        if (pattern.length < 1 || pattern.length > 255)
        {
            throw new IllegalArgumentException("pattern of " + pattern.length + " ports");
        }
        this.pattern = pattern.clone();
        this.windowMs = windowNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        progressTable = setup.table(new TableSpec("progress", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> first event ms << 8 | stage")
            .expiringBy(progress -> progress >>> STAGE_BITS, expiryIntervalNs));
        trojanAlert = setup.alertType("trojan");
        events = setup.counter("events");
        alerts = setup.counter("alerts");
        expired = setup.counter("expired");
        setup.expiryIntervalNs(expiryIntervalNs);
        setup.checker("stage-within-pattern", "a host in progress is at a stage from 1 to the pattern's length - 1",
            this::checkStageWithinPattern);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (isEvent(packet))
        {
            txn.readModify(progressTable, FlowKeys.srcHost(packet), advance, packet.dstPort());
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        if (result.operationCount() == 0)
        {
            return;
        }
        events.increment();
        final long nowMs = PacketClock.millis(result.timestampNs());
        if (nextStage(result.before(0), packet.dstPort(), nowMs) == pattern.length)
        {
            alerts.increment();
            actions.alert(trojanAlert, FlowKeys.srcHost(packet));
        }
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        // a first event at most nowMs - windowMs - 1 is idle (PacketClock.idle)
        state.forEachDue(progressTable, nowMs - windowMs - 1, (host, progress) ->
        {
            if (PacketClock.idle(progress >>> STAGE_BITS, nowMs, windowMs))
            {
                state.put(progressTable, host, 0L);
                expired.increment();
            }
        });
    }

    /** Evicts hosts whose first event was at or before {@code cutoff} ms, as if their window had passed. */
    @Override
    public boolean evict(final int table, final long cutoff, final StateMaintenance state)
    {
        if (table != progressTable)
        {
            return false;
        }
        state.forEachDue(progressTable, cutoff, (host, progress) ->
        {
            if (progress >>> STAGE_BITS <= cutoff)
            {
                state.put(progressTable, host, 0L);
            }
        });
        return true;
    }

    @Override
    public boolean evicts(final int table)
    {
        return table == progressTable;
    }

    private boolean isEvent(final PacketFlyweight packet)
    {
        if (!packet.isValid() || !packet.isIp() || !packet.hasPorts())
        {
            return false;
        }
        final int protocol = packet.ipProtocol();
        final boolean starts = protocol == PacketFlyweight.PROTO_UDP
            || (protocol == PacketFlyweight.PROTO_TCP && packet.isSyn() && !packet.isAck());
        if (!starts)
        {
            return false;
        }
        final int port = packet.dstPort();
        for (final int p : pattern)
        {
            if (p == port)
            {
                return true;
            }
        }
        return false;
    }

    private void checkStageWithinPattern(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(progressTable, (host, progress) ->
        {
            final long stage = progress & STAGE_MASK;
            if (stage < 1 || stage >= pattern.length)
            {
                violations.violated(host, "host " + Long.toHexString(host) + " at stage " + stage
                    + " of a pattern of " + pattern.length + " ports");
            }
        });
    }

    /** @return the stage after an event to {@code port}: 0 none, 1..n-1 progress, n completed. */
    private int nextStage(final long current, final int port, final long nowMs)
    {
        final int stage = current == 0 || PacketClock.idle(current >>> STAGE_BITS, nowMs, windowMs)
            ? 0 : (int)(current & STAGE_MASK);
        if (stage > 0 && pattern[stage] == port)
        {
            return stage + 1;
        }
        if (pattern[0] == port)
        {
            return 1;
        }
        return stage;
    }

    private long next(final long current, final int port, final long nowMs)
    {
        final boolean live = current != 0 && !PacketClock.idle(current >>> STAGE_BITS, nowMs, windowMs);
        final int stage = live ? (int)(current & STAGE_MASK) : 0;
        final int n = pattern.length;
        if (stage > 0 && pattern[stage] == port)
        {
            return stage + 1 == n ? 0L : current + 1;
        }
        if (pattern[0] == port)
        {
            return n == 1 ? 0L : (nowMs << STAGE_BITS) | 1;
        }
        return live ? current : 0L;
    }
}
