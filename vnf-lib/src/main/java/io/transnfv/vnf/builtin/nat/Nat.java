package io.transnfv.vnf.builtin.nat;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PackedField;
import io.transnfv.vnf.api.PackedLayout;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateChecker;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.PacketClock;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.PacketFlyweight;

import static io.transnfv.vnf.api.PackedLayout.field;

/**
 * Endpoint-independent NAT44 (RFC 4787 mapping behaviour): every internal endpoint
 * (address, port, protocol) gets one external (address, port), shared by all its flows,
 * from a pool of {@code pool_size} ports starting at {@code port_base} on each of the
 * {@code A} external addresses ({@code external_ip}, or every address of the prefix
 * {@code external_ips}, at most 256). The pool holds {@code A × pool_size} slots; slot
 * {@code s} is address {@code s / pool_size}, port {@code port_base + s mod pool_size}.
 * An endpoint may get any address of the pool (RFC 4787 "arbitrary" pooling): one busy
 * host's endpoints spread over all addresses instead of exhausting one.
 *
 * <p>Tables:
 * <pre>
 *  ports     CROSS_FLOW INDEX    address index &lt;&lt; 16 | external port → owner endpoint
 *                                (FlowKeys.endpoint), -1 = free; with one address the key is the port
 *  mappings  PER_FLOW   ENDPOINT internal endpoint → a packed record ({@link #MAPPING}), 0 = none:
 *              63                                24 23        16 15              0
 *              | seen: last packet, ms mod 2^40     | address (8) | port (16)       |
 *                                                     (index)       (external port)
 *  packets   CROSS_FLOW INDEX    0 → packets translated (both directions)
 * </pre>
 * A mapping's address and port make its ports key. Last-seen times are kept modulo 2^40 ms
 * (34 years) and compared modulo 2^40, so an idle gap is measured right across the wrap.
 *
 * <p>Transactions (E = the internal endpoint, candidates = E's probe sequence in the pool:
 * slots {@code (hash(E) + i) mod (A × pool_size)} for i &lt; min(probes, A × pool_size)):
 * <pre>
 *  TCP SYN, UDP  0 RMW mappings[E]   refresh if live
 *                1 CHOOSE ports      if not live: the port still owned by E → free (-1)
 *                2 CHOOSE ports      if not live: first candidate free (or owned by E) → E,
 *                                    none → abort(POOL_EXHAUSTED)
 *                3 RMW mappings[E]   if op 2 picked: (port, now)
 *                4 ADD packets[0]    +1
 *  TCP FIN, RST  0 READ mappings[E]; 1 CHOOSE ports owned by E → -1; 2 WRITE mappings[E] 0;
 *                3 ADD packets[0] +1 if op 0 was live
 *  other TCP     0 RMW mappings[E] refresh if live; 1 ADD packets[0] +1 if live
 *  inbound       0 READ ports[dst port]; 1 ADD packets[0] +1 if owned by the same protocol
 *  ICMP error, inbound   0 READ ports[quoted src port]   (it quotes a packet we translated out)
 *  ICMP error, outbound  0 READ mappings[quoted dst]     (it quotes a packet we translated in)
 * </pre>
 *
 * <p><b>ICMP errors</b> that quote a translated TCP/UDP packet are translated with it, in both
 * directions, so that path-MTU discovery and unreachables reach the host they are about.
 * An error sent to an external address quoting that address and a port which is owned
 * (by the quoted protocol) goes to the owner: outer destination and quoted source become the
 * internal endpoint; with no owner it is dropped as {@code no-mapping}. An error from an
 * internal host quoting a packet sent to one of its mapped endpoints leaves with source
 * the mapping's external address and the quoted destination rewritten to that
 * {@code address:port}; one
 * about an unmapped endpoint passes as before. Errors read state and change none; the
 * quoted IP header checksum, a quoted TCP/UDP checksum and the ICMP checksum are kept right.
 * Op 1 of the SYN/UDP transaction makes a packet that finds an idle mapping before the
 * sweep removed it behave exactly as after the sweep. Ports owned by an idle endpoint are
 * still taken for <em>other</em> endpoints until the sweep frees them (the port table
 * cannot see the owner's last-seen time); inbound packets do not refresh a mapping.
 *
 * <p><b>IPv6.</b> The NAT translates IPv4 only. What it does with IPv6 packets is parameter
 * {@code ipv6}: {@code pass} (the default) forwards them unchanged, as a dual-stack network
 * routes IPv6 without translation; {@code drop} drops them with reason {@code ipv6}, for an
 * IPv4-only outside. Either way they touch no state and are counted in {@code ipv6}.
 */
