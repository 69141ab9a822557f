package io.transnfv.vnf.builtin.portscan;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.LiveChange;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfCounter;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.builtin.PacketClock;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Detects SYN port scans over IPv4 and IPv6 TCP: a source that leaves {@code threshold}
 * distinct (destination host, destination port) targets half-open within {@code window} is
 * reported once with alert {@code port-scan} and subject = the source host key. A SYN (no ACK)
 * records a probe; the handshake's pure ACK (ACK only, no payload) from the same source
 * removes it again, so completed connections do not count. Packets are never dropped.
 *
 * <p>Tables:
 * <pre>
 *  probes   PER_FLOW   OPAQUE hash(src, dst, dst port) → stamp of the SYN (ms + 1), 0 = none
 *  sources  CROSS_FLOW HOST   source → packed, 0 = none:
 *             63                                      20 19                 0
 *             | window start, packet time ms (44 bits)  | half-open count    |
 * </pre>
 * <pre>
 *  SYN        0 RMW probes[P]   live ? unchanged : stamp(now)
 *             1 RMW sources[S]  if op 0 was not live: count + 1 (window restarted if over)
 *  pure ACK   0 RMW probes[P]   0
 *             1 RMW sources[S]  if op 0 was live and counted in this window: count - 1
 * </pre>
 * Post-processing alerts when the count before the SYN was below the threshold and after it
 * is not. A chain may bind the role {@value #BLOCKLIST_ROLE} to a shared table (a firewall's block
 * list): a SYN then also runs {@code 2 RMW blocklist[S]  flagged ? unchanged : (count >= threshold ?
 * stamp(now) : 0)}, so the source it reports stays flagged for the rest of the run. Probes and windows older than {@code window} count as absent.
 *
 * <p><b>IPv6 sources are /64 networks.</b> An IPv6 host may take any address of its /64
 * (privacy addresses, RFC 8981), so a scanner that changed address per probe would never
 * be counted twice if addresses were counted. An IPv6 source is therefore its /64: table
 * {@code sources-v6} (CROSS_FLOW) is keyed by the upper 64 bits of the source address,
 * exactly, so two networks never share a count; the same transactions run on it in place of
 * {@code sources}, and the alert's subject is {@code FlowKeys.ipv6Host(upper 64 bits, 0)}.
 * An IPv6 probe key hashes the source's /64 with the full destination and port: the bits a
 * scanner controls freely (the low half of its own address) do not enter it, so it cannot
 * make its probes collide and vanish. It can only steer a collision through the destination
 * address, and a probe to an address chosen to collide is not a probe of its choosing.
 */
public final class PortScanDetector implements Vnf
{
    private static final int COUNT_BITS = 20;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long PROBE_SALT = 0x3C6EF372FE94F82BL;
    private static final long PROBE_SALT_V6 = 0xA54FF53A5F1D36F1L;
    private static final int KIND_NONE = 0;
    private static final int KIND_SYN = 1;
    private static final int KIND_ACK = 2;
    private static final int KIND_SLOT = 0;

    /** Live: replaced by {@link #prepareChange}'s change between two batches, never mid-batch. */
    private int threshold;
    private final long windowMs;
    private final long expiryIntervalNs;
    private final StateFunction recordProbe = this::recordProbe;
    private final StateFunction countProbe = this::countProbe;
    private final StateFunction removeProbe = (current, ctx) -> 0L;
    private final StateFunction uncountProbe = this::uncountProbe;
    private final StateFunction blockIfScanning = this::blockIfScanning;
    /** The shared table role a chain may bind to a block list: the detector writes each source it reports into it. */
    public static final String BLOCKLIST_ROLE = "blocklist";
    /** The chain's block list, or -1 if the chain binds none to {@value #BLOCKLIST_ROLE}. */
    private int blocklistTable = -1;

    private int probesTable;
    private int sourcesTable;
    private int sources6Table;
    private int portScanAlert;
    private VnfCounter alerts;
    private VnfCounter probes;
    private VnfCounter expired;

