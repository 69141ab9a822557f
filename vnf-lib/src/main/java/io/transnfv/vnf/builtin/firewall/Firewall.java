package io.transnfv.vnf.builtin.firewall;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.LiveChange;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.PacketClock;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.Ipv6Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Stateful firewall for IPv4 and IPv6: a first-match {@link Acl} decides in pre-processing,
 * with no state (a deny drops the packet as {@code acl}); outbound packets (source in an
 * {@code internal_net} prefix of their family) that are allowed, by a rule or by
 * {@code default_action}, open or refresh a tracked connection, and FIN/RST closes it;
 * inbound packets that no rule matched pass only while their connection is live, else they
 * are dropped as {@code not-established}. An inbound packet an allow rule matched passes
 * without tracking. Frames that are not IP pass.
 *
 * <p>ICMP and ICMPv6 errors ({@link IcmpErrorQuote}) are matched to the connection of the
 * packet they quote, whichever direction that packet took: an inbound error no rule matched
 * passes as {@code related} while that connection is live (so path-MTU discovery and
 * unreachables work) and is dropped as {@code not-established} otherwise; it neither opens
 * nor refreshes a connection. An outbound error follows the outbound rules but opens no
 * connection of its own. ICMPv6 neighbour discovery (types 133 to 137 with hop limit 255,
 * which only a neighbour on the link can send) passes inbound like an allowed packet.
 *
 * <p>A chain may bind the role {@value #BLOCKLIST_ROLE} to a shared table that another VNF writes
 * (the port-scan detector flags the sources it reports): every IP packet the rules do not deny then
 * checks its source host first, {@code 0 RMW blocklist[src] unchanged, abort if flagged}, and a
 * flagged source's packet is dropped as {@code blocked} without opening or refreshing a connection;
 * the operations below then start at index 1.
 *
 * <p>Table {@code connections} (PER_FLOW, FLOW = FlowKeys.biflow, so both directions share
 * it): value = stamp of the last packet (packet time in ms + 1; 0 = none).
 * <pre>
 *  outbound allowed     WRITE connections[B] stamp(now)   (FIN/RST: WRITE 0)
 *  inbound, no rule     RMW connections[B]   live ? stamp(now) : 0   (FIN/RST: 0)
 *  inbound ICMP error   READ connections[Q]  (Q = biflow of the quoted packet)
 * </pre>
 *
 * <p><b>IPv6 connections are verified, not only hashed.</b> The bi-flow key is a 64-bit hash,
 * and for IPv6 an outsider who controls the low 64 bits of its own address can solve for an
 * address whose key equals that of any connection it knows of: {@code mix64} is a bijection
 * and the address enters the hash by exclusive or, so one inversion gives the colliding
 * address. Without a check, such packets would pass as that connection's. IPv6 connections
 * therefore live in their own tables, which hold the exact endpoints beside the stamp, in
 * {@link FlowKeys#ipv6EndpointOrder} order (a = the lower endpoint):
 * <pre>
 *  connections-v6    B → stamp          v6-a-high, v6-a-low, v6-b-high, v6-b-low  B → address halves
 *                                       v6-ports  B → a port &lt;&lt; 24 | b port &lt;&lt; 8 | protocol
 *  outbound allowed  0..4 WRITE v6-*[B] exact endpoints;  5 WRITE connections-v6[B] stamp (FIN/RST: 0)
 *  inbound, no rule  0..4 RMW v6-*[B] unchanged, abort unless equal to the packet's endpoints
 *                    5 RMW connections-v6[B] as for IPv4
 *  inbound error     0..4 as above with the quoted endpoints;  5 READ connections-v6[Q]
 * </pre>
 * A packet whose key collides with another connection's aborts its transaction and is
 * dropped as {@code not-established}: a collision can only refuse a packet, never admit
 * one, and it changes no state. An outbound connection that collides with an older one
 * replaces it, which again can only refuse the older one's packets. The sweep clears the
 * endpoints of every connection that is not live, closed or idle. IPv4 keeps the single
 * table and its one operation: there the 96 bits an IPv4 tuple carries do not enter the
 * hash in a way a sender can solve for, and an outsider controls at most its own address
 * and port, about 2^48 tuples against a 2^64 key space.
 */
public final class Firewall implements Vnf
{
    private static final int KIND_PASS = 0;
    private static final int KIND_ACL_DENY = 1;
    private static final int KIND_OUTBOUND = 2;
    private static final int KIND_INBOUND = 3;
    private static final int KIND_INBOUND_ALLOWED = 4;
    private static final int KIND_RELATED = 5;
    private static final int KIND_SLOT = 0;
    /** Scratch slot: the operation whose before-value is the connection's stamp (0 unless IPv6 verified first; -1 none). */
    private static final int STAMP_OP_SLOT = 1;
    private static final int IPV6_STAMP_OP = 5;
    private static final int IPV6_MISMATCH = 1;
    private static final int BLOCKED = 2;
    /** The shared table role a chain may bind to the hosts it blocks (a detector writes them). */
    public static final String BLOCKLIST_ROLE = "blocklist";
    private static final int NDP_FIRST_TYPE = 133;
    private static final int NDP_LAST_TYPE = 137;
    private static final int NDP_HOP_LIMIT = 255;

    private final Cidr[] internalNet;
    private final Ipv6Cidr[] internalNet6;
    /** Live ({@code rules}): replaced by {@link #prepareChange}'s change between two batches, never mid-batch. */
    private Acl acl;
    /** Live ({@code default_action}), like {@link #acl}. */
    private boolean defaultAllow;
    private final long idleTimeoutMs;
    private final long expiryIntervalNs;
    private final StateFunction refreshIfLive = this::refreshIfLive;
    private final StateFunction close = (current, ctx) -> 0L;
    private final StateFunction verify = Firewall::verify;
    private final StateFunction refuseBlocked = Firewall::refuseBlocked;
    /** Pre-processing runs on several worker threads; each reads quotes with its own view. */
    private final ThreadLocal<IcmpErrorQuote> quotes = ThreadLocal.withInitial(IcmpErrorQuote::new);

    private int connectionsTable;
    private int connections6Table;
    private final int[] endpoints6Tables = new int[5];
    /** The chain's block list, or -1 if the chain binds none to {@value #BLOCKLIST_ROLE}. */
    private int blocklistTable = -1;
    /** The index of a transaction's first operation of its own: 1 after the block list's check, else 0. */
    private int firstOp;
    private int blockedReason;
    private VnfCounter blocked;
    private int aclReason;
    private int notEstablishedReason;
    private VnfCounter aclDrops;
    private VnfCounter notEstablished;
    private VnfCounter passthrough;
    private VnfCounter expired;
    private VnfCounter related;

    /**
     * @param internalNet      the IPv4 prefixes of the inside network.
     * @param internalNet6     the IPv6 prefixes of the inside network.
     * @param acl              the rules.
     * @param defaultAllow     whether outbound packets no rule matched pass.
     * @param idleTimeoutNs    a connection idle longer than this is closed.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public Firewall(
        final Cidr[] internalNet,
        final Ipv6Cidr[] internalNet6,
        final Acl acl,
        final boolean defaultAllow,
        final long idleTimeoutNs,
        final long expiryIntervalNs)
    {
        this.internalNet = internalNet.clone();
        this.internalNet6 = internalNet6.clone();
        this.acl = acl;
        this.defaultAllow = defaultAllow;
        this.idleTimeoutMs = idleTimeoutNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
    }

    /** Takes new {@code rules} and {@code default_action}: both are parsed here, then swapped in at once. */
    @Override
    public LiveChange prepareChange(final VnfConfig next)
    {
        final Acl rules = Acl.parse(next.getStringList("rules"), "rules");
        final boolean allow = FirewallFactory.defaultAllow(next);
        return () ->
        {
            acl = rules;
            defaultAllow = allow;
        };
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        connectionsTable = setup.table(new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "bi-flow -> last-seen ms + 1").expiringBy(stamp -> stamp, expiryIntervalNs));
        connections6Table = setup.table(new TableSpec("connections-v6", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "IPv6 bi-flow -> last-seen ms + 1"));
        final String[] halves = {"v6-a-high", "v6-a-low", "v6-b-high", "v6-b-low"};
        for (int i = 0; i < halves.length; i++)
        {
            endpoints6Tables[i] = setup.table(new TableSpec(halves[i], TableScope.PER_FLOW, KeyKind.FLOW, 0L,
                "IPv6 bi-flow -> exact address half of its endpoint " + halves[i].charAt(3)));
        }
        endpoints6Tables[4] = setup.table(new TableSpec("v6-ports", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "IPv6 bi-flow -> a port << 24 | b port << 8 | protocol"));
        blocklistTable = setup.sharedTable(new TableSpec(BLOCKLIST_ROLE, TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> flagged at ms + 1 (0 = not blocked)"));
        firstOp = blocklistTable >= 0 ? 1 : 0;
        aclReason = setup.dropReason("acl");
        notEstablishedReason = setup.dropReason("not-established");
        aclDrops = setup.counter("acl");
        notEstablished = setup.counter("not-established");
        passthrough = setup.counter("passthrough");
        expired = setup.counter("expired");
        related = setup.counter("related");
        if (blocklistTable >= 0)
        {
            blockedReason = setup.dropReason("blocked");
            blocked = setup.counter("blocked");
        }
        setup.expiryIntervalNs(expiryIntervalNs);
        setup.checker("v6-connection-keeps-its-tuple", "every tracked IPv6 connection keeps the exact tuple it is verified against",
            this::checkV6ConnectionKeepsItsTuple);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (!packet.isValid() || !packet.isIp())
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
            return;
        }
        final boolean ipv6 = packet.isIpv6();
        final int verdict = acl.match(packet);
        final boolean outbound = ipv6 ? isInternal6(packet.srcIpv6High(), packet.srcIpv6Low()) : isInternal(packet.srcIpv4());
        final boolean closing = packet.isFin() || packet.isRst();
        if (verdict == Acl.DENY || (outbound && verdict == Acl.NO_MATCH && !defaultAllow))
        {
            txn.scratch(KIND_SLOT, KIND_ACL_DENY);
        }
        else
        {
            if (blocklistTable >= 0)
            {
                // first, so that a blocked host's packet aborts before it opens or refreshes a connection
                txn.readModify(blocklistTable, sourceHost(packet), refuseBlocked, 0L);
                txn.scratch(STAMP_OP_SLOT, firstOp);
            }
            declareAllowedByAcl(packet, txn, ipv6, verdict, outbound, closing);
        }
    }

    /** The packet's source as the block list's key: an IPv4 host, or an IPv6 source's /64 (as the port-scan detector counts it). */
    private static long sourceHost(final PacketFlyweight packet)
    {
        return packet.isIpv6() ? FlowKeys.ipv6Host(packet.srcIpv6High(), 0L) : FlowKeys.srcHost(packet);
    }

    /** Leaves a block list entry as it is, and aborts the transaction if it names the packet's source. */
    private static long refuseBlocked(final long current, final FunctionContext ctx)
    {
        if (current != 0L)
        {
            ctx.abort(BLOCKED);
        }
        return current;
    }

    private void declareAllowedByAcl(
        final PacketFlyweight packet, final TransactionBuilder txn, final boolean ipv6, final int verdict, final boolean outbound,
        final boolean closing)
    {
        if (packet.icmpType() != 0 && IcmpErrorQuote.isError(packet))
        {
            declareErrorSlowPath(packet, txn, outbound || verdict == Acl.ALLOW);
        }
        else if (outbound)
        {
            txn.scratch(KIND_SLOT, KIND_OUTBOUND);
            final long stamp = closing ? 0L : PacketClock.stamp(txn.timestampNs());
            if (ipv6)
            {
                final long flow = FlowKeys.biflow(packet);
                writeEndpoints6(packet, txn, flow);
                txn.write(connections6Table, flow, stamp);
            }
            else
            {
                txn.write(connectionsTable, FlowKeys.biflow(packet), stamp);
            }
        }
        else if (verdict == Acl.ALLOW || ipv6 && isNeighbourDiscovery(packet))
        {
            txn.scratch(KIND_SLOT, KIND_INBOUND_ALLOWED);
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_INBOUND);
            final long flow = FlowKeys.biflow(packet);
            if (ipv6)
            {
                txn.scratch(STAMP_OP_SLOT, firstOp + IPV6_STAMP_OP);
                verifyEndpoints6(txn, flow, packet.srcIpv6High(), packet.srcIpv6Low(), packet.srcPort(),
                    packet.dstIpv6High(), packet.dstIpv6Low(), packet.dstPort(), packet.ipProtocol());
                txn.readModify(connections6Table, flow, closing ? close : refreshIfLive, 0L);
            }
            else
            {
                txn.readModify(connectionsTable, flow, closing ? close : refreshIfLive, 0L);
            }
        }
    }

    /** ICMP errors: rare, so kept off the path of ordinary packets. */
    private void declareErrorSlowPath(final PacketFlyweight packet, final TransactionBuilder txn, final boolean allowed)
    {
        final IcmpErrorQuote quote = quotes.get();
        if (allowed || !quote.wrap(packet))
        {
            // outbound or allowed by a rule: passes, and an error opens no connection of its own;
            // inbound without a readable quote: nothing to match, so nothing lets it in
            txn.scratch(KIND_SLOT, allowed ? KIND_INBOUND_ALLOWED : KIND_RELATED);
            txn.scratch(STAMP_OP_SLOT, -1);
            return;
        }
        txn.scratch(KIND_SLOT, KIND_RELATED);
        final long flow = quote.biflow();
        if (quote.ipVersion() == 6)
        {
            txn.scratch(STAMP_OP_SLOT, firstOp + IPV6_STAMP_OP);
            verifyEndpoints6(txn, flow, quote.srcIpv6High(), quote.srcIpv6Low(), quote.srcPort(),
                quote.dstIpv6High(), quote.dstIpv6Low(), quote.dstPort(), quote.protocol());
            txn.read(connections6Table, flow);
        }
        else
        {
            txn.read(connectionsTable, flow);
        }
    }

    private void writeEndpoints6(final PacketFlyweight packet, final TransactionBuilder txn, final long flow)
    {
        final long sh = packet.srcIpv6High();
        final long sl = packet.srcIpv6Low();
        final int sp = packet.srcPort();
        final long dh = packet.dstIpv6High();
        final long dl = packet.dstIpv6Low();
        final int dp = packet.dstPort();
        final boolean srcFirst = FlowKeys.ipv6EndpointOrder(sh, sl, sp, dh, dl, dp) <= 0;
        txn.write(endpoints6Tables[0], flow, srcFirst ? sh : dh);
        txn.write(endpoints6Tables[1], flow, srcFirst ? sl : dl);
        txn.write(endpoints6Tables[2], flow, srcFirst ? dh : sh);
        txn.write(endpoints6Tables[3], flow, srcFirst ? dl : sl);
        txn.write(endpoints6Tables[4], flow, ports(srcFirst ? sp : dp, srcFirst ? dp : sp, packet.ipProtocol()));
    }

    private void verifyEndpoints6(
        final TransactionBuilder txn, final long flow,
        final long sh, final long sl, final int sp, final long dh, final long dl, final int dp, final int protocol)
    {
        final boolean srcFirst = FlowKeys.ipv6EndpointOrder(sh, sl, sp, dh, dl, dp) <= 0;
        txn.readModify(endpoints6Tables[0], flow, verify, srcFirst ? sh : dh);
        txn.readModify(endpoints6Tables[1], flow, verify, srcFirst ? sl : dl);
        txn.readModify(endpoints6Tables[2], flow, verify, srcFirst ? dh : sh);
        txn.readModify(endpoints6Tables[3], flow, verify, srcFirst ? dl : sl);
        txn.readModify(endpoints6Tables[4], flow, verify, ports(srcFirst ? sp : dp, srcFirst ? dp : sp, protocol));
    }

    private static long ports(final int aPort, final int bPort, final int protocol)
    {
        return ((long)aPort << 24) | ((long)bPort << 8) | (protocol & 0xFF);
    }

    /** Leaves an endpoint half as it is, and aborts the transaction unless it is the packet's. */
    private static long verify(final long current, final FunctionContext ctx)
    {
        if (current != ctx.operand())
        {
            ctx.abort(IPV6_MISMATCH);
        }
        return current;
    }

    private static boolean isNeighbourDiscovery(final PacketFlyweight packet)
    {
        final int type = packet.icmpType();
        return packet.ipProtocol() == PacketFlyweight.PROTO_ICMPV6 && type >= NDP_FIRST_TYPE && type <= NDP_LAST_TYPE
            && packet.ttl() == NDP_HOP_LIMIT;
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        if (result.abortReason() == BLOCKED)
        {
            blocked.increment();
            actions.drop(blockedReason);
            return;
        }
        switch ((int)result.scratch(KIND_SLOT))
        {
            case KIND_ACL_DENY:
                aclDrops.increment();
                actions.drop(aclReason);
                break;
            case KIND_INBOUND:
                if (!liveConnection(result))
                {
                    notEstablished.increment();
                    actions.drop(notEstablishedReason);
                }
                break;
            case KIND_RELATED:
                if (liveConnection(result))
                {
                    related.increment();
                }
                else
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

    /** Whether the connection the packet was matched to was live before it: false when IPv6 verification aborted. */
    private boolean liveConnection(final TransactionView result)
    {
        final int stampOp = (int)result.scratch(STAMP_OP_SLOT);
        return stampOp >= 0 && !result.aborted()
            && PacketClock.live(result.before(stampOp), PacketClock.millis(result.timestampNs()), idleTimeoutMs);
    }

    private void checkV6ConnectionKeepsItsTuple(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(connections6Table, (flow, stamp) ->
        {
            if (state.get(endpoints6Tables[4], flow) == 0L)
            {
                violations.violated(flow, "IPv6 connection " + Long.toHexString(flow) + " is tracked without its stored tuple");
            }
        });
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        // a stamp at most nowMs - idleTimeoutMs is not live (PacketClock.live)
        state.forEachDue(connectionsTable, nowMs - idleTimeoutMs, (flow, stamp) ->
        {
            if (!PacketClock.live(stamp, nowMs, idleTimeoutMs))
            {
                state.put(connectionsTable, flow, 0L);
                expired.increment();
            }
        });
        // every IPv6 connection has v6-ports (its protocol is never 0), also one closed by FIN/RST
        state.forEach(endpoints6Tables[4], (flow, ports) ->
        {
            final long stamp = state.get(connections6Table, flow);
            if (!PacketClock.live(stamp, nowMs, idleTimeoutMs))
            {
                if (stamp != 0)
                {
                    state.put(connections6Table, flow, 0L);
                    expired.increment();
                }
                for (final int table : endpoints6Tables)
                {
                    state.put(table, flow, 0L);
                }
            }
        });
    }

    /** Evicts IPv4 connections last seen at or before {@code cutoff} (ms + 1), as if they had gone idle. */
    @Override
    public boolean evict(final int table, final long cutoff, final StateMaintenance state)
    {
        if (table != connectionsTable)
        {
            return false;
        }
        state.forEachDue(connectionsTable, cutoff, (flow, stamp) ->
        {
            if (stamp <= cutoff)
            {
                state.put(connectionsTable, flow, 0L);
            }
        });
        return true;
    }

    @Override
    public boolean evicts(final int table)
    {
        return table == connectionsTable;
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

    private boolean isInternal6(final long high, final long low)
    {
        for (final Ipv6Cidr prefix : internalNet6)
        {
            if (prefix.contains(high, low))
            {
                return true;
            }
        }
        return false;
    }
}
