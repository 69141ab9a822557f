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
import io.transnfv.vnf.packet.IcmpErrorQuote;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Fragment tracking at the chain's entry: shallow (virtual) reassembly as production data
 * planes do it. Only the first fragment of a datagram carries its transport header; the
 * tracker remembers, per datagram (addresses, protocol and identification,
 * {@link FlowKeys#datagram}) for {@code timeout}, what VNFs classify a packet by, and gives it
 * to the datagram's other fragments: a TCP or UDP datagram's ports
 * ({@link PacketFlyweight#recoverPorts}), an ICMP/ICMPv6 datagram's type
 * ({@link PacketFlyweight#recoverIcmpType}) and, for an error, the packet it quotes
 * ({@link PacketFlyweight#recoverIcmpQuote}). Fragments of every other protocol are tracked
 * too, with nothing to recover, so that all fragments of any datagram go on in order after
 * their first. A fragment that comes before its first is <em>held</em>: the executor keeps
 * the packet and lets it go on right after the first fragment, or drops it when its datagram
 * times out. At most {@code maxHeld} fragments are held at once; one more is an overflow,
 * dropped at once. IPv4 and IPv6 alike.
 *
 * <p>Tables (D = FlowKeys.datagram):
 * <pre>
 *  datagrams       PER_FLOW   FLOW  D → packed, 0 = none:
 *                    63        41 40            33  32           31                0
 *                    |  unused   | held fragments | first seen | transport fields   |
 *                  transport fields: src port &lt;&lt; 16 | dst port (TCP, UDP), the type (ICMP), else 0
 *  datagram-times  PER_FLOW   FLOW  D → stamp (ms + 1) of the datagram's first fragment seen
 *  held            CROSS_FLOW INDEX 0 → fragments held now, all datagrams
 *  quote-src-high, quote-src-low, quote-dst-high, quote-dst-low
 *                  PER_FLOW   FLOW  D → the addresses an ICMP error's first fragment quotes
 *                                       (IPv4: 0 and the address as an unsigned number)
 *  quote-transport PER_FLOW   FLOW  D → 1 &lt;&lt; 40 | protocol &lt;&lt; 32 | src port &lt;&lt; 16 | dst port, 0 = no quote
 * </pre>
 *
 * <p>Transactions, for every valid fragment ({@link #tracks}):
 * <pre>
 *  first fragment       0 RMW datagrams[D]       first seen, its transport fields, 0 held
 *                       1 RMW held[0]            - op 0's held (they go on now)
 *                       2 RMW datagram-times[D]  stamp if absent
 *   + an ICMP error     3-7 WRITE quote-*[D]     the quoted packet
 *  other fragment       0 READ datagrams[D]      first seen: recover its transport fields
 *                       1 RMW held[0]            + 1 if not first seen and room: hold
 *                       2 RMW datagrams[D]       held + 1 if op 1 took a place
 *                       3 RMW datagram-times[D]  stamp if op 2 made the entry
 *   + ICMP, ICMPv6      4-8 READ quote-*[D]      the quote, if the first fragment was an error
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
    /** {@link #outcome}: a later fragment that got its datagram's transport fields. */
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
    private static final long TRANSPORT_MASK = 0xFFFF_FFFFL;
    private static final long QUOTED = 1L << 40;
    private static final int QUOTE_OPS = 5;
    private static final int FIRST_QUOTE_OP = 3;
    private static final int LATER_QUOTE_OP = 4;
    private static final int KIND_SLOT = 0;
    private static final int KIND_FIRST = 1;
    private static final int KIND_LATER = 2;
    private static final long HELD_KEY = 0L;

    private final long timeoutNs;
    private final long timeoutMs;
    private final int maxHeld;
    /** The tracker runs on whichever worker starts a batch; each reads quotes with its own view. */
    private final ThreadLocal<IcmpErrorQuote> quotes = ThreadLocal.withInitial(IcmpErrorQuote::new);

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
    private final int[] quoteTables = new int[QUOTE_OPS];
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
     * @return true for a valid fragment of a datagram of any protocol: the packets the tracker
     *         declares a transaction for. Every other packet skips it.
     */
    public static boolean tracks(final PacketFlyweight packet)
    {
        return packet.isValid() && packet.isFragment();
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
            "datagram -> held << 33 | first seen << 32 | src port << 16 | dst port, or ICMP type"));
        timesTable = setup.table(new TableSpec("datagram-times", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> packet time (ms + 1) it was first seen"));
        heldTable = setup.table(new TableSpec("held", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L,
            "0 -> fragments held now"));
        quoteTables[0] = setup.table(new TableSpec("quote-src-high", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> upper 64 bits of the source its first fragment, an ICMP error, quotes"));
        quoteTables[1] = setup.table(new TableSpec("quote-src-low", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> lower 64 bits (IPv4: the address) of the quoted source"));
        quoteTables[2] = setup.table(new TableSpec("quote-dst-high", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> upper 64 bits of the quoted destination"));
        quoteTables[3] = setup.table(new TableSpec("quote-dst-low", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> lower 64 bits (IPv4: the address) of the quoted destination"));
        quoteTables[4] = setup.table(new TableSpec("quote-transport", TableScope.PER_FLOW, KeyKind.FLOW, 0L,
            "datagram -> 1 << 40 | quoted protocol << 32 | src port << 16 | dst port, 0 = no quote"));
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
        final int protocol = packet.ipProtocol();
        final boolean icmp = protocol == PacketFlyweight.PROTO_ICMP || protocol == PacketFlyweight.PROTO_ICMPV6;
        if (packet.fragmentOffset() == 0)
        {
            txn.scratch(KIND_SLOT, KIND_FIRST);
            final long transport = icmp ? packet.icmpType() : ((long)packet.srcPort() << 16) | packet.dstPort();
            txn.readModify(datagramsTable, datagram, first, transport);
            txn.readModify(heldTable, HELD_KEY, release, 0L);
            txn.readModify(timesTable, datagram, stampIfAbsent, 0L);
            if (icmp && IcmpErrorQuote.isError(packet))
            {
                declareQuoteSlowPath(packet, txn, datagram);
            }
        }
        else
        {
            txn.scratch(KIND_SLOT, KIND_LATER);
            txn.read(datagramsTable, datagram);
            txn.readModify(heldTable, HELD_KEY, takePlace, 0L);
            txn.readModify(datagramsTable, datagram, countHeld, 0L);
            txn.readModify(timesTable, datagram, stampIfMade, 0L);
            if (icmp)
            {
                for (int i = 0; i < QUOTE_OPS; i++)
                {
                    txn.read(quoteTables[i], datagram);
                }
            }
        }
    }

    /** An ICMP error's first fragment: its quote is what the later fragments are classified by. */
    private void declareQuoteSlowPath(final PacketFlyweight packet, final TransactionBuilder txn, final long datagram)
    {
        final IcmpErrorQuote quote = quotes.get();
        if (!quote.wrap(packet))
        {
            return;
        }
        final boolean ipv6 = quote.ipVersion() == 6;
        txn.write(quoteTables[0], datagram, ipv6 ? quote.srcIpv6High() : 0L);
        txn.write(quoteTables[1], datagram, ipv6 ? quote.srcIpv6Low() : Integer.toUnsignedLong(quote.srcIpv4()));
        txn.write(quoteTables[2], datagram, ipv6 ? quote.dstIpv6High() : 0L);
        txn.write(quoteTables[3], datagram, ipv6 ? quote.dstIpv6Low() : Integer.toUnsignedLong(quote.dstIpv4()));
        txn.write(quoteTables[4], datagram,
            QUOTED | ((long)quote.protocol() << 32) | ((long)quote.srcPort() << 16) | quote.dstPort());
    }

    /**
     * Counts the outcome and, for a later fragment of a datagram whose first was seen, gives
     * the packet its transport fields. Never drops or forwards: the executor acts on {@link #outcome}.
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
                final boolean quoted = result.operationCount() > LATER_QUOTE_OP;
                recover(packet, result.before(0) & TRANSPORT_MASK,
                    quoted ? result.before(LATER_QUOTE_OP + 4) : 0L,
                    quoted ? result.before(LATER_QUOTE_OP) : 0L,
                    quoted ? result.before(LATER_QUOTE_OP + 1) : 0L,
                    quoted ? result.before(LATER_QUOTE_OP + 2) : 0L,
                    quoted ? result.before(LATER_QUOTE_OP + 3) : 0L);
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
     * Copies what a first fragment gives its datagram's other fragments, for the fragments it
     * releases: the transaction's log may be reused before they go on.
     *
     * @param result a first fragment's transaction ({@link #outcome} {@link #FIRST}).
     * @param into   where to keep it; {@link FirstFragmentFields#giveTo} then gives it to each.
     */
    public void firstFields(final TransactionView result, final FirstFragmentFields into)
    {
        final boolean quoted = result.operationCount() > FIRST_QUOTE_OP;
        into.transport = result.after(0) & TRANSPORT_MASK;
        into.quoteTransport = quoted ? result.after(FIRST_QUOTE_OP + 4) : 0L;
        into.quoteSrcHigh = quoted ? result.after(FIRST_QUOTE_OP) : 0L;
        into.quoteSrcLow = quoted ? result.after(FIRST_QUOTE_OP + 1) : 0L;
        into.quoteDstHigh = quoted ? result.after(FIRST_QUOTE_OP + 2) : 0L;
        into.quoteDstLow = quoted ? result.after(FIRST_QUOTE_OP + 3) : 0L;
    }

    /** Gives a later fragment its datagram's transport fields, by its protocol. */
    static void recover(final PacketFlyweight fragment, final long transport, final long quoteTransport,
        final long srcHigh, final long srcLow, final long dstHigh, final long dstLow)
    {
        final int protocol = fragment.ipProtocol();
        if (protocol == PacketFlyweight.PROTO_TCP || protocol == PacketFlyweight.PROTO_UDP)
        {
            fragment.recoverPorts((int)(transport >>> 16), (int)(transport & 0xFFFF));
        }
        else if (protocol == PacketFlyweight.PROTO_ICMP || protocol == PacketFlyweight.PROTO_ICMPV6)
        {
            fragment.recoverIcmpType((int)transport);
            if ((quoteTransport & QUOTED) != 0)
            {
                fragment.recoverIcmpQuote((int)((quoteTransport >>> 32) & 0xFF), srcHigh, srcLow, dstHigh, dstLow,
                    (int)((quoteTransport >>> 16) & 0xFFFF), (int)(quoteTransport & 0xFFFF));
            }
        }
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
                forgetQuote(datagram, state);
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
        forgetQuote(datagram, state);
        timedOut.add(count);
        return (int)count;
    }

    private void forgetQuote(final long datagram, final StateMaintenance state)
    {
        if (state.get(quoteTables[QUOTE_OPS - 1], datagram) != 0)
        {
            for (int i = 0; i < QUOTE_OPS; i++)
            {
                state.put(quoteTables[i], datagram, 0L);
            }
        }
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
