package io.transnfv.dpdk;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.agrona.collections.LongHashSet;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Applies the chain's verdicts to the mbufs: a dropped packet's mbuf is freed, a
 * forwarded packet's mbuf is transmitted. Verdicts are gathered into tx descriptors and
 * applied one JNI crossing per burst; only then are the ring slots, and so the in-flight
 * budget, released.
 *
 * <p>A forwarded frame the engine saw in place (its buffer attached to that very mbuf by
 * {@link DpdkSource}) already carries its rewrites (the packet view fixed the checksums it
 * touched, RFC 1624): only its length goes into the tx descriptor. Any other forwarded
 * frame (one that arrived as a chain of mbufs and was copied) is copied back into its mbuf
 * and counted in {@link #framesCopied()}.
 *
 * <p>Held IP fragments (a later fragment that came before its datagram's first, see
 * {@code docs/design/fragments.md}) are the one exception to arrival order: the engine keeps a
 * copy of such a packet and gives its verdict right after its first fragment's, or drops it
 * when it times out. The sink sees the verdicts of the packets after it first: it then frees
 * the held packet's mbuf in order ({@link TxDescriptor#ACTION_RELEASE}), so the ring moves on
 * and the mbuf goes back to the pool, and when the late verdict comes, a forwarded one is
 * staged from the engine's copy and transmitted in mbufs C allocates for it
 * ({@link TxDescriptor#ACTION_FORWARD_COPY}). The wire order is the order of the verdicts,
 * which is the serial oracle's order of outputs.
 *
 * <pre>
 *  verdicts:   ..., 7, 9, 10, 8, 11   (8 held until its first fragment, 10, came)
 *  tx burst:   7 fwd, 8 release, 9 fwd, 10 fwd, copy of 8 fwd, 11 fwd
 * </pre>
 *
 * <p>A {@link PacketListener}: the executor calls it for every packet in arrival order
 * (held fragments aside), on the thread that drives the {@link DpdkSource}. It must be the <em>last</em> listener
 * to see a packet: once it has the verdict, the mbuf may be transmitted and reused for
 * another packet, and the buffer's view of it with it. Allocates nothing per packet.
 */
public final class DpdkSink implements PacketListener
{
    private final RingBuffer<RxEvent> ring;
    private final Sequence released;
    private final ByteBuffer window;
    private final ByteBuffer frames;
    private final MbufChain chains;
    private final ByteBuffer tx;
    private final ByteBuffer staging;
    /** Sequences whose mbuf was released while the engine holds a copy: each gets one late verdict. */
    private final LongHashSet held = new LongHashSet();
    private int staged;
    private long heldReleased;
    private long heldForwarded;
    private final int portId;
    private final int burst;
    private long nextSequence;
    private int pending;
    private long forwarded;
    private long dropped;
    private long framesCopied;

    DpdkSink(final DpdkPort port, final RingBuffer<RxEvent> ring, final Sequence released)
    {
        this.staging = port.txStaging();
        this.ring = ring;
        this.released = released;
        this.window = port.window();
        this.frames = port.frames();
        this.chains = port.chains();
        this.tx = port.txDescriptors();
        this.portId = port.id();
        this.burst = port.config().burstPackets();
    }

    /**
     * Take the verdict for the next packet in arrival order, or for a held fragment let go.
     *
     * @throws IllegalStateException if packets come out of arrival order other than as held
     *                               fragments (an executor bug).
     * @throws UncheckedIOException  wrapping a {@link DpdkException} if a tx burst fails.
     */
    @Override
    public void onPacket(final PacketRecord record, final PacketBuffer buffer, final PacketFlyweight packet)
    {
        final long late = record.sequence();
        if (late < nextSequence)
        {
            onHeldVerdict(record, buffer);
            return;
        }
        while (nextSequence < late)
        {
            releaseHeld();
        }
        final long sequence = nextSequence;
        final RxEvent e = ring.get(sequence);
        final int d = pending * TxDescriptor.BYTES;
        tx.putLong(d + TxDescriptor.MBUF, e.mbuf);
        if (record.dropped())
        {
            tx.putInt(d + TxDescriptor.ACTION, TxDescriptor.ACTION_DROP);
            dropped++;
        }
        else
        {
            final int length = buffer.length();
            if (buffer.memory() != frames || buffer.offset() != e.dataOffset)
            {
                copyBackSlowPath(e, buffer);
            }
            tx.putInt(d + TxDescriptor.LENGTH, length);
            tx.putInt(d + TxDescriptor.ACTION, TxDescriptor.ACTION_FORWARD);
            forwarded++;
        }
        nextSequence = sequence + 1;
        if (++pending == burst)
        {
            flushOrThrow();
        }
    }

    /** The packet due next has no verdict yet: the engine holds it (a copy). Free its mbuf now. */
    private void releaseHeld()
    {
        final long sequence = nextSequence;
        // the fragment tracker's own bound on held fragments bounds the packets waiting for a late verdict
        if (held.size() >= FragmentTracker.MAX_HELD_LIMIT)
        {
            throw new IllegalStateException("packet " + sequence + " skipped with " + held.size()
                + " packets already waiting for a late verdict (at most " + FragmentTracker.MAX_HELD_LIMIT + " fragments are held)");
        }
        held.add(sequence);
        final int d = pending * TxDescriptor.BYTES;
        tx.putLong(d + TxDescriptor.MBUF, ring.get(sequence).mbuf);
        tx.putInt(d + TxDescriptor.ACTION, TxDescriptor.ACTION_RELEASE);
        heldReleased++;
        nextSequence = sequence + 1;
        if (++pending == burst)
        {
            flushOrThrow();
        }
    }

    /** The late verdict of a held fragment, whose mbuf is gone: forward it from the engine's copy. */
    private void onHeldVerdict(final PacketRecord record, final PacketBuffer buffer)
    {
        if (!held.remove(record.sequence()))
        {
            throw new IllegalStateException("verdict for packet " + record.sequence() + " while " + nextSequence
                + " is due, and it was not held");
        }
        if (record.dropped())
        {
            dropped++;
            return;
        }
        final int length = buffer.length();
        if (length > DpdkConfig.MAX_FRAME_BYTES)
        {
            throw new IllegalStateException("held fragment " + record.sequence() + " of " + length + " bytes is longer than "
                + DpdkConfig.MAX_FRAME_BYTES + ": it cannot have come from the port");
        }
        if (staged == TxDescriptor.STAGING_FRAMES)
        {
            flushOrThrow();
        }
        final int offset = staged++ * DpdkConfig.MAX_FRAME_BYTES;
        staging.put(offset, buffer.memory(), buffer.offset(), length);
        final int d = pending * TxDescriptor.BYTES;
        tx.putLong(d + TxDescriptor.MBUF, offset);
        tx.putInt(d + TxDescriptor.LENGTH, length);
        tx.putInt(d + TxDescriptor.ACTION, TxDescriptor.ACTION_FORWARD_COPY);
        heldForwarded++;
        forwarded++;
        if (++pending == burst)
        {
            flushOrThrow();
        }
    }

    /** The frame as post-processing left it, back into the mbuf it came from. */
    private void copyBackSlowPath(final RxEvent e, final PacketBuffer buffer)
    {
        if (e.segments == 1)
        {
            window.put(e.dataOffset, buffer.memory(), buffer.offset(), Math.min(buffer.length(), e.dataLength));
        }
        else
        {
            chains.copyIn(e.mbuf, buffer.memory(), buffer.offset(), buffer.length());
        }
        framesCopied++;
    }

    private void flushOrThrow()
    {
        try
        {
            flush();
        }
        catch (final DpdkException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Apply the verdicts gathered so far (one tx crossing) and release their ring slots.
     *
     * @throws DpdkException if the tx burst fails.
     */
    public void flush() throws DpdkException
    {
        if (pending > 0)
        {
            final int n = pending;
            pending = 0;
            staged = 0;
            Dpdk.txBurst(portId, 0, n);
            released.set(nextSequence - 1);
        }
    }

    /** @return packets handed to the port for transmission. */
    public long forwarded()
    {
        return forwarded;
    }

    /** @return mbufs freed before their verdict because the engine held a copy of the fragment. */
    public long heldReleased()
    {
        return heldReleased;
    }

    /** @return held fragments forwarded from the engine's copy. */
    public long heldForwarded()
    {
        return heldForwarded;
    }

    /** @return packets freed because the chain dropped them. */
    public long dropped()
    {
        return dropped;
    }

    /**
     * @return forwarded frames copied back into their mbufs because the engine did not see
     *         them in place (chains of mbufs); 0 when every frame fits in one mbuf. Engine thread.
     */
    public long framesCopied()
    {
        return framesCopied;
    }
}
