package io.transnfv.vnf.builtin.lb;

import io.transnfv.tpg.txn.ChooseFunction;
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
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.Ipv6Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Layer-4 load balancer: each new connection goes to the least-loaded of its candidate
 * servers (power of d choices; ties to the lowest server index), and every later packet of
 * the connection to the same server. IPv4 and IPv6 flows share the servers and their load.
 * Backend i has address {@code server_net + i + 1} for IPv4 and {@code server_net_v6 + i + 1}
 * for IPv6; the destination address is rewritten to the one of the packet's family and the
 * packet tagged {@code server = i}. A {@code vip} of one family balances only that family's
 * packets to it; {@code any} balances every TCP/UDP packet of both.
 *
 * <p>IPv6 flows are keyed by the same 64-bit 5-tuple hash as IPv4 ones. A collision makes
 * two flows share one entry: a packet of one may follow the other's server, and a FIN of one
 * ends the other's entry. Someone who solves for a colliding tuple must know the victim's
 * exact 5-tuple, and with it could send that FIN with the victim's own tuple: a collision
 * gives no power that spoofing does not, so the load balancer does not store the tuple.
 *
 * <p>Tables (F = FlowKeys.fiveTuple):
 * <pre>
 *  connections       PER_FLOW   FLOW  F → packed, 0 = none:
 *                      63                                    16 15                 0
 *                      | last-seen packet time, ms (48 bits)   | server index + 1   |
 *  connection-bytes  PER_FLOW   FLOW  F → frame bytes of the connection so far
 *  active            CROSS_FLOW INDEX server → open connections
 *  bytes             CROSS_FLOW INDEX server → bytes of finished connections
 * </pre>
 *
 * <p>Transactions (C = F's candidates in {@code active} / {@code bytes}; R = F's candidates
 * under the largest {@code candidates} the run has used, which is C until a live change raises
 * it, and holds every server F was ever given):
 * <pre>
 *  TCP SYN (no ACK), UDP   0 RMW connections[F]       refresh if live
 *                          1 RMW connection-bytes[F]  0 if op 0 found an idle entry
 *                          2 CHOOSE active over R     idle entry's server: -1
 *                          3 CHOOSE bytes over R      idle entry's server: += op 1's before
 *                          4 CHOOSE active over C     if not live: least loaded, +1
 *                          5 RMW connections[F]       if op 4 picked: (server, now)
 *                          6 RMW connection-bytes[F]  += frame length
 *  TCP FIN / RST           0 WRITE connections[F] 0;  1 WRITE connection-bytes[F] 0
 *                          2 CHOOSE active over R     op 0's server: -1
 *                          3 CHOOSE bytes over R      op 0's server: += op 1's before (+ length if live)
 *  other TCP               0 RMW connections[F] refresh if live; 1 RMW connection-bytes[F] += length if live
 *  ICMP error to a VIP     0 READ connections[Q]      (Q = F of the connection the quote replies to)
 * </pre>
 * With {@code consistency: {stale-reads: n}} on {@code active} (it is
 * {@link TableSpec#staleReadable() stale-readable}), the choices over {@code active} are
 * STALE_CHOOSEs: a new connection goes to the least loaded of its candidates as the batch started,
 * and the ±1 reaches the load when the batch commits, so {@code active} orders no transaction;
 * a batch's new connections may pile onto one server that looked least loaded at its start.
 * Ops 1 to 3 make a packet that finds an idle connection before the sweep behave exactly as
 * after it. TCP packets of a connection that has no live entry (a trace starting mid-way)
 * go to a stateless choice among the candidates ({@code untracked}) and change no state.
 *
 * <p><b>ICMP and ICMPv6 errors</b> ({@link IcmpErrorQuote}) sent to a balanced address about a
 * TCP/UDP packet sent <em>from</em> it (a server's reply to a client, e.g. a router's
 * fragmentation-needed or packet-too-big for a reply on the client's path) belong to the
 * connection that packet answers, whose key is the quote's 5-tuple reversed. While that
 * connection is live the error goes to the connection's server with its destination rewritten
 * as the connection's packets are (counter {@code errors-matched}), so path-MTU discovery
 * reaches the host that sent the reply; otherwise it is dropped as {@code no-connection}
 * rather than delivered to a server chosen for nobody. An error only reads: it opens,
 * refreshes and counts nothing, and leaves the servers' load alone. Other errors pass as
 * before.
 */
public final class LoadBalancer implements Vnf
{
    private static final int KIND_PASS = 0;
    private static final int KIND_NEW = 1;
    private static final int KIND_ESTABLISHED = 2;
    private static final int KIND_CLOSE = 3;
    private static final int KIND_ERROR = 4;
    private static final int KIND_SLOT = 0;

    /** Most backends a load balancer can have: the server index takes 20 bits of a connection. */
    public static final int MAX_SERVERS = (1 << 20) - 1;
    private static final int SERVER_BITS = 20;
    private static final long SERVER_MASK = 0xF_FFFFL;
    private static final long UNTRACKED_SALT = 0x2545F4914F6CDD1DL;

    private final int servers;
    private final int firstServerAddress;
    private final long serverNetwork6High;
    private final long serverNetwork6Low;
    private final boolean anyVip;
    private final boolean ipv6Vip;
    private final int vip;
    private final long vip6High;
    private final long vip6Low;
    private final long idleTimeoutMs;
    private final long expiryIntervalNs;
    private final double candidateSkew;
    /** Live ({@code candidates}): replaced by {@link #prepareChange}'s change between two batches, never mid-batch. */
    private CandidateSampler sampler;
    /**
     * The sampler with the most candidates used so far in the run: a connection is released (closed,
     * or found idle) among its candidates, and these hold the server it was given whatever
     * {@code candidates} was then (a flow's first d candidates do not depend on d; d = servers
     * holds every server). The same object as {@link #sampler} until a change raises the count.
     */
    private CandidateSampler releaseSampler;
    /** Pre- and post-processing run on several worker threads; each reads quotes with its own view. */
    private final ThreadLocal<IcmpErrorQuote> quotes = ThreadLocal.withInitial(IcmpErrorQuote::new);

    private final StateFunction refresh = this::refresh;
    private final StateFunction resetIfIdle =
        (current, ctx) -> isIdle(ctx.before(0), nowMs(ctx)) ? 0L : current;
    private final ChooseFunction idleServer =
        (ctx) -> isIdle(ctx.before(0), nowMs(ctx)) ? candidateOf(ctx, serverOf(ctx.before(0))) : ChooseFunction.NONE;
    private final StateFunction decrement = (current, ctx) -> current - 1;
    private final StateFunction addIdleBytes = (current, ctx) -> current + ctx.before(1);
    private final ChooseFunction leastLoaded = this::leastLoaded;
    private final StateFunction increment = (current, ctx) -> current + 1;
    private final StateFunction assign = this::assign;
    private final StateFunction addLength = (current, ctx) -> current + ctx.operand();
    private final StateFunction addLengthIfLive =
        (current, ctx) -> isLive(ctx.before(0), nowMs(ctx)) ? current + ctx.operand() : current;
    private final ChooseFunction closedServer =
        (ctx) -> ctx.before(0) != 0 ? candidateOf(ctx, serverOf(ctx.before(0))) : ChooseFunction.NONE;
    private final StateFunction addClosedBytes =
        (current, ctx) -> current + ctx.before(1) + (isLive(ctx.before(0), nowMs(ctx)) ? ctx.operand() : 0L);

    private int connectionsTable;
    private int connectionBytesTable;
    private int activeTable;
    private int bytesTable;
    /** Whether the chain gave {@code active} stale reads: its choices see the loads as the batch started. */
    private boolean staleLoads;
    private int serverTag;
    private int noConnectionReason;
    private VnfCounter newConnections;
    private VnfCounter closedConnections;
    private VnfCounter untracked;
    private VnfCounter passthrough;
    private VnfCounter expired;
    private VnfCounter errorsMatched;
    private VnfCounter noConnection;

    /**
     * @param servers          number of backends, 1 to {@value #MAX_SERVERS}.
     * @param serverNetwork    network address of the backends' prefix; backend i is +i+1.
     * @param serverNetwork6   the backends' IPv6 prefix; backend i is its network address +i+1.
     * @param candidates       d, candidates per connection; 0 = all when servers &lt;= 16, else 5.
     * @param candidateSkew    Zipf exponent of the candidates over server indices, 0 for uniform.
     * @param anyVip           whether every TCP/UDP packet is balanced.
     * @param vip              otherwise, the only destination address balanced, when IPv4; else null.
     * @param vip6             or, when IPv6, that address; else null.
     * @param idleTimeoutNs    a connection idle longer than this expires.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public LoadBalancer(
        final int servers,
        final int serverNetwork,
        final Ipv6Cidr serverNetwork6,
        final int candidates,
        final double candidateSkew,
        final boolean anyVip,
        final Integer vip,
        final long[] vip6,
        final long idleTimeoutNs,
        final long expiryIntervalNs)
    {
        if (servers < 1 || servers > MAX_SERVERS || candidates < 0)
        {
            throw new IllegalArgumentException("servers " + servers + ", candidates " + candidates);
        }
        this.servers = servers;
        this.firstServerAddress = serverNetwork + 1;
        this.serverNetwork6High = serverNetwork6.networkHigh();
        this.serverNetwork6Low = serverNetwork6.networkLow();
        this.anyVip = anyVip;
        this.ipv6Vip = !anyVip && vip6 != null;
        this.vip = vip == null ? 0 : vip;
        this.vip6High = vip6 == null ? 0L : vip6[0];
        this.vip6Low = vip6 == null ? 0L : vip6[1];
        this.idleTimeoutMs = idleTimeoutNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
        this.candidateSkew = candidateSkew;
        this.sampler = sampler(servers, candidates, candidateSkew);
        this.releaseSampler = sampler;
    }

    private static CandidateSampler sampler(final int servers, final int candidates, final double candidateSkew)
    {
        final int d = candidates == 0 ? (servers <= 16 ? servers : 5) : candidates;
        return new CandidateSampler(servers, d, candidateSkew);
    }

    /**
     * Takes a new {@code candidates} count: connections opened from the change's packet on choose
     * among that many servers; open connections keep the server they have.
     */
    @Override
    public LiveChange prepareChange(final VnfConfig next)
    {
        final CandidateSampler changed = sampler(servers, next.getInt("candidates"), candidateSkew);
        return () ->
        {
            sampler = changed;
            if (changed.count() > releaseSampler.count())
            {
                releaseSampler = changed;
            }
        };
    }

    /** @return the sampler giving each flow's candidate servers. */
    public CandidateSampler sampler()
    {
        return sampler;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        connectionsTable = setup.table(new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> last-seen ms << 20 | server index + 1")
            .expiringBy(connection -> connection >>> SERVER_BITS, expiryIntervalNs));
        connectionBytesTable = setup.table(new TableSpec("connection-bytes", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "5-tuple -> bytes so far"));
        // choices by load and ±1 updates: a choice may see the loads as the batch started
        activeTable = setup.table(new TableSpec("active", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
            "server -> open connections").staleReadable());
        staleLoads = setup.staleReads(activeTable);
        bytesTable = setup.table(new TableSpec("bytes", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
            "server -> bytes of finished connections"));
        serverTag = setup.tag("server");
        noConnectionReason = setup.dropReason("no-connection");
        newConnections = setup.counter("new-connections");
        closedConnections = setup.counter("closed-connections");
        untracked = setup.counter("untracked");
        passthrough = setup.counter("passthrough");
        expired = setup.counter("expired");
        errorsMatched = setup.counter("errors-matched");
        noConnection = setup.counter("no-connection");
        setup.expiryIntervalNs(expiryIntervalNs);
        setup.checker("connection-names-a-server", "every connection names a server of the pool", this::checkConnectionNamesAServer);
        setup.checker("load-counts-its-connections", "each server's count of open connections is the number of connections"
            + " that name it (so the loads sum to the connections tracked)", this::checkLoadCountsItsConnections);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        final int protocol = packet.ipProtocol();
        if (!packet.isIpv4WithPorts() ? !balancesIpv6SlowPath(packet) : !anyVip && (ipv6Vip || packet.dstIpv4() != vip))
        {
            if (packet.icmpType() != 0 && IcmpErrorQuote.isError(packet))
            {
                declareErrorSlowPath(packet, txn);
                return;
            }
            txn.scratch(KIND_SLOT, KIND_PASS);
            return;
        }
        final long flow = FlowKeys.fiveTuple(packet);
        final long length = packet.frameLength();
        final CandidateSampler current = sampler;
        final CandidateSampler release = releaseSampler;
        final int d = current.count();
        final int releaseD = release.count();
        if (protocol == PacketFlyweight.PROTO_TCP && (packet.isFin() || packet.isRst()))
        {
            // candidates only where a choice may be made: closing and opening packets
            final int[] held = release.candidates(flow);
            txn.scratch(KIND_SLOT, KIND_CLOSE);
            txn.write(connectionsTable, flow, 0L);
            txn.write(connectionBytesTable, flow, 0L);
            chooseActive(txn, closedServer, decrement);
            declareCandidates(txn, held, releaseD);
            txn.choose(bytesTable, closedServer, addClosedBytes, length);
            declareCandidates(txn, held, releaseD);
        }
        else if (protocol == PacketFlyweight.PROTO_UDP || (packet.isSyn() && !packet.isAck()))
        {
            final int[] candidates = current.candidates(flow);
            final int[] held = release == current ? candidates : release.candidates(flow);
            txn.scratch(KIND_SLOT, KIND_NEW);
            txn.readModify(connectionsTable, flow, refresh, 0L);
            txn.readModify(connectionBytesTable, flow, resetIfIdle, 0L);
            chooseActive(txn, idleServer, decrement);
            declareCandidates(txn, held, releaseD);
            txn.choose(bytesTable, idleServer, addIdleBytes, 0L);
            declareCandidates(txn, held, releaseD);
            chooseActive(txn, leastLoaded, increment);
            declareCandidates(txn, candidates, d);
            txn.readModify(connectionsTable, flow, assign, flow);
            txn.readModify(connectionBytesTable, flow, addLength, length);
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_ESTABLISHED);
            txn.readModify(connectionsTable, flow, refresh, 0L);
            txn.readModify(connectionBytesTable, flow, addLengthIfLive, length);
        }
    }

    private boolean balancesIpv6SlowPath(final PacketFlyweight packet)
    {
        return packet.isIpv6WithPorts()
            && (anyVip || ipv6Vip && packet.dstIpv6High() == vip6High && packet.dstIpv6Low() == vip6Low);
    }

    /** ICMP errors: rare, so kept off the path of ordinary packets. */
    private void declareErrorSlowPath(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        final IcmpErrorQuote quote = quotes.get();
        final int protocol = quote.wrap(packet) ? quote.protocol() : PacketFlyweight.NO_PROTOCOL;
        if (protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP)
        {
            txn.scratch(KIND_SLOT, KIND_PASS);
            return;
        }
        final long connection;
        if (packet.isIpv4())
        {
            final int address = packet.dstIpv4();
            if (quote.srcIpv4() != address || !anyVip && (ipv6Vip || address != vip))
            {
                txn.scratch(KIND_SLOT, KIND_PASS);
                return;
            }
            connection = FlowKeys.fiveTupleIpv4(quote.dstIpv4(), quote.dstPort(), address, quote.srcPort(), protocol);
        }
        else
        {
            final long high = packet.dstIpv6High();
            final long low = packet.dstIpv6Low();
            if (quote.srcIpv6High() != high || quote.srcIpv6Low() != low
                || !anyVip && (!ipv6Vip || high != vip6High || low != vip6Low))
            {
                txn.scratch(KIND_SLOT, KIND_PASS);
                return;
            }
            connection = FlowKeys.fiveTupleIpv6(
                quote.dstIpv6High(), quote.dstIpv6Low(), quote.dstPort(), high, low, quote.srcPort(), protocol);
        }
        txn.scratch(KIND_SLOT, KIND_ERROR);
        txn.read(connectionsTable, connection);
    }

    /**
     * A choice over the candidates' loads: a STALE_CHOOSE, which picks by the loads as the batch
     * started and adds its ±1 when the batch commits, where the chain gives {@code active} stale
     * reads (the update functions, given 0, are the deltas); else a CHOOSE.
     */
    private void chooseActive(final TransactionBuilder txn, final ChooseFunction chooser, final StateFunction update)
    {
        if (staleLoads)
        {
            txn.staleChoose(activeTable, chooser, update, 0L);
        }
        else
        {
            txn.choose(activeTable, chooser, update, 0L);
        }
    }

    private static void declareCandidates(final TransactionBuilder txn, final int[] candidates, final int d)
    {
        for (int i = 0; i < d; i++)
        {
            txn.candidate(candidates[i]);
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        final int kind = (int)result.scratch(KIND_SLOT);
        if (kind == KIND_PASS)
        {
            passthrough.increment();
            return;
        }
        final long nowMs = PacketClock.millis(result.timestampNs());
        final long connection = result.before(0);
        final boolean live = isLive(connection, nowMs);
        final int server;
        if (kind == KIND_ERROR)
        {
            if (!live)
            {
                noConnection.increment();
                actions.drop(noConnectionReason);
                return;
            }
            errorsMatched.increment();
            server = serverOf(connection);
        }
        else if (live)
        {
            server = serverOf(connection);
            if (kind == KIND_CLOSE)
            {
                closedConnections.increment();
            }
        }
        else if (kind == KIND_NEW)
        {
            newConnections.increment();
            server = serverOf(result.after(5));
        }
        else
        {
            untracked.increment();
            final long flow = FlowKeys.fiveTuple(packet);
            server = sampler.candidate(flow, (int)Math.floorMod(FlowKeys.mix64(flow ^ UNTRACKED_SALT), (long)sampler.count()));
        }
        if (packet.isIpv6())
        {
            packet.setDstIpv6(serverNetwork6High, serverNetwork6Low + server + 1);
        }
        else
        {
            packet.setDstIpv4(firstServerAddress + server);
        }
        actions.tag(serverTag, server);
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        // last seen at most nowMs - idleTimeoutMs - 1 is idle (PacketClock.idle)
        state.forEachDue(connectionsTable, nowMs - idleTimeoutMs - 1, (flow, connection) ->
        {
            if (!isLive(connection, nowMs))
            {
                close(flow, connection, state);
                expired.increment();
            }
        });
    }

    /** Evicts connections last seen at or before {@code cutoff} ms, as if they had gone idle. */
    @Override
    public boolean evict(final int table, final long cutoff, final StateMaintenance state)
    {
        if (table != connectionsTable)
        {
            return false;
        }
        state.forEachDue(connectionsTable, cutoff, (flow, connection) ->
        {
            if (connection >>> SERVER_BITS <= cutoff)
            {
                close(flow, connection, state);
            }
        });
        return true;
    }

    @Override
    public boolean evicts(final int table)
    {
        return table == connectionsTable;
    }

    /** Ends a connection: its entries go, its server counts one connection less and keeps its bytes. */
    private void close(final long flow, final long connection, final StateMaintenance state)
    {
        final int server = serverOf(connection);
        final long connectionBytes = state.get(connectionBytesTable, flow);
        state.put(connectionsTable, flow, 0L);
        state.put(connectionBytesTable, flow, 0L);
        state.put(activeTable, server, state.get(activeTable, server) - 1);
        state.put(bytesTable, server, state.get(bytesTable, server) + connectionBytes);
    }

    private void checkConnectionNamesAServer(final StateReader state, final StateChecker.Violations violations)
    {
        state.forEach(connectionsTable, (flow, connection) ->
        {
            final int server = serverOf(connection);
            if (server < 0 || server >= servers)
            {
                violations.violated(flow, "flow " + Long.toHexString(flow) + " names server " + server + " of " + servers);
            }
        });
    }

    private void checkLoadCountsItsConnections(final StateReader state, final StateChecker.Violations violations)
    {
        final long[] open = new long[servers];
        state.forEach(connectionsTable, (flow, connection) ->
        {
            final int server = serverOf(connection);
            if (server >= 0 && server < servers)
            {
                open[server]++;
            }
        });
        for (int server = 0; server < servers; server++)
        {
            final long counted = state.get(activeTable, server);
            if (counted != open[server])
            {
                violations.violated(server, "server " + server + " counts " + counted + " open connections; " + open[server] + " name it");
            }
        }
    }

    /** @return the number of backends. */
    public int servers()
    {
        return servers;
    }

    private static long nowMs(final FunctionContext ctx)
    {
        return PacketClock.millis(ctx.timestampNs());
    }

    private static int serverOf(final long connection)
    {
        return (int)(connection & SERVER_MASK) - 1;
    }

    private boolean isLive(final long connection, final long nowMs)
    {
        return connection != 0 && !PacketClock.idle(connection >>> SERVER_BITS, nowMs, idleTimeoutMs);
    }

    private boolean isIdle(final long connection, final long nowMs)
    {
        return connection != 0 && PacketClock.idle(connection >>> SERVER_BITS, nowMs, idleTimeoutMs);
    }

    private static int candidateOf(final FunctionContext ctx, final int server)
    {
        final int n = ctx.candidateCount();
        for (int i = 0; i < n; i++)
        {
            if (ctx.candidateKey(i) == server)
            {
                return i;
            }
        }
        return ChooseFunction.NONE;
    }

    private long refresh(final long current, final FunctionContext ctx)
    {
        final long nowMs = nowMs(ctx);
        return isLive(current, nowMs) ? (nowMs << SERVER_BITS) | (current & SERVER_MASK) : current;
    }

    private int leastLoaded(final FunctionContext ctx)
    {
        if (isLive(ctx.before(0), nowMs(ctx)))
        {
            return ChooseFunction.NONE;
        }
        final int n = ctx.candidateCount();
        int best = 0;
        long bestLoad = ctx.candidateValue(0);
        long bestServer = ctx.candidateKey(0);
        for (int i = 1; i < n; i++)
        {
            final long load = ctx.candidateValue(i);
            final long server = ctx.candidateKey(i);
            if (load < bestLoad || (load == bestLoad && server < bestServer))
            {
                best = i;
                bestLoad = load;
                bestServer = server;
            }
        }
        return best;
    }

    private long assign(final long current, final FunctionContext ctx)
    {
        final int picked = ctx.chosenBy(4);
        if (picked == ChooseFunction.NONE)
        {
            return current;
        }
        final int server = sampler.candidate(ctx.operand(), picked);
        return (nowMs(ctx) << SERVER_BITS) | (server + 1L);
    }
}
