package io.transnfv.engine.ingress;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.batch.Punctuation;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The ingress side of the IO role: reads packets from the source straight into a batch's
 * frame (no copy beyond the source's own), holds packet time non-decreasing, places
 * housekeeping ticks, stamps sampled packets with their wall-clock hand-over time, and closes
 * the batch when its {@link Punctuation} says so. On a live source that has been quiet for a
 * tick interval of wall time, packet time moves on with the wall clock ({@link QuietClock}) and a
 * tick that falls due closes an empty frame that carries only the tick.
 *
 * <pre>
 *  source.poll ──► frame slot ──► clock, tick ──► belongs to the next batch? carry it over
 *       │                                      └► admit (sampled: ingress time) ─► close?
 *       └► nothing (live, quiet) ──► clock to quiet time, tick due? ──► empty frame with the tick
 * </pre>
 *
 * <p>Owned by whichever worker holds the IO role; the role's hand-over orders every call.
 */
public final class Ingress
{
    /**
     * {@link #fill} result: the frame is closed and ready for the workers. After the input's
     * last packet, one empty frame with {@link BatchFrame#flush} set closes too; on a quiet live
     * source, an empty frame whose {@link BatchFrame#tickNs} is a housekeeping tick.
     */
    public static final int CLOSED = 1;
    /** {@link #fill} result: no packet right now, and the frame is empty. */
    public static final int NOTHING_YET = 0;
    /** {@link #fill} result: the source has ended and the frame is empty. */
    public static final int ENDED = -1;

    private static final int CHECK_EVERY_MASK = EngineConfiguration.INGRESS_CHECK_EVERY_PACKETS - 1;

    private final PacketSource source;
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final CheckGroups checkGroups;
    private final QuietClock quiet;
    private final Punctuation punctuation;
    private PacketBuffer carry;
    private boolean carrying;
    private long carryTick = ExpiryTicker.NONE;
    private long carryTickSince;
    private int carryCheckGroup = ExpiryTicker.NO_GROUP;
    private boolean carryCheck;
    private boolean ended;
    private boolean flushPending = true;
    private long packets;
    private long cutAt = Long.MAX_VALUE;
    private long lastSequence = -1;

    /**
     * @param source           where packets come from; if it is {@linkplain PacketSource#live() live},
     *                         packet time also advances with {@code wallClockNs} while it is quiet.
     * @param expiryIntervalNs the housekeeping period in packet time, 0 for none.
     * @param punctuation      when batches close.
     * @param bufferCapacity   bytes of the spare buffer that carries a packet over to the next batch.
     * @param wallClockNs      the wall clock a quiet live source's packet time follows ({@code System::nanoTime}).
     */
    public Ingress(
        final PacketSource source, final long expiryIntervalNs, final Punctuation punctuation, final int bufferCapacity,
        final LongSupplier wallClockNs)
    {
        this(source, expiryIntervalNs, new long[] {0}, new CheckGroups(List.of(), -1), punctuation, bufferCapacity, wallClockNs);
    }

    /**
     * @param source           the packets.
     * @param expiryIntervalNs the housekeeping period in packet time, 0 for none.
     * @param checkEvery       per check group, its packets between two of its capacity checks
     *                         ({@link ExpiryTicker#CHECK}), 0 for none.
     * @param checkGroups      the check group of each packet read (this ingress's own).
     * @param punctuation      when batches close.
     * @param bufferCapacity   bytes of the spare buffer that carries a packet over to the next batch.
     * @param wallClockNs      the wall clock a quiet live source's packet time follows ({@code System::nanoTime}).
     */
    public Ingress(
        final PacketSource source, final long expiryIntervalNs, final long[] checkEvery, final CheckGroups checkGroups,
        final Punctuation punctuation, final int bufferCapacity, final LongSupplier wallClockNs)
    {
        this.source = source;
        this.ticker = new ExpiryTicker(expiryIntervalNs, checkEvery);
        this.checkGroups = checkGroups;
        this.quiet = new QuietClock(source.live(), expiryIntervalNs, wallClockNs);
        this.punctuation = punctuation;
        this.carry = new PacketBuffer(bufferCapacity);
    }

    /**
     * Places the chain's state checks during the run ({@link ExpiryTicker#checkersEvery}): a batch
     * closes before each packet they fall before, which carries {@link BatchFrame#checkersDue}.
     * Call before the first {@link #fill}.
     */
    public void checkersEvery(final long everyNs, final long everyPackets)
    {
        ticker.checkersEvery(everyNs, everyPackets);
    }

    /** @return true once the source has ended and every packet read has been put in a batch. */
    public boolean ended()
    {
        return ended && !carrying;
    }

    /**
     * Reads no packet at or past position {@code position} (packets read from the source) until
     * moved: a parameter change waits there ({@code ParamChanges}). The frame being filled closes
     * with what it holds; {@link #fill} then says {@link #NOTHING_YET}.
     */
    public void cutAt(final long position)
    {
        cutAt = position;
    }

    /** @return true if every packet read is in a closed frame and the next read would pass the cut. */
    public boolean atCut()
    {
        return !carrying && packets >= cutAt;
    }

    /** @return packets read so far. */
    public long packets()
    {
        return packets;
    }

    /**
     * Skips the first {@code count} packets of the source (those a restored checkpoint holds),
     * keeping packet time and the housekeeping ticks where an uninterrupted run has them.
     *
     * @throws SourceException if the source fails or ends first.
     */
    public void skip(final long count) throws SourceException
    {
        for (long i = 0; i < count; i++)
        {
            if (!source.next(carry))
            {
                throw new SourceException(source.describe(), -1, "the source ended after " + i + " packets, but the checkpoint holds " + count
                    + "\nfix: resume with the traffic the run was started with");
            }
            ticker.due(clock.onPacket(carry.timestampNs()), checkGroups.of(carry));
            packets++;
        }
    }

    /**
     * Resumes packet time and the housekeeping ticks at {@code timeNs}, as if a packet of that time
     * had just been read, without reading one: for a resume whose source starts after the cut.
     */
    public void resumeClockAt(final long timeNs)
    {
        ticker.due(clock.onPacket(timeNs), checkGroups.withoutPacket());
    }

    /** @return the punctuation that closes batches. */
    public Punctuation punctuation()
    {
        return punctuation;
    }

    /**
     * Ends the input here, as if the source had ended (a stop was requested): the frame being
     * filled closes with the packets it holds, and nothing more is read.
     */
    public void endInput()
    {
        ended = true;
    }

    /**
     * Reads packets into {@code frame} (FILLING, possibly holding packets from an earlier call)
     * until it closes or no packet is available now.
     *
     * @param engineIdle true if the workers have nothing to do: the batch may close early.
     * @return {@link #CLOSED} (the frame holds at least one packet, or it is the end of the
     *         input's flush or a quiet live source's tick), {@link #NOTHING_YET} or {@link #ENDED}
     *         (the frame is empty).
     * @throws SourceException if the source fails.
     */
    public int fill(final BatchFrame frame, final boolean engineIdle) throws SourceException
    {
        final int limit = Math.min(frame.capacity(), punctuation.batchLimit());
        while (true)
        {
            final int slot = frame.count;
            final long tick;
            final long tickSince;
            final int checkGroup;
            final boolean check;
            if (carrying)
            {
                carry = frame.swap(slot, carry);
                carrying = false;
                tick = carryTick;
                tickSince = carryTickSince;
                checkGroup = carryCheckGroup;
                check = carryCheck;
            }
            else
            {
                if (ended)
                {
                    if (slot == 0 && flushPending)
                    {
                        return flush(frame);
                    }
                    return close(frame, slot, Punctuation.END_OF_INPUT, ENDED);
                }
                if (packets >= cutAt)
                {
                    // a parameter change waits here: the batches read so far must finish first
                    return close(frame, slot, Punctuation.IDLE_INPUT, NOTHING_YET);
                }
                final int read = source.poll(frame.buffers[slot]);
                if (read != PacketSource.PACKET)
                {
                    if (read == PacketSource.END)
                    {
                        ended = true;
                        if (slot == 0 && flushPending)
                        {
                            return flush(frame);
                        }
                        return close(frame, slot, Punctuation.END_OF_INPUT, ENDED);
                    }
                    final long quietTimeNs = quiet.onNothingYet(clock.lastNs());
                    if (slot == 0 && quietTimeNs != QuietClock.NONE)
                    {
                        final long quietTick = ticker.dueWithoutPacket(clock.onPacket(quietTimeNs));
                        if (quietTick != ExpiryTicker.NONE)
                        {
                            return tickOnly(frame, quietTick);
                        }
                    }
                    return close(frame, slot, Punctuation.IDLE_INPUT, NOTHING_YET);
                }
                packets++;
                quiet.onPacket();
                final PacketBuffer buffer = frame.buffers[slot];
                final long timeNs = clock.onPacket(buffer.timestampNs());
                tick = ticker.due(timeNs, checkGroups.of(buffer));
                tickSince = ticker.sinceNs();
                checkGroup = ticker.checkGroup();
                check = ticker.checkersDue();
                if (slot > 0 && (tick != ExpiryTicker.NONE || check || timeNs - frame.firstPacketTimeNs >= punctuation.intervalNs()))
                {
                    // the packet opens the next batch
                    carry = frame.swap(slot, carry);
                    carrying = true;
                    carryTick = tick;
                    carryTickSince = tickSince;
                    carryCheckGroup = checkGroup;
                    carryCheck = check;
                    return close(frame, slot, tick != ExpiryTicker.NONE || check ? Punctuation.TICK : Punctuation.INTERVAL, CLOSED);
                }
            }
            final PacketBuffer buffer = frame.buffers[slot];
            final long sequence = buffer.sequence();
            lastSequence = sequence;
            if (slot == 0)
            {
                frame.tickNs = tick;
                frame.tickSinceNs = tickSince;
                frame.checkGroup = checkGroup;
                frame.checkersDue = check;
                frame.tickSequence = sequence;
                frame.firstPacketTimeNs = clock.lastNs();
                frame.firstPacketWallNs = System.nanoTime();
            }
            frame.timeNs[slot] = clock.lastNs();
            if (EngineConfiguration.latencySampled(sequence))
            {
                final long given = buffer.ingressNs();
                frame.ingressNs[slot] = given != 0 ? given : System.nanoTime();
            }
            else
            {
                frame.ingressNs[slot] = 0;
            }
            frame.count = slot + 1;
            if (slot + 1 >= limit)
            {
                return close(frame, slot + 1, Punctuation.SIZE, CLOSED);
            }
            if ((slot & CHECK_EVERY_MASK) == CHECK_EVERY_MASK)
            {
                if (System.nanoTime() - frame.firstPacketWallNs >= punctuation.ageLimitNs())
                {
                    return close(frame, slot + 1, Punctuation.AGE, CLOSED);
                }
                if (engineIdle && slot + 1 >= punctuation.engineIdleMinimum())
                {
                    return close(frame, slot + 1, Punctuation.ENGINE_IDLE, CLOSED);
                }
            }
        }
    }

    /**
     * Closes the empty frame that follows the input's last packet, once: it carries no packet,
     * only the end of the fragments still held (they time out after the last packet).
     */
    private int flush(final BatchFrame frame)
    {
        flushPending = false;
        frame.count = 0;
        frame.flush = true;
        frame.tickNs = ExpiryTicker.NONE;
        frame.checkersDue = false;
        frame.firstPacketTimeNs = clock.lastNs();
        frame.firstPacketWallNs = System.nanoTime();
        frame.closeReason = Punctuation.END_OF_INPUT;
        return CLOSED;
    }

    /**
     * Closes an empty frame that carries only housekeeping at {@code tickNs}: the source is live
     * and has been quiet long enough for packet time, moving on with the wall clock, to cross a
     * tick. The tick is named after the last packet read before it. Not a batch: the punctuation
     * does not count it.
     */
    private int tickOnly(final BatchFrame frame, final long tickNs)
    {
        frame.count = 0;
        frame.tickNs = tickNs;
        frame.tickSinceNs = ticker.sinceNs();
        frame.checkGroup = ExpiryTicker.NO_GROUP;
        frame.checkersDue = false;
        frame.tickSequence = lastSequence;
        frame.firstPacketTimeNs = clock.lastNs();
        frame.firstPacketWallNs = System.nanoTime();
        frame.closeReason = Punctuation.TICK;
        return CLOSED;
    }

    private int close(final BatchFrame frame, final int count, final int reason, final int otherwise)
    {
        frame.count = count;
        if (count == 0)
        {
            return otherwise;
        }
        frame.closeReason = reason;
        punctuation.onClosed(reason, count);
        return CLOSED;
    }
}
