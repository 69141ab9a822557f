package io.transnfv.vnf.builtin.monitor;

import io.transnfv.tpg.txn.FunctionContext;
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
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Counts packets and frame bytes per flow (FlowKeys.fiveTuple) and per source host
 * (FlowKeys.srcHost) of every IP packet, for reports. A flow's record ends on FIN/RST and
 * after {@code idle_timeout}; host totals are kept for the whole run, or, with a
 * {@code host_idle_timeout}, end when the host has been idle that long (then a table
 * {@code host-last-seen}, CROSS_FLOW, HOST → stamp, is op 3 and the host counters ops 4 and 5,
 * restarted when op 3 was not live, and the error ops below come one later). Never drops.
 *
 * <p>Tables: {@code flow-packets}, {@code flow-bytes} (PER_FLOW, FLOW → count),
 * {@code flow-last-seen} (PER_FLOW, FLOW → stamp: last packet time in ms + 1),
 * {@code host-packets}, {@code host-bytes} (CROSS_FLOW, HOST → count). Per packet:
 * <pre>
 *  0 RMW flow-last-seen[F]  stamp(now)                (FIN/RST: 0)
 *  1 RMW flow-packets[F]    live ? +1 : 1             (FIN/RST: 0)
 *  2 RMW flow-bytes[F]      live ? +length : length   (FIN/RST: 0)
 *  3 RMW host-packets[H]    +1                        (ADD when the chain makes the table commutative)
 *  4 RMW host-bytes[H]      +length                   (ADD when the chain makes the table commutative)
 * </pre>
 * Without host expiry the host counters are {@link TableSpec#commutable() commutable}: a chain's
 * {@code consistency: commutative} turns ops 3 and 4 into ADDs, which the graph does not order
 * among themselves (docs/design/tpg.md, "ADD: counters that order nothing"). Nothing reads the
 * new value of a flow or host counter, so all four are {@link TableSpec#forgettable() forgettable}:
 * a chain's {@code consistency: fire-and-forget} turns ops 1 to 4 (those of its table) into
 * DEFERs, applied in serial order once the batch commits (docs/design/tpg.md, "DEFER").
 * "live" is op 0's value before: a flow idle longer than the timeout starts afresh.
 *
 * <p>IPv4 and IPv6 are counted alike. An ICMP or ICMPv6 error is counted as a packet of its
 * own flow and is also matched to the flow of the packet it quotes ({@link IcmpErrorQuote},
 * Q = that packet's 5-tuple key, in the quoted packet's direction, so an error about either
 * direction of a connection goes to that direction's flow). Table {@code flow-errors}
 * (PER_FLOW, FLOW → window start ms &lt;&lt; 20 | errors) counts the errors about each live flow:
 * <pre>
 *  5 READ flow-last-seen[Q]
 *  6 RMW  flow-errors[Q]   if op 5 is live: +1 (restarted when the last error is older than idle_timeout)
 * </pre>
 * An error about a flow that is not live is counted nowhere but as itself. An entry whose
 * last error is older than {@code idle_timeout} ends, at the sweep or at the next error.
 */
public final class FlowMonitor implements Vnf
{
    /** The operation that counts an ICMP error against the flow it quotes, without host expiry. */
    private static final int ERROR_OP = 6;
    /** The operation that reads when the host was last seen, with host expiry. */
    private static final int HOST_SEEN_OP = 3;
    private static final int ERROR_COUNT_BITS = 20;
    private static final long ERROR_COUNT_MASK = (1L << ERROR_COUNT_BITS) - 1;

    private final long idleTimeoutMs;
    private final long hostIdleTimeoutMs;
    private final long expiryIntervalNs;
    /** The error-counting operation's index: one later when the host's last-seen time is op 3. */
    private final int errorOp;
    private final StateFunction touch = (current, ctx) -> PacketClock.stamp(ctx.timestampNs());
    private final StateFunction clear = (current, ctx) -> 0L;
    private final StateFunction addToFlow = this::addToFlow;
    private final StateFunction add = (current, ctx) -> current + ctx.operand();
    /** The same count as an ADD's delta: it never reads the host's total. */
    private final StateFunction delta = (current, ctx) -> ctx.operand();
    private final StateFunction countError = this::countError;
    private final StateFunction addToHost = this::addToHost;
    /** Pre-processing runs on several worker threads; each reads quotes with its own view. */
    private final ThreadLocal<IcmpErrorQuote> quotes = ThreadLocal.withInitial(IcmpErrorQuote::new);

    private int flowPacketsTable;
    private int flowBytesTable;
    private int flowLastSeenTable;
    private int hostPacketsTable;
    private int hostBytesTable;
    private int hostLastSeenTable = -1;
    private int flowErrorsTable;
    /** Whether the chain made {@code host-packets}, {@code host-bytes} commutative: counted by ADDs. */
    private boolean hostPacketsAdd;
    private boolean hostBytesAdd;
    /** Whether the chain made a counter table fire-and-forget: updated by DEFERs, which nothing waits for. */
    private boolean flowPacketsDefer;
    private boolean flowBytesDefer;
    private boolean hostPacketsDefer;
    private boolean hostBytesDefer;
    private VnfCounter packets;
    private VnfCounter bytes;
    private VnfCounter flowsStarted;
    private VnfCounter flowsClosed;
    private VnfCounter flowsExpired;
    private VnfCounter errorsMatched;
    private VnfCounter hostsExpired;

    /**
     * @param idleTimeoutNs    a flow idle longer than this ends.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public FlowMonitor(final long idleTimeoutNs, final long expiryIntervalNs)
    {
        this(idleTimeoutNs, 0L, expiryIntervalNs);
    }

    /**
     * @param idleTimeoutNs     a flow idle longer than this ends.
     * @param hostIdleTimeoutNs a host idle longer than this ends, 0 to keep hosts for the run.
     * @param expiryIntervalNs  period of the expiry sweep.
     */
    public FlowMonitor(final long idleTimeoutNs, final long hostIdleTimeoutNs, final long expiryIntervalNs)
    {
        this.idleTimeoutMs = idleTimeoutNs / PacketClock.NS_PER_MS;
        this.hostIdleTimeoutMs = hostIdleTimeoutNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
        this.errorOp = hostIdleTimeoutMs > 0 ? ERROR_OP + 1 : ERROR_OP;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        // nothing reads a counter's new value in the transaction or its post-processing: fire-and-forget is honoured
        flowPacketsTable = setup.table(new TableSpec("flow-packets", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> packets").forgettable());
        flowBytesTable = setup.table(new TableSpec("flow-bytes", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> frame bytes").forgettable());
        flowLastSeenTable = setup.table(new TableSpec("flow-last-seen", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> last packet ms + 1").expiringBy(stamp -> stamp, expiryIntervalNs));
        hostPacketsTable = setup.table(hostCounter(new TableSpec("host-packets", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> packets").forgettable()));
        hostBytesTable = setup.table(hostCounter(new TableSpec("host-bytes", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> frame bytes").forgettable()));
        hostPacketsAdd = setup.commutative(hostPacketsTable);
        hostBytesAdd = setup.commutative(hostBytesTable);
        flowPacketsDefer = setup.fireAndForget(flowPacketsTable);
        flowBytesDefer = setup.fireAndForget(flowBytesTable);
        hostPacketsDefer = setup.fireAndForget(hostPacketsTable);
        hostBytesDefer = setup.fireAndForget(hostBytesTable);
        if (hostIdleTimeoutMs > 0)
        {
            hostLastSeenTable = setup.table(new TableSpec("host-last-seen", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
                "source host -> last packet ms + 1").expiringBy(stamp -> stamp, expiryIntervalNs));
            hostsExpired = setup.counter("hosts-expired");
        }
        flowErrorsTable = setup.table(new TableSpec("flow-errors", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> last ICMP error ms << 20 | errors about the flow")
            .expiringBy(errors -> errors >>> ERROR_COUNT_BITS, expiryIntervalNs));
        packets = setup.counter("packets");
        bytes = setup.counter("bytes");
        flowsStarted = setup.counter("flows-started");
        flowsClosed = setup.counter("flows-closed");
        flowsExpired = setup.counter("flows-expired");
        errorsMatched = setup.counter("errors-matched");
        setup.expiryIntervalNs(expiryIntervalNs);
        setup.checker("flow-counters-together", "a flow's packets, bytes and last-seen time are kept and removed together",
            this::checkFlowCountersTogether);
        setup.checker("bytes-at-least-packets", "a flow or a host never has fewer bytes than packets", this::checkBytesAtLeastPackets);
        if (hostLastSeenTable >= 0)
        {
            setup.checker("host-counters-together", "a host's totals and last-seen time are kept and removed together",
                this::checkHostCountersTogether);
        }
    }

    /**
     * Without host expiry a host's counters only ever grow by the packet's own count, a delta
     * that never reads them: a chain may make them commutative. With host expiry the count
     * restarts when the host was idle, which depends on op 3's value, not a delta.
     */
    private TableSpec hostCounter(final TableSpec spec)
    {
        return hostIdleTimeoutMs > 0
            ? spec.notCommutable("with 'host_idle_timeout' the monitor restarts a host's count after the host was idle, "
                + "an update that depends on the host's last-seen time, not a delta")
            : spec.commutable();
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (!packet.isValid() || !packet.isIp())
        {
            return;
        }
        final long flow = FlowKeys.fiveTuple(packet);
        final long host = FlowKeys.srcHost(packet);
        final long length = packet.frameLength();
        if (packet.isFin() || packet.isRst())
        {
            txn.readModify(flowLastSeenTable, flow, clear, 0L);
            update(txn, flowPacketsTable, flowPacketsDefer, flow, clear, 0L);
            update(txn, flowBytesTable, flowBytesDefer, flow, clear, 0L);
        }
        else
        {
            txn.readModify(flowLastSeenTable, flow, touch, 0L);
            update(txn, flowPacketsTable, flowPacketsDefer, flow, addToFlow, 1L);
            update(txn, flowBytesTable, flowBytesDefer, flow, addToFlow, length);
        }
        if (hostLastSeenTable < 0)
        {
            if (hostPacketsAdd)
            {
                txn.add(hostPacketsTable, host, delta, 1L);
            }
            else
            {
                update(txn, hostPacketsTable, hostPacketsDefer, host, add, 1L);
            }
            if (hostBytesAdd)
            {
                txn.add(hostBytesTable, host, delta, length);
            }
            else
            {
                update(txn, hostBytesTable, hostBytesDefer, host, add, length);
            }
        }
        else
        {
            txn.readModify(hostLastSeenTable, host, touch, 0L);
            update(txn, hostPacketsTable, hostPacketsDefer, host, addToHost, 1L);
            update(txn, hostBytesTable, hostBytesDefer, host, addToHost, length);
        }
        // an error that came in fragments is one error: its first fragment counts it
        if (packet.icmpType() != 0 && !packet.icmpTypeRecovered() && IcmpErrorQuote.isError(packet))
        {
            declareErrorSlowPath(packet, txn);
        }
    }

    /** A counter's update: a DEFER, which nothing waits for, where the chain made its table fire-and-forget. */
    private static void update(
        final TransactionBuilder txn, final int table, final boolean defer, final long key, final StateFunction fn, final long operand)
    {
        if (defer)
        {
            txn.defer(table, key, fn, operand);
        }
        else
        {
            txn.readModify(table, key, fn, operand);
        }
    }

    private void declareErrorSlowPath(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        final IcmpErrorQuote quote = quotes.get();
        if (quote.wrap(packet))
        {
            final long quoted = quote.fiveTuple();
            txn.read(flowLastSeenTable, quoted);
            txn.readModify(flowErrorsTable, quoted, countError, 0L);
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        if (result.operationCount() == 0)
        {
            return;
        }
        packets.increment();
        bytes.add(packet.frameLength());
        if (result.operationCount() > errorOp && result.after(errorOp) != result.before(errorOp))
        {
            errorsMatched.increment();
        }
        final boolean wasLive = PacketClock.live(result.before(0), PacketClock.millis(result.timestampNs()), idleTimeoutMs);
        if (packet.isFin() || packet.isRst())
        {
            if (wasLive)
            {
                flowsClosed.increment();
            }
        }
        else if (!wasLive)
        {
            flowsStarted.increment();
        }
    }

    private void checkFlowCountersTogether(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(flowPacketsTable, (flow, packets) ->
        {
            final long bytes = state.get(flowBytesTable, flow);
            if (state.get(flowLastSeenTable, flow) == 0L || bytes == 0L)
            {
                violations.violated(flow, "flow " + Long.toHexString(flow) + " has " + packets
                    + " packets but " + (bytes == 0L ? "no bytes" : "no last-seen time"));
            }
        });
        state.forEach(flowLastSeenTable, (flow, stamp) ->
        {
            if (state.get(flowPacketsTable, flow) == 0L)
            {
                violations.violated(flow, "flow " + Long.toHexString(flow) + " has a last-seen time but no packets");
            }
        });
    }

    private void checkBytesAtLeastPackets(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(flowPacketsTable, (flow, packets) ->
        {
            final long bytes = state.get(flowBytesTable, flow);
            if (bytes != 0L && bytes < packets)
            {
                violations.violated(flow, "flow " + Long.toHexString(flow) + ": " + bytes + " bytes, " + packets + " packets");
            }
        });
        state.forEach(hostPacketsTable, (host, packets) ->
        {
            final long bytes = state.get(hostBytesTable, host);
            if (bytes < packets)
            {
                violations.violated(host, "host " + Long.toHexString(host) + ": " + bytes + " bytes, " + packets + " packets");
            }
        });
    }

    private void checkHostCountersTogether(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(hostPacketsTable, (host, packets) ->
        {
            if (state.get(hostLastSeenTable, host) == 0L)
            {
                violations.violated(host, "host " + Long.toHexString(host) + " has " + packets + " packets but no last-seen time");
            }
        });
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        // a stamp at most nowMs - idleTimeoutMs is not live; a time at most one less is idle
        state.forEachDue(flowLastSeenTable, nowMs - idleTimeoutMs, (flow, stamp) ->
        {
            if (!PacketClock.live(stamp, nowMs, idleTimeoutMs))
            {
                state.put(flowLastSeenTable, flow, 0L);
                state.put(flowPacketsTable, flow, 0L);
                state.put(flowBytesTable, flow, 0L);
                flowsExpired.increment();
            }
        });
        if (hostLastSeenTable >= 0)
        {
            state.forEachDue(hostLastSeenTable, nowMs - hostIdleTimeoutMs, (host, stamp) ->
            {
                if (!PacketClock.live(stamp, nowMs, hostIdleTimeoutMs))
                {
                    state.put(hostLastSeenTable, host, 0L);
                    state.put(hostPacketsTable, host, 0L);
                    state.put(hostBytesTable, host, 0L);
                    hostsExpired.increment();
                }
            });
        }
        state.forEachDue(flowErrorsTable, nowMs - idleTimeoutMs - 1, (flow, errors) ->
        {
            if (PacketClock.idle(errors >>> ERROR_COUNT_BITS, nowMs, idleTimeoutMs))
            {
                state.put(flowErrorsTable, flow, 0L);
            }
        });
    }

    /**
     * Evicts flows (from {@code flow-last-seen}) or hosts (from {@code host-last-seen}) whose last
     * packet was at or before {@code cutoff} (ms + 1), with their counters, as if they had gone idle.
     */
    @Override
    public boolean evict(final int table, final long cutoff, final StateMaintenance state)
    {
        if (table == flowLastSeenTable)
        {
            evictSeenBy(cutoff, state, flowLastSeenTable, flowPacketsTable, flowBytesTable);
            return true;
        }
        if (table == hostLastSeenTable && table >= 0)
        {
            evictSeenBy(cutoff, state, hostLastSeenTable, hostPacketsTable, hostBytesTable);
            return true;
        }
        return false;
    }

    /** Removes every key last seen at or before {@code cutoff} from {@code lastSeen} and its two counter tables. */
    private static void evictSeenBy(final long cutoff, final StateMaintenance state, final int lastSeen, final int packets, final int bytes)
    {
        state.forEachDue(lastSeen, cutoff, (key, stamp) ->
        {
            if (stamp <= cutoff)
            {
                state.put(lastSeen, key, 0L);
                state.put(packets, key, 0L);
                state.put(bytes, key, 0L);
            }
        });
    }

    @Override
    public boolean evicts(final int table)
    {
        return table == flowLastSeenTable || (table == hostLastSeenTable && table >= 0);
    }

    private long countError(final long current, final FunctionContext ctx)
    {
        final long nowMs = PacketClock.millis(ctx.timestampNs());
        if (!PacketClock.live(ctx.before(errorOp - 1), nowMs, idleTimeoutMs))
        {
            return current;
        }
        final boolean counting = current != 0 && !PacketClock.idle(current >>> ERROR_COUNT_BITS, nowMs, idleTimeoutMs);
        final long count = counting ? Math.min((current & ERROR_COUNT_MASK) + 1, ERROR_COUNT_MASK) : 1L;
        return (nowMs << ERROR_COUNT_BITS) | count;
    }

    /** A host's counter: added to while the host is live (op 3 before), else restarted, as the sweep would have left it. */
    private long addToHost(final long current, final FunctionContext ctx)
    {
        final boolean live = PacketClock.live(ctx.before(HOST_SEEN_OP), PacketClock.millis(ctx.timestampNs()), hostIdleTimeoutMs);
        return live ? current + ctx.operand() : ctx.operand();
    }

    private long addToFlow(final long current, final FunctionContext ctx)
    {
        final boolean live = PacketClock.live(ctx.before(0), PacketClock.millis(ctx.timestampNs()), idleTimeoutMs);
        return (live ? current : 0L) + ctx.operand();
    }
}