public final class Nat implements Vnf
{
    /** Abort reason: no candidate port was free. */
    public static final int POOL_EXHAUSTED = 1;

    private static final int KIND_PASS = 0;
    private static final int KIND_ALLOCATE = 1;
    private static final int KIND_ESTABLISHED = 2;
    private static final int KIND_CLOSE = 3;
    private static final int KIND_INBOUND = 4;
    private static final int KIND_INBOUND_OUTSIDE_POOL = 5;
    private static final int KIND_IPV6 = 6;
    private static final int KIND_ERROR_INBOUND = 7;
    private static final int KIND_ERROR_OUTBOUND = 8;
    private static final int KIND_SLOT = 0;

    private static final long FREE = -1L;
    /** A ports key: address index &lt;&lt; PORT_BITS | external port. */
    private static final int PORT_BITS = 16;
    private static final long PORT_MASK = 0xFFFFL;

    /**
     * A mapping, one entry of table {@code mappings}: the last-seen packet time in ms modulo 2^40,
     * the external address's index in the pool and the external port.
     */
    public static final PackedLayout MAPPING = PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16));
    private static final PackedField SEEN = MAPPING.field("seen");
    private static final PackedField ADDRESS = MAPPING.field("address");
    private static final PackedField PORT = MAPPING.field("port");

    /** Most external addresses a pool may span: the address index has 8 bits. */
    public static final int MAX_EXTERNAL_ADDRESSES = 256;

    private final Cidr internalNet;
    private final int externalIp;
    private final int externalAddresses;
    private final int portBase;
    private final int poolSize;
    private final long poolSlots;
    private final int candidateCount;
    private final long idleTimeoutMs;
    private final long expiryIntervalNs;
    private final boolean dropIpv6;
    /** Pre- and post-processing run on several worker threads; each reads quotes with its own view. */
    private final ThreadLocal<IcmpErrorQuote> quotes = ThreadLocal.withInitial(IcmpErrorQuote::new);

    private final StateFunction refresh = this::refresh;
    private final ChooseFunction releaseIfNotLive = this::releaseIfNotLive;
    private final ChooseFunction releaseOwned = (ctx) -> ownedBy(ctx, ctx.operand());
    private final ChooseFunction allocate = this::allocate;
    private final StateFunction free = (current, ctx) -> FREE;
    private final StateFunction own = (current, ctx) -> ctx.operand();
    private final StateFunction assign = this::assign;
    // deltas of the packets counter: ADDs, which commute, so the counter orders no transaction
    private final StateFunction countAlways = (zero, ctx) -> 1L;
    private final StateFunction countIfLive = (zero, ctx) -> isLive(ctx.before(0), PacketClock.millis(ctx.timestampNs())) ? 1L : 0L;
    private final StateFunction countIfOwned = (zero, ctx) -> ownerMatches(ctx.after(0), (int)ctx.operand()) ? 1L : 0L;

    private int portsTable;
    private int mappingsTable;
    private int packetsTable;
    private int poolExhaustedReason;
    private int noMappingReason;
    private int ipv6Reason;
    private VnfCounter outbound;
    private VnfCounter inbound;
    private VnfCounter passthrough;
    private VnfCounter poolExhausted;
    private VnfCounter noMapping;
    private VnfCounter expired;
    private VnfCounter ipv6;

    /**
     * @param internalNet      sources inside it are translated.
     * @param externalIp        the first address they are translated to.
     * @param externalAddresses the number of consecutive external addresses from externalIp, 1 to 256.
     * @param portBase         the first external port of the pool, on every address.
     * @param poolSize         number of external ports per address; portBase + poolSize - 1 &lt;= 65535.
     * @param probes           candidate slots per allocation (the whole pool if larger).
     * @param idleTimeoutNs    a mapping idle longer than this expires.
     * @param expiryIntervalNs period of the expiry sweep.
     * @param dropIpv6         whether IPv6 packets are dropped (reason ipv6) rather than passed.
     */
    public Nat(
        final Cidr internalNet,
        final int externalIp,
        final int externalAddresses,
        final int portBase,
        final int poolSize,
        final int probes,
        final long idleTimeoutNs,
        final long expiryIntervalNs,
        final boolean dropIpv6)
    {
        if (portBase < 1 || poolSize < 1 || portBase + poolSize - 1 > 65535 || probes < 1)
        {
            throw new IllegalArgumentException("bad pool: base " + portBase + ", size " + poolSize + ", probes " + probes);
        }
        if (externalAddresses < 1 || externalAddresses > MAX_EXTERNAL_ADDRESSES)
        {
            throw new IllegalArgumentException("bad pool: " + externalAddresses + " external addresses, not 1-"
                + MAX_EXTERNAL_ADDRESSES);
        }
        this.internalNet = internalNet;
        this.externalIp = externalIp;
        this.externalAddresses = externalAddresses;
        this.portBase = portBase;
        this.poolSize = poolSize;
        this.poolSlots = (long)externalAddresses * poolSize;
        this.candidateCount = (int)Math.min(probes, poolSlots);
        this.idleTimeoutMs = idleTimeoutNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
        this.dropIpv6 = dropIpv6;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        portsTable = setup.table(new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.INDEX, FREE,
            "address index << 16 | external port -> owner endpoint, -1 free"));
        mappingsTable = setup.table(new TableSpec("mappings", TableScope.PER_FLOW, KeyKind.ENDPOINT, 0L,
            "internal endpoint -> last-seen ms mod 2^40, external address index, external port").asPacked(MAPPING));
        packetsTable = setup.table(new TableSpec("packets", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
            "0 -> packets translated").commutable());
        poolExhaustedReason = setup.dropReason("pool-exhausted");
        noMappingReason = setup.dropReason("no-mapping");
        ipv6Reason = setup.dropReason("ipv6");
        outbound = setup.counter("outbound");
        inbound = setup.counter("inbound");
        passthrough = setup.counter("passthrough");
        poolExhausted = setup.counter("pool-exhausted");
        noMapping = setup.counter("no-mapping");
        expired = setup.counter("expired");
        ipv6 = setup.counter("ipv6");
        setup.expiryIntervalNs(expiryIntervalNs);
        setup.checker("port-owned-by-its-mapping", "every mapping's port is owned by that mapping's endpoint: no port serves two flows",
            this::checkPortOwnedByItsMapping);
        setup.checker("port-has-its-mapping", "every owned port belongs to a mapping that names it: no port leaks",
            this::checkPortHasItsMapping);
        setup.checker("mappings-within-pool", "there are no more mappings than the pool has ports", this::checkMappingsWithinPool);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        final int protocol = packet.ipProtocol();
        if (!packet.isIpv4WithPorts())
        {
            if (packet.icmpType() != 0 && packet.isIpv4() && IcmpErrorQuote.isError(packet))
            {
                declareErrorSlowPath(packet, txn);
                return;
            }
            txn.scratch(KIND_SLOT, packet.isIpv6() && packet.isValid() ? KIND_IPV6 : KIND_PASS);
            return;
        }
        final int src = packet.srcIpv4();
        if (internalNet.contains(src))
        {
            final long endpoint = FlowKeys.endpoint(src, packet.srcPort(), protocol);
            if (protocol == PacketFlyweight.PROTO_TCP && (packet.isFin() || packet.isRst()))
            {
                declareClose(txn, endpoint);
            }
            else if (protocol == PacketFlyweight.PROTO_UDP || (packet.isSyn() && !packet.isAck()))
            {
                declareAllocate(txn, endpoint);
            }
            else
            {
                txn.scratch(KIND_SLOT, KIND_ESTABLISHED);
                txn.readModify(mappingsTable, endpoint, refresh, 0L);
                txn.add(packetsTable, 0L, countIfLive, 0L);
            }
        }
        else if (isExternal(packet.dstIpv4()))
        {
            final int port = packet.dstPort();
            if (port < portBase || port >= portBase + poolSize)
            {
                txn.scratch(KIND_SLOT, KIND_INBOUND_OUTSIDE_POOL);
                return;
            }
            txn.scratch(KIND_SLOT, KIND_INBOUND);
            txn.read(portsTable, portsKey(packet.dstIpv4(), port));
            txn.add(packetsTable, 0L, countIfOwned, protocol);
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
        }
    }

    private void declareErrorSlowPath(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        final IcmpErrorQuote quote = quotes.get();
        final int protocol = quote.wrap(packet) ? quote.protocol() : PacketFlyweight.NO_PROTOCOL;
        if (protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP)
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
        }
        else if (isExternal(packet.dstIpv4()) && quote.srcIpv4() == packet.dstIpv4())
        {
            final int port = quote.srcPort();
            if (port < portBase || port >= portBase + poolSize)
            {
                txn.scratch(KIND_SLOT, KIND_INBOUND_OUTSIDE_POOL);
                return;
            }
            txn.scratch(KIND_SLOT, KIND_ERROR_INBOUND);
            txn.read(portsTable, portsKey(packet.dstIpv4(), port));
        }
        else if (internalNet.contains(packet.srcIpv4()) && internalNet.contains(quote.dstIpv4()))
        {
            txn.scratch(KIND_SLOT, KIND_ERROR_OUTBOUND);
            txn.read(mappingsTable, FlowKeys.endpoint(quote.dstIpv4(), quote.dstPort(), protocol));
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
        }
    }

    private void declareAllocate(final TransactionBuilder txn, final long endpoint)
    {
        txn.scratch(KIND_SLOT, KIND_ALLOCATE);
        txn.readModify(mappingsTable, endpoint, refresh, 0L);
        txn.choose(portsTable, releaseIfNotLive, free, endpoint);
        declareCandidates(txn, endpoint);
        txn.choose(portsTable, allocate, own, endpoint);
        declareCandidates(txn, endpoint);
        txn.readModify(mappingsTable, endpoint, assign, endpoint);
        txn.add(packetsTable, 0L, countAlways, 0L);
    }

    private void declareClose(final TransactionBuilder txn, final long endpoint)
    {
        txn.scratch(KIND_SLOT, KIND_CLOSE);
        txn.read(mappingsTable, endpoint);
        txn.choose(portsTable, releaseOwned, free, endpoint);
        declareCandidates(txn, endpoint);
        txn.write(mappingsTable, endpoint, 0L);
        txn.add(packetsTable, 0L, countIfLive, 0L);
    }

    private void declareCandidates(final TransactionBuilder txn, final long endpoint)
    {
        for (int i = 0; i < candidateCount; i++)
        {
            txn.candidate(candidateKey(endpoint, i));
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        final long nowMs = PacketClock.millis(result.timestampNs());
        switch ((int)result.scratch(KIND_SLOT))
        {
            case KIND_ALLOCATE:
                if (result.aborted())
                {
                    poolExhausted.increment();
                    actions.drop(poolExhaustedReason);
                }
                else
                {
                    translateOutbound(packet, result.after(3));
                }
                break;
            case KIND_ESTABLISHED:
            case KIND_CLOSE:
                final long mapping = result.before(0);
                if (isLive(mapping, nowMs))
                {
                    translateOutbound(packet, mapping);
                }
                else
                {
                    dropNoMapping(actions);
                }
                break;
            case KIND_INBOUND:
                final long owner = result.after(0);
                if (ownerMatches(owner, packet.ipProtocol()))
                {
                    inbound.increment();
                    packet.setDstIpv4((int)(owner >>> 24));
                    packet.setDstPort((int)((owner >>> 8) & 0xFFFF));
                }
                else
                {
                    dropNoMapping(actions);
                }
                break;
            case KIND_INBOUND_OUTSIDE_POOL:
                dropNoMapping(actions);
                break;
            case KIND_ERROR_INBOUND:
            {
                final IcmpErrorQuote quote = quotes.get();
                final long quotedOwner = result.before(0);
                if (quote.wrap(packet) && ownerMatches(quotedOwner, quote.protocol()))
                {
                    inbound.increment();
                    final int internal = (int)(quotedOwner >>> 24);
                    quote.setSrcIpv4(packet, internal, (int)((quotedOwner >>> 8) & 0xFFFF));
                    packet.setDstIpv4(internal);
                }
                else
                {
                    dropNoMapping(actions);
                }
                break;
            }
            case KIND_ERROR_OUTBOUND:
            {
                final IcmpErrorQuote quote = quotes.get();
                final long quotedMapping = result.before(0);
                if (isLive(quotedMapping, nowMs) && quote.wrap(packet))
                {
                    outbound.increment();
                    final int address = externalAddress(quotedMapping);
                    quote.setDstIpv4(packet, address, (int)PORT.get(quotedMapping));
                    packet.setSrcIpv4(address);
                }
                else
                {
                    passthrough.increment();
                }
                break;
            }
            case KIND_IPV6:
                ipv6.increment();
                if (dropIpv6)
                {
                    actions.drop(ipv6Reason);
                }
                break;
            default:
                passthrough.increment();
                break;
        }
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        state.forEach(mappingsTable, (endpoint, mapping) ->
        {
            if (!isLive(mapping, nowMs))
            {
                state.put(mappingsTable, endpoint, 0L);
                final long key = portsKeyOf(mapping);
                if (state.get(portsTable, key) == endpoint)
                {
                    state.put(portsTable, key, FREE);
                }
                expired.increment();
            }
        });
    }

    /**
     * The NAT's invariants: every mapping's external port is owned by that mapping's endpoint
     * (no port serves two flows), every owned port belongs to a mapping that names it (no port
     * leaks), and there are no more mappings than the pool has ports.
     */
    private void checkPortOwnedByItsMapping(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(mappingsTable, (endpoint, mapping) ->
        {
            final long key = portsKeyOf(mapping);
            final long owner = state.get(portsTable, key);
            if (owner != endpoint)
            {
                violations.violated(key, "endpoint " + Long.toHexString(endpoint) + " maps to port key "
                    + Long.toHexString(key) + ", which is " + (owner == FREE ? "free" : "owned by endpoint " + Long.toHexString(owner)));
            }
        });
    }

    private void checkPortHasItsMapping(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(portsTable, (key, owner) ->
        {
            final long mapping = state.get(mappingsTable, owner);
            if (mapping == 0L || portsKeyOf(mapping) != key)
            {
                violations.violated(key, "port key " + Long.toHexString(key) + " is owned by endpoint "
                    + Long.toHexString(owner) + ", whose mapping " + (mapping == 0L ? "does not exist" : "names port key "
                    + Long.toHexString(portsKeyOf(mapping))));
            }
        });
    }

    private void checkMappingsWithinPool(final StateReader state, final StateChecker.Violations violations)
    {
        final int mappings = state.size(mappingsTable);
        if (mappings > poolSlots)
        {
            violations.violated(0L, mappings + " mappings for a pool of " + poolSlots + " ports");
        }
    }

    /**
     * @param endpoint an internal endpoint key.
     * @param i        probe number, 0 to min(probes, A × pool_size) - 1.
     * @return the ports key (address index &lt;&lt; 16 | port) of E's i-th candidate slot.
     */
    long candidateKey(final long endpoint, final int i)
    {
        final long first = Math.floorMod(FlowKeys.mix64(endpoint), poolSlots);
        final long slot = (first + i) % poolSlots;
        return ((slot / poolSize) << PORT_BITS) | (portBase + slot % poolSize);
    }

    private boolean isExternal(final int address)
    {
        return Integer.toUnsignedLong(address - externalIp) < externalAddresses;
    }

    private long portsKey(final int externalAddress, final int port)
    {
        return ((long)(externalAddress - externalIp) << PORT_BITS) | port;
    }

    private int externalAddress(final long mapping)
    {
        return externalIp + (int)ADDRESS.get(mapping);
    }

    /** @return the ports key of {@code mapping}'s external address and port. */
    private static long portsKeyOf(final long mapping)
    {
        return (ADDRESS.get(mapping) << PORT_BITS) | PORT.get(mapping);
    }

    private void translateOutbound(final PacketFlyweight packet, final long mapping)
    {
        outbound.increment();
        packet.setSrcIpv4(externalAddress(mapping));
        packet.setSrcPort((int)PORT.get(mapping));
    }

    private void dropNoMapping(final PacketActions actions)
    {
        noMapping.increment();
        actions.drop(noMappingReason);
    }

    private boolean isLive(final long mapping, final long nowMs)
    {
        // the 40-bit difference, sign-extended: a capture's out-of-order packet sees the mapping live, as before
        final long idleMs = SEEN.signed(nowMs - SEEN.get(mapping));
        return mapping != 0 && idleMs <= idleTimeoutMs;
    }

    private static boolean ownerMatches(final long owner, final int protocol)
    {
        return owner != FREE && (owner & 0xFF) == protocol;
    }

    /** @return the mapping to the ports key {@code key}, last seen at {@code nowMs}. */
    private static long mapping(final long key, final long nowMs)
    {
        return SEEN.setWrapped(PORT.set(ADDRESS.set(0L, key >>> PORT_BITS), key & PORT_MASK), nowMs);
    }

    private long refresh(final long current, final FunctionContext ctx)
    {
        final long nowMs = PacketClock.millis(ctx.timestampNs());
        return isLive(current, nowMs) ? SEEN.setWrapped(current, nowMs) : current;
    }

    private int releaseIfNotLive(final FunctionContext ctx)
    {
        if (isLive(ctx.before(0), PacketClock.millis(ctx.timestampNs())))
        {
            return ChooseFunction.NONE;
        }
        return ownedBy(ctx, ctx.operand());
    }

    private static int ownedBy(final FunctionContext ctx, final long endpoint)
    {
        final int n = ctx.candidateCount();
        for (int i = 0; i < n; i++)
        {
            if (ctx.candidateValue(i) == endpoint)
            {
                return i;
            }
        }
        return ChooseFunction.NONE;
    }

    private int allocate(final FunctionContext ctx)
    {
        if (isLive(ctx.before(0), PacketClock.millis(ctx.timestampNs())))
        {
            return ChooseFunction.NONE;
        }
        final long endpoint = ctx.operand();
        final int n = ctx.candidateCount();
        for (int i = 0; i < n; i++)
        {
            final long owner = ctx.candidateValue(i);
            if (owner == FREE || owner == endpoint)
            {
                return i;
            }
        }
        ctx.abort(POOL_EXHAUSTED);
        return ChooseFunction.NONE;
    }

    private long assign(final long current, final FunctionContext ctx)
    {
        final int picked = ctx.chosenBy(2);
        if (picked == ChooseFunction.NONE)
        {
            return current;
        }
        return mapping(candidateKey(ctx.operand(), picked), PacketClock.millis(ctx.timestampNs()));
    }
}
