package io.transnfv.engine.ingress;

import io.transnfv.engine.source.PacketBuffer;

/**
 * The fragments held at the chain's entry until their datagram's first fragment arrives: the
 * packets themselves, in arrival order, each with its datagram's key. The fragment tracker's
 * tables decide what is held, released and timed out (and bound how many are held); this
 * store only keeps the buffers. Buffers are exchanged, never allocated after construction:
 * {@link #hold} takes a packet's buffer and gives a spare one back, {@link #take} gives a held
 * buffer and takes a spare one back.
 *
 * <pre>
 *  tracker: HELD ──► hold(datagram, buffer) ─► entries (arrival order)
 *  tracker: FIRST ─► select(datagram) ─► take(0..n-1) ─► the chain, right after the first fragment
 *  before each packet: dueDatagram(now) ─► tracker.timeOut ─► select ─► take ─► dropped, ingress:fragment-timeout
 * </pre>
 *
 * <p>Not thread-safe: owned by the thread that runs the tracker's transactions of a batch
 * (the oracle's only thread; the engine's worker that starts the batch).
 */
public final class HeldFragments
{
    /** {@link #dueDatagram} when no datagram is due. A datagram key equal to it is never due: it times out at the end of the input. */
    public static final long NONE_DUE = Long.MIN_VALUE;

    private final long[] datagrams;
    private final long[] heldAtNs;
    private final PacketBuffer[] buffers;
    private final PacketBuffer[] spares;
    private final int[] selected;
    private int count;
    private int spareCount;
    private int selectedCount;

    /**
     * @param capacity       the most fragments held at once (the tracker's bound).
     * @param bufferCapacity bytes of each spare buffer.
     */
    public HeldFragments(final int capacity, final int bufferCapacity)
    {
        datagrams = new long[capacity];
        heldAtNs = new long[capacity];
        buffers = new PacketBuffer[capacity];
        spares = new PacketBuffer[capacity];
        selected = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            spares[i] = new PacketBuffer(bufferCapacity);
        }
        spareCount = capacity;
    }

    /** @return fragments held now. */
    public int size()
    {
        return count;
    }

    /**
     * Holds {@code buffer}'s packet for {@code datagram}, at packet time {@code timeNs}.
     *
     * @return a spare buffer, to take the held one's place.
     * @throws IllegalStateException if the store is full: the tracker let more be held than its bound.
     */
    public PacketBuffer hold(final long datagram, final PacketBuffer buffer, final long timeNs)
    {
        if (count == buffers.length)
        {
            throw new IllegalStateException("more fragments held than the tracker's bound of " + buffers.length);
        }
        datagrams[count] = datagram;
        heldAtNs[count] = timeNs;
        if (buffer.isAttached())
        {
            // the source owns that memory and reuses it: keep a copy, give the buffer back
            holdCopy(buffer);
            return buffer;
        }
        buffers[count++] = buffer;
        return spares[--spareCount];
    }

    /** Holds a copy of {@code buffer}'s packet for {@code datagram}, at packet time {@code timeNs}; the caller keeps its buffer. */
    public void holdCopy(final long datagram, final PacketBuffer buffer, final long timeNs)
    {
        if (count == buffers.length)
        {
            throw new IllegalStateException("more fragments held than the tracker's bound of " + buffers.length);
        }
        datagrams[count] = datagram;
        heldAtNs[count] = timeNs;
        holdCopy(buffer);
    }

    private void holdCopy(final PacketBuffer buffer)
    {
        final PacketBuffer copy = spares[--spareCount];
        copy.copyFrom(buffer);
        buffers[count++] = copy;
    }

    /**
     * Selects the fragments held for {@code datagram}, in arrival order.
     *
     * @return how many: {@link #take} them by position 0 to that count - 1.
     */
    public int select(final long datagram)
    {
        selectedCount = 0;
        for (int i = 0; i < count; i++)
        {
            if (datagrams[i] == datagram)
            {
                selected[selectedCount++] = i;
            }
        }
        return selectedCount;
    }

    /**
     * @param nowNs     packet time.
     * @param timeoutNs how long a datagram's fragments may wait.
     * @return the datagram whose fragments have waited longest, if they have waited more than
     *         {@code timeoutNs} at {@code nowNs}; otherwise {@link #NONE_DUE} (also when empty).
     */
    public long dueDatagram(final long nowNs, final long timeoutNs)
    {
        return count > 0 && nowNs - heldAtNs[0] > timeoutNs ? datagrams[0] : NONE_DUE;
    }

    /** @return the datagram whose fragments have waited longest; the store must not be empty. */
    public long oldestDatagram()
    {
        return datagrams[0];
    }

    /**
     * Takes the {@code i}-th selected fragment out of the store.
     *
     * @param i     its position in the selection, taken in increasing order.
     * @param spare a buffer the store keeps in its place.
     * @return the held packet's buffer.
     */
    public PacketBuffer take(final int i, final PacketBuffer spare)
    {
        final int index = selected[i];
        final PacketBuffer held = buffers[index];
        buffers[index] = null;
        spares[spareCount++] = spare;
        if (i == selectedCount - 1)
        {
            compact();
        }
        return held;
    }

    /** Removes the taken entries, keeping the others in arrival order. */
    private void compact()
    {
        int kept = 0;
        for (int i = 0; i < count; i++)
        {
            if (buffers[i] != null)
            {
                datagrams[kept] = datagrams[i];
                heldAtNs[kept] = heldAtNs[i];
                buffers[kept] = buffers[i];
                kept++;
            }
        }
        for (int i = kept; i < count; i++)
        {
            buffers[i] = null;
        }
        count = kept;
        selectedCount = 0;
    }
}
