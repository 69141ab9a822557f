package io.transnfv.vnf.fragment;

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
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Fragment tracking at the chain's entry: shallow (virtual) reassembly as production data
 * planes do it. The first fragment of a TCP or UDP datagram carries its ports; the tracker
 * remembers them per datagram (addresses, protocol and identification,
 * {@link FlowKeys#datagram}) for {@code timeout}, and gives them to the datagram's other
 * fragments ({@link PacketFlyweight#recoverPorts}). A fragment that comes before its first is
 * <em>held</em>: the executor keeps the packet and lets it go on right after the first
 * fragment, or drops it when its datagram times out. At most {@code maxHeld} fragments are
 * held at once; one more is an overflow, dropped at once. IPv4 and IPv6 alike.
 *
 * <p>Tables (D = FlowKeys.datagram):
 * <pre>
 *  datagrams       PER_FLOW   FLOW  D → packed, 0 = none:
 *                    63        41 40            33  32           31                0
 *                    |  unused   | held fragments | first seen | src port, dst port |
 *  datagram-times  PER_FLOW   FLOW  D → stamp (ms + 1) of the datagram's first fragment seen
 *  held            CROSS_FLOW INDEX 0 → fragments held now, all datagrams
 * </pre>
 *
 * <p>Transactions, only for fragments of TCP and UDP ({@link #tracks}):
 * <pre>
 *  first fragment       0 RMW datagrams[D]       first seen, its ports, 0 held
 *                       1 RMW held[0]            - op 0's held (they go on now)
 *                       2 RMW datagram-times[D]  stamp if absent
 *  other fragment       0 READ datagrams[D]      first seen: recover its ports
 *                       1 RMW held[0]            + 1 if not first seen and room: hold
 *                       2 RMW datagrams[D]       held + 1 if op 1 took a place
 *                       3 RMW datagram-times[D]  stamp if op 2 made the entry
 * </pre>
 * A datagram's held fragments time out {@code timeout} after the first of them was held
 * ({@link #timeOut}, called by the executor at that packet time); the expiry sweep forgets
 * datagrams older than {@code timeout} that hold nothing.
 *
 * <p>Configuration is read-only after construction; the tables are touched only by the
 * tracker's transactions, {@link #expire} and {@link #timeOut}.
 */
public final class FragmentTracker implements Vnf
{
    /** {@link #outcome}: not a fragment the tracker handles; it goes on unchanged. */
    public static final int UNTRACKED = 0;
    /** {@link #outcome}: a first fragment; {@link #released} held fragments go on after it. */
    public static final int FIRST = 1;
    /** {@link #outcome}: a later fragment that got its datagram's ports. */
    public static final int RECOVERED = 2;
    /** {@link #outcome}: a fragment before its first: the executor holds it. */
    public static final int HELD = 3;
    /** {@link #outcome}: a fragment before its first with no room to hold it: dropped. */
    public static final int OVERFLOW = 4;

    /** Most fragments held for one datagram (the held count's 8 bits). */
    public static final int MAX_HELD_PER_DATAGRAM = 255;
    /**
     * Most fragments that may be held at once, all datagrams: each holding place costs a
     * packet buffer in the store and a spare slot in each of the engine's batch frames.
     */
    public static final int MAX_HELD_LIMIT = 4096;

    private static final long FIRST_SEEN = 1L << 32;
    private static final int HELD_SHIFT = 33;
    private static final long HELD_ONE = 1L << HELD_SHIFT;
    private static final long PORTS_MASK = 0xFFFF_FFFFL;
    private static final int KIND_SLOT = 0;
    private static final int KIND_FIRST = 1;
    private static final int KIND_LATER = 2;
    private static final long HELD_KEY = 0L;

    private final long timeoutNs;
    private final long timeoutMs;
    private final int maxHeld;

    private final StateFunction first = (current, ctx) -> FIRST_SEEN | ctx.operand();
    private final StateFunction release = (current, ctx) -> current - heldOf(ctx.before(0));
    private final StateFunction stampIfAbsent =
        (current, ctx) -> current == 0 ? PacketClock.stamp(ctx.timestampNs()) : current;
    private final StateFunction takePlace = this::takePlace;
    private final StateFunction countHeld = (current, ctx) -> ctx.after(1) != ctx.before(1) ? current + HELD_ONE : current;
    private final StateFunction stampIfMade =
        (current, ctx) -> current == 0 && ctx.after(2) != 0 ? PacketClock.stamp(ctx.timestampNs()) : current;

    private int datagramsTable;
    private int timesTable;
    private int heldTable;
    private VnfCounter firstFragments;
    private VnfCounter recovered;
    private VnfCounter held;
    private VnfCounter released;
    private VnfCounter timedOut;
    private VnfCounter overflowed;

    /**
     * @param timeoutNs how long, in packet time, a datagram's ports are remembered and its
     *                  early fragments held; more than 0.
     * @param maxHeld   most fragments held at once, 0 (never hold: early fragments overflow)
     *                  to {@value #MAX_HELD_LIMIT}.
     */
    public FragmentTracker(final long timeoutNs, final int maxHeld)
    {
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("fragment timeout must be > 0: " + timeoutNs);
        }
        if (maxHeld < 0 || maxHeld > MAX_HELD_LIMIT)
        {
            throw new IllegalArgumentException("fragments held must be 0 to " + MAX_HELD_LIMIT + ": " + maxHeld);
        }
        this.timeoutNs = timeoutNs;
        this.timeoutMs = Math.max(1, timeoutNs / PacketClock.NS_PER_MS);
        this.maxHeld = maxHeld;
    }

    /**
     * @param packet a parsed packet.
     * @return true for a valid fragment of a TCP or UDP datagram: the packets the tracker
     *         declares a transaction for. Every other packet skips it.
     */
    public static boolean tracks(final PacketFlyweight packet)
    {
        final int protocol = packet.ipProtocol();
        return packet.isValid() && packet.isFragment()
            && (protocol == PacketFlyweight.PROTO_TCP || protocol == PacketFlyweight.PROTO_UDP);
    }

    /** @return how long a datagram is remembered, in packet time. */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /** @return the most fragments held at once. */
    public int maxHeld()
    {
        return maxHeld;
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        datagramsTable = setup.table(new TableSpec("datagrams", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> held << 33 | first seen << 32 | src port << 16 | dst port"));
        timesTable = setup.table(new TableSpec("datagram-times", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> packet time (ms + 1) it was first seen"));
        heldTable = setup.table(new TableSpec("held", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
            "0 -> fragments held now"));
        firstFragments = setup.counter("first-fragments");
        recovered = setup.counter("recovered");
        held = setup.counter("held");
        released = setup.counter("released");
        timedOut = setup.counter("timeouts");
        overflowed = setup.counter("overflows");
        setup.expiryIntervalNs(timeoutNs);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        if (!tracks(packet))
        {
            return;
        }
        final long datagram = FlowKeys.datagram(packet);
        if (packet.fragmentOffset() == 0)
        {
            txn.scratch(KIND_SLOT, KIND_FIRST);
            txn.readModify(datagramsTable, datagram, first, ((long)packet.srcPort() << 16) | packet.dstPort());
            txn.readModify(heldTable, HELD_KEY, release, 0L);
            txn.readModify(timesTable, datagram, stampIfAbsent, 0L);
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_LATER);
            txn.read(datagramsTable, datagram);
            txn.readModify(heldTable, HELD_KEY, takePlace, 0L);
            txn.readModify(datagramsTable, datagram, countHeld, 0L);
            txn.readModify(timesTable, datagram, stampIfMade, 0L);
        }
    }

    /**
     * Counts the outcome and, for a later fragment of a datagram whose first was seen, gives
     * the packet its ports. Never drops or forwards: the executor acts on {@link #outcome}.
     */
    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        switch (outcome(result))
        {
            case FIRST:
                firstFragments.increment();
                released.add(released(result));
                break;
            case RECOVERED:
                recovered.increment();
                final long ports = result.before(0) & PORTS_MASK;
                packet.recoverPorts((int)(ports >>> 16), (int)(ports & 0xFFFF));
                break;
            case HELD:
                held.increment();
                break;
            case OVERFLOW:
                overflowed.increment();
                break;
            default:
                break;
        }
    }

    /**
     * @param result the tracker's transaction for a packet (empty if it declared none).
     * @return {@link #UNTRACKED}, {@link #FIRST}, {@link #RECOVERED}, {@link #HELD} or {@link #OVERFLOW}.
     */
    public int outcome(final TransactionView result)
    {
        if (result.operationCount() == 0)
        {
            return UNTRACKED;
        }
        if (result.scratch(KIND_SLOT) == KIND_FIRST)
        {
            return FIRST;
        }
        if ((result.before(0) & FIRST_SEEN) != 0)
        {
            return RECOVERED;
        }
        return result.after(1) != result.before(1) ? HELD : OVERFLOW;
    }

    /**
     * @param result a first fragment's transaction ({@link #outcome} {@link #FIRST}).
     * @return how many held fragments of its datagram go on right after it.
     */
    public int released(final TransactionView result)
    {
        return (int)heldOf(result.before(0));
    }

    /**
     * @param result a first fragment's transaction.
     * @return its datagram's source port, to give the fragments it releases.
     */
    public int firstSourcePort(final TransactionView result)
    {
        return (int)((result.after(0) & PORTS_MASK) >>> 16);
    }

    /**
     * @param result a first fragment's transaction.
     * @return its datagram's destination port, to give the fragments it releases.
     */
    public int firstDestinationPort(final TransactionView result)
    {
        return (int)(result.after(0) & 0xFFFF);
    }

    /**
     * Removes every datagram first seen more than {@code timeout} ago that holds no fragment:
     * its ports are forgotten. Datagrams with held fragments time out through {@link #timeOut},
     * at the exact packet time the executor finds them due.
     */
    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        final long nowMs = PacketClock.millis(nowNs);
        state.forEach(timesTable, (datagram, stamp) ->
        {
            if (!PacketClock.live(stamp, nowMs, timeoutMs) && heldOf(state.get(datagramsTable, datagram)) == 0)
            {
                state.put(datagramsTable, datagram, 0L);
                state.put(timesTable, datagram, 0L);
            }
        });
    }

    /**
     * Times out a datagram whose held fragments waited longer than {@code timeout} for their
     * first fragment (or that still holds fragments when the input ends): it is removed, and
     * its fragments no longer count as held. Runs alone, between two transactions.
     *
     * @param datagram the datagram's key ({@link FlowKeys#datagram}).
     * @param state    the committed state.
     * @return how many of its fragments were held: the executor drops them.
     */
    public int timeOut(final long datagram, final StateMaintenance state)
    {
        final long count = heldOf(state.get(datagramsTable, datagram));
        state.put(heldTable, HELD_KEY, state.get(heldTable, HELD_KEY) - count);
        state.put(datagramsTable, datagram, 0L);
        state.put(timesTable, datagram, 0L);
        timedOut.add(count);
        return (int)count;
    }

    private long takePlace(final long current, final FunctionContext ctx)
    {
        final long entry = ctx.before(0);
        return (entry & FIRST_SEEN) == 0 && heldOf(entry) < MAX_HELD_PER_DATAGRAM && current < maxHeld ? current + 1 : current;
    }

    private static long heldOf(final long entry)
    {
        return (entry & FIRST_SEEN) != 0 ? 0 : entry >>> HELD_SHIFT;
    }
}
