package io.transnfv.dpdk;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.packet.PacketFlyweight;

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
 * <p>A {@link PacketListener}: the executor calls it for every packet in arrival order,
 * on the thread that drives the {@link DpdkSource}. It must be the <em>last</em> listener
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
    private final int portId;
    private final int burst;
    private long nextSequence;
    private int pending;
    private long forwarded;
    private long dropped;
    private long framesCopied;

    DpdkSink(final DpdkPort port, final RingBuffer<RxEvent> ring, final Sequence released)
    {
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
     * Take the verdict for the next packet in arrival order.
     *
     * @throws IllegalStateException if packets come out of arrival order (an executor bug).
     * @throws UncheckedIOException  wrapping a {@link DpdkException} if a tx burst fails.
     */
    @Override
    public void onPacket(final PacketRecord record, final PacketBuffer buffer, final PacketFlyweight packet)
    {
        final long sequence = nextSequence;
        if (record.sequence() != sequence)
        {
            throw new IllegalStateException("verdict for packet " + record.sequence() + " while " + sequence + " is due");
        }
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
            Dpdk.txBurst(portId, 0, n);
            released.set(nextSequence - 1);
        }
    }

    /** @return packets handed to the port for transmission. */
    public long forwarded()
    {
        return forwarded;
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
