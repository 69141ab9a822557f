package io.transnfv.engine.batch;

import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One batch's packets, from the moment the ingress reads them to the moment the egress
 * finishes them: the frames (copied in, or attached where the source keeps them), their
 * packet views, their records, where each packet is in the chain and its transaction there.
 * Frames are preallocated and go round a small ring.
 *
 * <pre>
 *  FREE ──ingress──► FILLING ──punctuation──► READY ──first phase──► PROCESSING
 *    ▲                                                                   │ last stage
 *    └───────────────────── egress (in arrival order) ◄──── DONE ◄───────┘
 * </pre>
 *
 * <p>Owned by one role at a time: the ingress while FILLING, the workers running the batch's
 * phases while PROCESSING (each packet by the task that holds its chunk), the egress while
 * DONE. {@link #state} is the hand-over: written with release, read with acquire.
 */
public final class BatchFrame
{
    /** Free to fill. */
    public static final int FREE = 0;
    /** The ingress is reading packets into it. */
    public static final int FILLING = 1;
    /** Closed by a punctuation, waiting for the workers. */
    public static final int READY = 2;
    /** Going through the chain's stages. */
    public static final int PROCESSING = 3;
    /** Every packet is through the chain; waiting for the egress. */
    public static final int DONE = 4;

    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(BatchFrame.class, "state", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The frames, by slot. */
    public final PacketBuffer[] buffers;
    /** The packet views, by slot. */
    public final PacketFlyweight[] packets;
    /** What the chain did with each packet, by slot. */
    public final PacketRecord[] records;
    /** The VNF each packet is at (a chain position), or {@code ChainRuntime.EGRESS}. */
    public final int[] position;
    /** Each packet's transaction in its chunk's log at the current stage. */
    public final int[] transaction;
    /** Each packet's time as the chain sees it (non-decreasing in arrival order). */
    public final long[] timeNs;
    /**
     * Each packet's place in the serial order among packets of equal time: its arrival
     * sequence, or for a held fragment let go after its first fragment, that fragment's.
     */
    public final long[] order;
    /** Wall-clock hand-over time of each sampled packet ({@link System#nanoTime()}), 0 if not sampled. */
    public final long[] ingressNs;

    private volatile int state = FREE;
    /** Packets in the frame. */
    public int count;
    /** Packet time of the first packet. */
    public long firstPacketTimeNs;
    /** Wall-clock time the first packet was read. */
    public long firstPacketWallNs;
    /** The housekeeping tick due before this batch, or {@link ExpiryTicker#NONE}. */
    public long tickNs = ExpiryTicker.NONE;
    /** The tick before {@link #tickNs} ({@link ExpiryTicker#sinceNs}). */
    public long tickSinceNs;
    /** The check group whose own capacity check is due with {@link #tickNs} ({@link ExpiryTicker#checkGroup}). */
    public int checkGroup = ExpiryTicker.NO_GROUP;
    /**
     * The packet that names the tick's housekeeping faults: the batch's first packet (the one
     * that crossed the tick), or for an empty frame that carries only a tick on a quiet live
     * source, the last packet read before it.
     */
    public long tickSequence;
    /** True if the chain's state checkers run before this batch (after its housekeeping), at its first packet. */
    public boolean checkersDue;
    /** Why the batch was closed (a {@link Punctuation} reason). */
    public int closeReason;
    /** The batch's number, from 0. */
    public long number;
    /** Fragments the fragment tracker handles among the packets (counted at admission). */
    public int fragments;
    /** True for the frame closed after the end of the input, which only times out the fragments still held. */
    public boolean flush;

    /**
     * @param capacity       packets per batch, at least 1.
     * @param bufferCapacity bytes per packet buffer (see {@link PacketBuffer}).
     */
    public BatchFrame(final int capacity, final int bufferCapacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        buffers = new PacketBuffer[capacity];
        packets = new PacketFlyweight[capacity];
        records = new PacketRecord[capacity];
        for (int i = 0; i < capacity; i++)
        {
            buffers[i] = new PacketBuffer(bufferCapacity);
            packets[i] = new PacketFlyweight();
            records[i] = new PacketRecord();
        }
        position = new int[capacity];
        transaction = new int[capacity];
        timeNs = new long[capacity];
        order = new long[capacity];
        ingressNs = new long[capacity];
    }

    /** @return the most packets the frame holds. */
    public int capacity()
    {
        return buffers.length;
    }

    /** @return the frame's state (acquire). */
    public int state()
    {
        return (int)STATE.getAcquire(this);
    }

    /** Hands the frame over: every write before this call is visible to whoever reads the new state. */
    public void state(final int newState)
    {
        STATE.setRelease(this, newState);
    }

    /** Empties the frame for refilling (the egress, after finishing it). */
    public void clear()
    {
        count = 0;
        tickNs = ExpiryTicker.NONE;
        checkGroup = ExpiryTicker.NO_GROUP;
        checkersDue = false;
        closeReason = 0;
        fragments = 0;
        flush = false;
    }

    /** Exchanges the buffer in {@code slot} with {@code buffer}; returns the one that was there. */
    public PacketBuffer swap(final int slot, final PacketBuffer buffer)
    {
        final PacketBuffer old = buffers[slot];
        buffers[slot] = buffer;
        return old;
    }
}