    /**
     * @param threshold        half-open targets that make a scan, at least 1.
     * @param windowNs         the time window the targets are counted in.
     * @param expiryIntervalNs period of the expiry sweep.
     */
    public PortScanDetector(final int threshold, final long windowNs, final long expiryIntervalNs)
    {
        if (threshold < 1 || threshold > COUNT_MASK)
        {
            throw new IllegalArgumentException("threshold " + threshold);
        }
        this.threshold = threshold;
        this.windowMs = windowNs / PacketClock.NS_PER_MS;
        this.expiryIntervalNs = expiryIntervalNs;
    }

    /** Takes a new {@code threshold}: scans are judged against it from the change's packet on. */
    @Override
    public LiveChange prepareChange(final VnfConfig next)
    {
        final int changed = next.getInt("threshold");
        if (changed < 1 || changed > COUNT_MASK)
        {
            throw new VnfConfigException("threshold", "threshold " + changed + " is out of range: write a value in [1, "
                + COUNT_MASK + "]");
        }
        return () -> threshold = changed;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        probesTable = setup.table(new TableSpec("probes", TableScope.PER_FLOW, KeyKind.OPAQUE, 0L,
            "hash(src, dst, dport) -> SYN ms + 1").expiringBy(stamp -> stamp, expiryIntervalNs));
        sourcesTable = setup.table(new TableSpec("sources", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> window start ms << 20 | half-open count")
            .expiringBy(source -> source >>> COUNT_BITS, expiryIntervalNs));
        sources6Table = setup.table(new TableSpec("sources-v6", TableScope.CROSS_FLOW, KeyKind.OPAQUE, 0L,
            "IPv6 source /64 (upper 64 bits) -> window start ms << 20 | half-open count")
            .expiringBy(source -> source >>> COUNT_BITS, expiryIntervalNs));
        blocklistTable = setup.sharedTable(new TableSpec(BLOCKLIST_ROLE, TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
            "source host -> flagged at ms + 1 (0 = not blocked)"));
        portScanAlert = setup.alertType("port-scan");
        alerts = setup.counter("alerts");
        probes = setup.counter("probes");
        expired = setup.counter("expired");
        setup.expiryIntervalNs(expiryIntervalNs);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (!packet.isValid() || !packet.isIp() || packet.ipProtocol() != PacketFlyweight.PROTO_TCP || !packet.hasPorts())
        {
            txn.scratch(KIND_SLOT, KIND_NONE);
            return;
        }
        final boolean syn = packet.isSyn() && !packet.isAck();
        final boolean pureAck = packet.tcpFlags() == PacketFlyweight.TCP_ACK && packet.payloadLength() == 0;
        if (!syn && !pureAck)
        {
            txn.scratch(KIND_SLOT, KIND_NONE);
            return;
        }
        txn.scratch(KIND_SLOT, syn ? KIND_SYN : KIND_ACK);
        if (packet.isIpv6())
        {
            final long network = packet.srcIpv6High();
            final long probe = FlowKeys.mix64(FlowKeys.mix64(FlowKeys.mix64(FlowKeys.mix64(PROBE_SALT_V6 ^ network)
                ^ packet.dstIpv6High()) ^ packet.dstIpv6Low()) ^ packet.dstPort());
            txn.readModify(probesTable, probe, syn ? recordProbe : removeProbe, 0L);
            txn.readModify(sources6Table, network, syn ? countProbe : uncountProbe, 0L);
            if (syn && blocklistTable >= 0)
            {
                txn.readModify(blocklistTable, FlowKeys.ipv6Host(network, 0L), blockIfScanning, 0L);
            }
            return;
        }
        final long probe = FlowKeys.mix64(FlowKeys.mix64(PROBE_SALT ^ (((long)packet.srcIpv4() << 32) | (packet.dstIpv4() & 0xFFFF_FFFFL)))
            ^ packet.dstPort());
        final long source = FlowKeys.srcHost(packet);
        txn.readModify(probesTable, probe, syn ? recordProbe : removeProbe, 0L);
        txn.readModify(sourcesTable, source, syn ? countProbe : uncountProbe, 0L);
        if (syn && blocklistTable >= 0)
        {
            txn.readModify(blocklistTable, source, blockIfScanning, 0L);
        }
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        if (result.scratch(KIND_SLOT) != KIND_SYN)
        {
            return;
        }
        final long nowMs = PacketClock.millis(result.timestampNs());
        if (!PacketClock.live(result.before(0), nowMs, windowMs))
        {
            probes.increment();
        }
        final long before = liveCount(result.before(1), nowMs);
        final long after = result.after(1) & COUNT_MASK;
        if (before < threshold && after >= threshold)
        {
            alerts.increment();
            actions.alert(portScanAlert, packet.isIpv6() ? FlowKeys.ipv6Host(packet.srcIpv6High(), 0L) : FlowKeys.srcHost(packet));
        }
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        // a stamp at most nowMs - windowMs is not live; a window start at most one less is idle
        state.forEachDue(probesTable, nowMs - windowMs, (probe, stamp) ->
        {
            if (!PacketClock.live(stamp, nowMs, windowMs))
            {
                state.put(probesTable, probe, 0L);
                expired.increment();
            }
        });
        state.forEachDue(sourcesTable, nowMs - windowMs - 1, (source, value) ->
        {
            if (!windowLive(value, nowMs))
            {
                state.put(sourcesTable, source, 0L);
            }
        });
        state.forEachDue(sources6Table, nowMs - windowMs - 1, (network, value) ->
        {
            if (!windowLive(value, nowMs))
            {
                state.put(sources6Table, network, 0L);
            }
        });
    }

    /**
     * Evicts probes (SYN time at or before {@code cutoff}, ms + 1) or sources (window started at
     * or before {@code cutoff} ms), as if their window had passed.
     */
    @Override
    public boolean evict(final int table, final long cutoff, final StateMaintenance state)
    {
        if (table == probesTable)
        {
            state.forEachDue(probesTable, cutoff, (probe, stamp) ->
            {
                if (stamp <= cutoff)
                {
                    state.put(probesTable, probe, 0L);
                }
            });
            return true;
        }
        if (table == sourcesTable || table == sources6Table)
        {
            state.forEachDue(table, cutoff, (source, value) ->
            {
                if (value >>> COUNT_BITS <= cutoff)
                {
                    state.put(table, source, 0L);
                }
            });
            return true;
        }
        return false;
    }

    @Override
    public boolean evicts(final int table)
    {
        return table == probesTable || table == sourcesTable || table == sources6Table;
    }

    private static long nowMs(final FunctionContext ctx)
    {
        return PacketClock.millis(ctx.timestampNs());
    }

    private boolean windowLive(final long source, final long nowMs)
    {
        return source != 0 && !PacketClock.idle(source >>> COUNT_BITS, nowMs, windowMs);
    }

    private long liveCount(final long source, final long nowMs)
    {
        return windowLive(source, nowMs) ? source & COUNT_MASK : 0L;
    }

    private long countProbe(final long current, final FunctionContext ctx)
    {
        final long nowMs = nowMs(ctx);
        final boolean live = windowLive(current, nowMs);
        if (PacketClock.live(ctx.before(0), nowMs, windowMs))
        {
            return live ? current : 0L;
        }
        if (!live)
        {
            return (nowMs << COUNT_BITS) | 1;
        }
        return (current & COUNT_MASK) == COUNT_MASK ? current : current + 1;
    }

    private long uncountProbe(final long current, final FunctionContext ctx)
    {
        final long nowMs = nowMs(ctx);
        if (!windowLive(current, nowMs))
        {
            return 0L;
        }
        final long probe = ctx.before(0);
        final boolean counted = PacketClock.live(probe, nowMs, windowMs)
            && PacketClock.stampMillis(probe) >= current >>> COUNT_BITS;
        if (!counted)
        {
            return current;
        }
        return (current & COUNT_MASK) <= 1 ? 0L : current - 1;
    }

    /** Op 2 of a SYN: flags the source in the block list once its count (op 1's) reaches the threshold; a flag stays. */
    private long blockIfScanning(final long current, final FunctionContext ctx)
    {
        if (current != 0L)
        {
            return current;
        }
        return liveCount(ctx.after(1), nowMs(ctx)) >= threshold ? PacketClock.stamp(ctx.timestampNs()) : 0L;
    }

    private long recordProbe(final long current, final FunctionContext ctx)
    {
        return PacketClock.live(current, nowMs(ctx), windowMs) ? current : PacketClock.stamp(ctx.timestampNs());
    }
}
