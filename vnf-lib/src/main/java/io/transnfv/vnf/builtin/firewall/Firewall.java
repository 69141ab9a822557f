package io.transnfv.vnf.builtin.firewall;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.PacketClock;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Stateful firewall for IPv4: a first-match {@link Acl} decides in pre-processing, with no
 * state (a deny drops the packet as {@code acl}); outbound packets (source in
 * {@code internal_net}) that are allowed, by a rule or by {@code default_action}, open or
 * refresh a tracked connection, and FIN/RST closes it; inbound packets that no rule matched
 * pass only while their connection is live, else they are dropped as {@code not-established}.
 * An inbound packet an allow rule matched passes without tracking. Non-IPv4 packets pass.
 *
 * <p>Table {@code connections} (PER_FLOW, FLOW = FlowKeys.biflow, so both directions share
 * it): value = stamp of the last packet (packet time in ms + 1; 0 = none).
 * <pre>
 *  outbound allowed     WRITE connections[B] stamp(now)   (FIN/RST: WRITE 0)
 *  inbound, no rule     RMW connections[B]   live ? stamp(now) : 0   (FIN/RST: 0)
 * </pre>
 */
public final class Firewall implements Vnf
{
    private static final int KIND_PASS = 0;
    private static final int KIND_ACL_DENY = 1;
    private static final int KIND_OUTBOUND = 2;
    private static final int KIND_INBOUND = 3;
    private static final int KIND_INBOUND_ALLOWED = 4;
    private static final int KIND_SLOT = 0;

    private final Cidr[] internalNet;
    private final Acl acl;
    private final boolean defaultAllow;
    private final long idleTimeoutMs;
    private final long expiryIntervalNs;
    private final StateFunction refreshIfLive = this::refreshIfLive;
    private final StateFunction close = (current, ctx) -> 0L;

    private int connectionsTable;
    private int aclReason;
    private int notEstablishedReason;
    private VnfCounter aclDrops;
    private VnfCounter notEstablished;
    private VnfCounter passthrough;
    private VnfCounter expired;

    /**
     * @param internalNet      the prefixes of the inside network.
     * @param acl              the rules.
     * @param defaultAllow     whether outbound packets no rule matched pass.
     * @param idleTimeoutNs    a connection idle longer than this is closed.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public Firewall(
        final Cidr[] internalNet, final Acl acl, final boolean defaultAllow, final long idleTimeoutNs, final long expiryIntervalNs)
    {
        this.internalNet = internalNet.clone();
        this.acl = acl;
        this.defaultAllow = defaultAllow;
        this.idleTimeoutMs = idleTimeoutNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        connectionsTable = setup.table(new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "bi-flow -> last-seen ms + 1"));
        aclReason = setup.dropReason("acl");
        notEstablishedReason = setup.dropReason("not-established");
        aclDrops = setup.counter("acl");
        notEstablished = setup.counter("not-established");
        passthrough = setup.counter("passthrough");
        expired = setup.counter("expired");
        setup.expiryIntervalNs(expiryIntervalNs);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (!packet.isValid() || !packet.isIpv4())
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
            return;
        }
        final int verdict = acl.match(packet);
        final boolean outbound = isInternal(packet.srcIpv4());
        final boolean closing = packet.isFin() || packet.isRst();
        if (verdict == Acl.DENY || (outbound && verdict == Acl.NO_MATCH && !defaultAllow))
        {
            txn.scratch(KIND_SLOT, KIND_ACL_DENY);
        }
        else if (outbound)
        {
            txn.scratch(KIND_SLOT, KIND_OUTBOUND);
            txn.write(connectionsTable, FlowKeys.biflow(packet), closing ? 0L : PacketClock.stamp(txn.timestampNs()));
        }
        else if (verdict == Acl.ALLOW)
        {
            txn.scratch(KIND_SLOT, KIND_INBOUND_ALLOWED);
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_INBOUND);
            txn.readModify(connectionsTable, FlowKeys.biflow(packet), closing ? close : refreshIfLive, 0L);
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        switch ((int)result.scratch(KIND_SLOT))
        {
            case KIND_ACL_DENY:
                aclDrops.increment();
                actions.drop(aclReason);
                break;
            case KIND_INBOUND:
                if (!PacketClock.live(result.before(0), PacketClock.millis(result.timestampNs()), idleTimeoutMs))
                {
                    notEstablished.increment();
                    actions.drop(notEstablishedReason);
                }
                break;
            case KIND_PASS:
                passthrough.increment();
                break;
            default:
                break;
        }
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        state.forEach(connectionsTable, (flow, stamp) ->
        {
            if (!PacketClock.live(stamp, nowMs, idleTimeoutMs))
            {
                state.put(connectionsTable, flow, 0L);
                expired.increment();
            }
        });
    }

    private long refreshIfLive(final long current, final FunctionContext ctx)
    {
        final long nowNs = ctx.timestampNs();
        return PacketClock.live(current, PacketClock.millis(nowNs), idleTimeoutMs) ? PacketClock.stamp(nowNs) : 0L;
    }

    private boolean isInternal(final int address)
    {
        for (final Cidr prefix : internalNet)
        {
            if (prefix.contains(address))
            {
                return true;
            }
        }
        return false;
    }
}
